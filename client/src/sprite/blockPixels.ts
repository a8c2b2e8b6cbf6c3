// The compact stream's pixel blocks (compact.ts): a zlib stream (RFC 1950) of the image drawn at 1/scale,
// inflated to exactly its expected length and widened back by nearest neighbour. Mirrors
// src/protocol/block_pixels.cpp, so both receivers refuse the same blocks with the same error.
import { Inflate } from 'fflate';
import { BYTES_PER_PIXEL } from './protocol';

export type BlockPixelsError = 'BadZlib' | 'SizeMismatch';
// `inflatedBytes`: how many bytes came out before it stopped (a zlib bomb stops just past the expected length).
export type Inflated = { ok: true; bytes: Uint8Array } | { ok: false; error: BlockPixelsError; inflatedBytes: number };

const ZLIB_HEADER_BYTES = 2; // CMF, FLG
const ZLIB_TRAILER_BYTES = 4; // Adler-32 of the inflated bytes, big-endian
const DEFLATE_METHOD = 8; // CM: the only method RFC 1950 defines
const MAX_WINDOW_CODE = 7; // CINFO: a window of at most 32 KiB
const PRESET_DICTIONARY = 0x20; // FDICT: a stream that needs one is not ours
const HEADER_CHECK_DIVISOR = 31; // (CMF·256 + FLG) is a multiple of 31
// Input fed per step: deflate expands at most 1032×, so a stream that runs past its expected length is
// stopped within ~4 MiB of output, whatever it would inflate to.
export const INFLATE_CHUNK_BYTES = 4096;
// Adler-32 (RFC 1950 §8.2): sums modulo 65521, reduced every 5552 bytes before 32 bits can overflow.
const ADLER_MODULUS = 65521;
const ADLER_RUN = 5552;

// The bytes of the image at 1/scale that a block's zlib stream holds.
export function smallImageBytes(width: number, height: number, scale: number): number {
  return Math.floor(width / scale) * Math.floor(height / scale) * BYTES_PER_PIXEL;
}

// RFC 1950's header as the C++ codec checks it while decoding (hns_compact.cpp).
export function zlibHeaderOk(zlib: Uint8Array): boolean {
  if (zlib.length < ZLIB_HEADER_BYTES) return false;
  const cmf = zlib[0]!;
  const flg = zlib[1]!;
  return (cmf & 0x0f) === DEFLATE_METHOD && cmf >> 4 <= MAX_WINDOW_CODE && (flg & PRESET_DICTIONARY) === 0 && ((cmf << 8) | flg) % HEADER_CHECK_DIVISOR === 0;
}

export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let at = 0; at < bytes.length; ) {
    const end = Math.min(at + ADLER_RUN, bytes.length);
    for (; at < end; at++) {
      a += bytes[at]!;
      b += a;
    }
    a %= ADLER_MODULUS;
    b %= ADLER_MODULUS;
  }
  return (b * 0x10000 + a) >>> 0;
}

// fflate 0.8.2's Inflate keeps where the deflate stream ended in private fields: `s.f` (the final block
// began), `s.l` (a block is still open), `s.p` (the end's bit offset within `p`, the input left over).
// The version is pinned in package.json; blockPixels.test.ts fails if an upgrade moves them.
interface InflateInternals {
  s: { f?: number; l?: unknown; p?: number };
  p: Uint8Array;
}

// The input after the deflate stream's end, or null when the stream has not ended.
function afterDeflateEnd(inflater: Inflate): Uint8Array | null {
  const { s, p } = inflater as unknown as InflateInternals;
  if (!s.f || s.l) return null;
  return p.subarray(s.p ? 1 : 0); // a partly used first byte is the stream's last
}

const readU32BigEndian = (bytes: Uint8Array): number => ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;

// Inflates `zlib` into exactly `expected` bytes, with zlib's verdicts as block_pixels.cpp maps them:
// more bytes than expected (it stops right after) or fewer are SizeMismatch; a bad header, a broken or
// cut stream, a wrong Adler-32 or bytes after the stream's end are BadZlib.
export function inflateExactly(zlib: Uint8Array, expected: number, chunkBytes = INFLATE_CHUNK_BYTES): Inflated {
  if (!zlibHeaderOk(zlib)) return { ok: false, error: 'BadZlib', inflatedBytes: 0 };
  let out: Uint8Array | null = null; // allocated with the first output, so a broken stream costs nothing
  let produced = 0;
  const inflater = new Inflate((chunk) => {
    if (chunk.length > 0 && produced + chunk.length <= expected) (out ??= new Uint8Array(expected)).set(chunk, produced);
    produced += chunk.length;
  });
  const body = zlib.subarray(ZLIB_HEADER_BYTES);
  try {
    for (let at = 0; at < body.length && produced <= expected; at += chunkBytes) {
      inflater.push(body.subarray(at, at + chunkBytes), at + chunkBytes >= body.length);
    }
  } catch {
    return { ok: false, error: 'BadZlib', inflatedBytes: produced }; // broken, or cut before its end
  }
  if (produced > expected) return { ok: false, error: 'SizeMismatch', inflatedBytes: produced };
  const rest = afterDeflateEnd(inflater);
  const inflated = out ?? new Uint8Array(0);
  if (rest === null || rest.length < ZLIB_TRAILER_BYTES || readU32BigEndian(rest) !== adler32(inflated.subarray(0, produced))) {
    return { ok: false, error: 'BadZlib', inflatedBytes: produced };
  }
  if (produced !== expected) return { ok: false, error: 'SizeMismatch', inflatedBytes: produced };
  if (rest.length > ZLIB_TRAILER_BYTES) return { ok: false, error: 'BadZlib', inflatedBytes: produced };
  return { ok: true, bytes: inflated };
}

// Each pixel of the width/scale × height/scale image becomes a scale×scale square of width×height.
export function widen(small: Uint8Array, width: number, height: number, scale: number): Uint8Array {
  if (scale === 1) return small;
  const aligned = small.byteOffset % BYTES_PER_PIXEL === 0 ? small : small.slice();
  const source = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / BYTES_PER_PIXEL);
  const out = new Uint8Array(width * height * BYTES_PER_PIXEL);
  const target = new Uint32Array(out.buffer); // whole pixels: byte order does not matter for copying
  const smallWidth = width / scale;
  for (let y = 0; y < height; y += scale) {
    const row = y * width;
    let at = row;
    for (let x = 0, from = (y / scale) * smallWidth; x < smallWidth; x++, from++) {
      const pixel = source[from]!;
      for (let i = 0; i < scale; i++) target[at++] = pixel;
    }
    for (let i = 1; i < scale; i++) target.copyWithin(row + i * width, row, row + width);
  }
  return out;
}

export interface PackedBlock {
  width: number;
  height: number;
  scale: number;
  zlib: Uint8Array;
}

// A decoded block's width·height·4 straight RGBA (its sizes were checked by the decoder).
export function unpackBlock(block: PackedBlock): Inflated {
  const small = inflateExactly(block.zlib, smallImageBytes(block.width, block.height, block.scale));
  if (!small.ok) return small;
  return { ok: true, bytes: widen(small.bytes, block.width, block.height, block.scale) };
}
