import { deflateRawSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { INFLATE_CHUNK_BYTES, adler32, inflateExactly, unpackBlock, widen, zlibHeaderOk } from './blockPixels';

// Deflate never expands more than this (a 258-byte match coded in 2 bits).
const MAX_DEFLATE_RATIO = 1032;

// A deterministic image with runs and noise, so every deflate block type shows up across levels.
function image(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  let state = 7;
  for (let i = 0; i < bytes; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    out[i] = i % 97 < 60 ? (i >> 6) & 0xff : state >>> 24;
  }
  return out;
}

const zlibOf = (raw: Uint8Array, level: number) => new Uint8Array(deflateSync(raw, { level }));
const u32BigEndian = (value: number) => Uint8Array.of(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
const ZLIB_HEADER = Uint8Array.of(0x78, 0xda);
// A zlib stream around any raw deflate body and trailer, to build streams zlib itself would not write.
const wrap = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

describe('inflating a block exactly', () => {
  const raw = image(70_000); // past one stored block (64 KiB)

  it('inflates streams of every level the same, whatever the input chunk', () => {
    for (const level of [0, 1, 6, 9]) {
      const zlib = zlibOf(raw, level);
      for (const chunk of [257, 1000, INFLATE_CHUNK_BYTES, zlib.length]) {
        const result = inflateExactly(zlib, raw.length, chunk);
        expect(result.ok, `level ${level}, chunk ${chunk}`).toBe(true);
        if (result.ok) expect(Buffer.from(result.bytes).equals(Buffer.from(raw))).toBe(true);
      }
    }
  });

  it('inflates the same when fed a byte at a time', () => {
    const small = image(3000);
    const result = inflateExactly(zlibOf(small, 9), small.length, 1);
    expect(result.ok && Buffer.from(result.bytes).equals(Buffer.from(small))).toBe(true);
  });

  it('calls a stream longer or shorter than expected SizeMismatch', () => {
    expect(inflateExactly(zlibOf(raw, 9), raw.length - 1)).toMatchObject({ ok: false, error: 'SizeMismatch' });
    expect(inflateExactly(zlibOf(raw, 9), raw.length + 1)).toMatchObject({ ok: false, error: 'SizeMismatch' });
  });

  it('calls every cut of a stream BadZlib', () => {
    const zlib = zlibOf(image(300), 9);
    for (let length = 0; length < zlib.length; length++) {
      expect(inflateExactly(zlib.subarray(0, length), 300), `cut to ${length}`).toMatchObject({ ok: false, error: 'BadZlib' });
    }
  });

  it('checks the Adler-32 and refuses bytes after the stream, even after a correct Adler-32', () => {
    const small = image(500);
    const body = new Uint8Array(deflateRawSync(small, { level: 9 }));
    const adler = u32BigEndian(adler32(small));
    expect(inflateExactly(wrap(ZLIB_HEADER, body, adler), 500).ok).toBe(true);
    const wrong = u32BigEndian(adler32(small) ^ 1);
    expect(inflateExactly(wrap(ZLIB_HEADER, body, wrong), 500)).toMatchObject({ ok: false, error: 'BadZlib' });
    // Junk between the stream and a correct trailer: only where the deflate stream ended tells.
    expect(inflateExactly(wrap(ZLIB_HEADER, body, Uint8Array.of(0), adler), 500)).toMatchObject({ ok: false, error: 'BadZlib' });
    expect(inflateExactly(wrap(ZLIB_HEADER, body, adler, Uint8Array.of(0)), 500)).toMatchObject({ ok: false, error: 'BadZlib' });
  });

  it('refuses a header that is not RFC 1950 deflate without a dictionary', () => {
    expect(zlibHeaderOk(Uint8Array.of(0x78, 0x9c))).toBe(true);
    expect(zlibHeaderOk(Uint8Array.of(0x78, 0x01))).toBe(true);
    expect(zlibHeaderOk(Uint8Array.of(0x78))).toBe(false); // too short
    expect(zlibHeaderOk(Uint8Array.of(0x79, 0x9c))).toBe(false); // method 9
    expect(zlibHeaderOk(Uint8Array.of(0x88, 0x1c))).toBe(false); // a 64 KiB window (CINFO 8), check bits right
    expect(zlibHeaderOk(Uint8Array.of(0x78, 0xbb))).toBe(false); // a preset dictionary
    expect(zlibHeaderOk(Uint8Array.of(0x78, 0x9d))).toBe(false); // the check bits
  });

  it('stops a zlib bomb just past the expected length, whatever it would inflate to', () => {
    const bomb = zlibOf(new Uint8Array(64 << 20), 9); // 64 MiB of zeros in ~64 KB
    const expected = 16;
    const result = inflateExactly(bomb, expected);
    expect(result).toMatchObject({ ok: false, error: 'SizeMismatch' });
    const inflated = result.ok ? 0 : result.inflatedBytes;
    expect(inflated).toBeGreaterThan(expected);
    expect(inflated).toBeLessThanOrEqual(expected + 1 + MAX_DEFLATE_RATIO * INFLATE_CHUNK_BYTES);
  });

  it('computes Adler-32 as RFC 1950 does, past its reduction run', () => {
    expect(adler32(new TextEncoder().encode('Wikipedia'))).toBe(0x11e60398);
    expect(adler32(new Uint8Array(0))).toBe(1);
    const big = image(100_000);
    const trailer = zlibOf(big, 6).subarray(-4);
    expect(adler32(big)).toBe(((trailer[0]! << 24) | (trailer[1]! << 16) | (trailer[2]! << 8) | trailer[3]!) >>> 0);
  });
});

describe('widening a block', () => {
  it('makes each pixel a scale×scale square', () => {
    const small = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8); // 2×1
    const wide = widen(small, 6, 3, 3);
    const pixel = (x: number, y: number) => [...wide.subarray((y * 6 + x) * 4, (y * 6 + x) * 4 + 4)];
    for (let y = 0; y < 3; y++) {
      for (let x = 0; x < 6; x++) expect(pixel(x, y)).toEqual(x < 3 ? [1, 2, 3, 4] : [5, 6, 7, 8]);
    }
  });

  it('keeps scale 1 as it is, and reads an unaligned image', () => {
    const small = Uint8Array.of(9, 9, 9, 9);
    expect(widen(small, 1, 1, 1)).toBe(small);
    const unaligned = Uint8Array.of(0, 1, 2, 3, 4).subarray(1);
    expect([...widen(unaligned, 2, 2, 2)]).toEqual([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]);
  });

  it('unpacks a block: inflated at 1/scale, then widened', () => {
    const small = Uint8Array.of(10, 20, 30, 40, 50, 60, 70, 80); // 1×2
    const result = unpackBlock({ width: 2, height: 4, scale: 2, zlib: zlibOf(small, 9) });
    expect(result.ok && [...result.bytes]).toEqual([...[10, 20, 30, 40], ...[10, 20, 30, 40], ...[10, 20, 30, 40], ...[10, 20, 30, 40],
      ...[50, 60, 70, 80], ...[50, 60, 70, 80], ...[50, 60, 70, 80], ...[50, 60, 70, 80]]);
    expect(unpackBlock({ width: 4, height: 4, scale: 2, zlib: zlibOf(small, 9) })).toMatchObject({ ok: false, error: 'SizeMismatch' });
  });
});
