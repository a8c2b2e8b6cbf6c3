// Raw Snappy blocks (no framing) for sprite pixels: snappyjs does the work, we check the stream first,
// because snappyjs silently drops bytes written past the declared length and never reports short output.
import { compress, uncompress } from 'snappyjs';

const TAG_LITERAL = 0;
const TAG_COPY_1 = 1;
const TAG_COPY_2 = 2;
const MAX_VARINT_BYTES = 5;
const SHORT_LITERAL_LIMIT = 60; // literal lengths above this are stored in 1..4 extra bytes

// Reads the varint length at the start of a block; null if it is missing or wider than 32 bits.
function declaredLength(block: Uint8Array): { length: number; at: number } | null {
  let length = 0;
  for (let i = 0; i < MAX_VARINT_BYTES && i < block.length; i++) {
    const byte = block[i]!;
    length += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return length > 0xffffffff ? null : { length, at: i + 1 };
  }
  return null;
}

// Walks every tag without copying: true when the block is well-formed and yields exactly `expected` bytes.
function producesExactly(block: Uint8Array, at: number, expected: number): boolean {
  let pos = at;
  let produced = 0;
  while (pos < block.length) {
    const tag = block[pos++]!;
    const kind = tag & 0x3;
    if (kind === TAG_LITERAL) {
      let length = (tag >>> 2) + 1;
      if (length > SHORT_LITERAL_LIMIT) {
        const extra = length - SHORT_LITERAL_LIMIT;
        if (pos + extra > block.length) return false;
        length = 0;
        for (let i = 0; i < extra; i++) length += block[pos + i]! * 2 ** (8 * i);
        length += 1;
        pos += extra;
      }
      if (pos + length > block.length) return false;
      pos += length;
      produced += length;
    } else {
      let length: number;
      let offset: number;
      if (kind === TAG_COPY_1) {
        if (pos + 1 > block.length) return false;
        length = ((tag >>> 2) & 0x7) + 4;
        offset = ((tag >>> 5) << 8) + block[pos]!;
        pos += 1;
      } else if (kind === TAG_COPY_2) {
        if (pos + 2 > block.length) return false;
        length = (tag >>> 2) + 1;
        offset = block[pos]! + block[pos + 1]! * 0x100;
        pos += 2;
      } else {
        if (pos + 4 > block.length) return false;
        length = (tag >>> 2) + 1;
        offset = block[pos]! + block[pos + 1]! * 0x100 + block[pos + 2]! * 0x10000 + block[pos + 3]! * 0x1000000;
        pos += 4;
      }
      if (offset === 0 || offset > produced) return false;
      produced += length;
    }
    if (produced > expected) return false;
  }
  return produced === expected;
}

// The uncompressed length a block declares, or null when its preamble is not a valid u32 varint.
export function snappyPreamble(block: Uint8Array): number | null {
  return declaredLength(block)?.length ?? null;
}

export type SnappyResult = { ok: true; bytes: Uint8Array } | { ok: false; error: 'BadSnappy' | 'SizeMismatch' };

// Decompresses a block that must hold exactly `expected` bytes (w·h·4 for a sprite).
export function decompressExactly(block: Uint8Array, expected: number): SnappyResult {
  const header = declaredLength(block);
  if (!header) return { ok: false, error: 'BadSnappy' };
  if (header.length !== expected) return { ok: false, error: 'SizeMismatch' };
  if (!producesExactly(block, header.at, expected)) return { ok: false, error: 'BadSnappy' };
  try {
    return { ok: true, bytes: uncompress(block, expected) };
  } catch {
    return { ok: false, error: 'BadSnappy' };
  }
}

export function compressBlock(bytes: Uint8Array): Uint8Array {
  return compress(bytes);
}
