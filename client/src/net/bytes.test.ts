import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, DecodeFailure, EncodeError } from './bytes';

const failureOf = (read: () => unknown): string | null => {
  try {
    read();
    return null;
  } catch (failure) {
    if (failure instanceof DecodeFailure) return failure.error;
    throw failure;
  }
};

describe('ByteWriter and ByteReader', () => {
  it('write and read every field little-endian', () => {
    const w = new ByteWriter();
    w.u8(0xfe); w.i8(-2); w.u16(0x1234); w.u24(0xabcdef); w.u32(0xdeadbeef); w.i32(-5); w.i64(-1); w.f32(1.5);
    w.string(1, 'я', 4);
    const bytes = w.result();
    expect(Array.from(bytes.subarray(0, 5))).toStrictEqual([0xfe, 0xfe, 0x34, 0x12, 0xef]);
    const r = new ByteReader(bytes);
    expect([r.u8(), r.i8(), r.u16(), r.u24(), r.u32(), r.i32(), r.i64(), r.f32(), r.string(1, 4)])
      .toStrictEqual([0xfe, -2, 0x1234, 0xabcdef, 0xdeadbeef, -5, -1, 1.5, 'я']);
    expect(r.remaining()).toBe(0);
  });

  it('keeps every byte when a message outgrows the first buffer', () => {
    const w = new ByteWriter();
    for (let i = 0; i < 100; i++) w.u32(i);
    w.string(2, 'x'.repeat(300), 300);
    const r = new ByteReader(w.result());
    for (let i = 0; i < 100; i++) expect(r.u32()).toBe(i);
    expect(r.string(2, 300)).toBe('x'.repeat(300));
  });

  it('refuse a value that does not fit, is not a number, or a lone surrogate', () => {
    const w = new ByteWriter();
    expect(() => w.u8(256)).toThrow(EncodeError);
    expect(() => w.i8(128)).toThrow(EncodeError);
    expect(() => w.u24(0x1000000)).toThrow(EncodeError);
    expect(() => w.u16(1.5)).toThrow(EncodeError);
    expect(() => w.u32(Number.NaN)).toThrow(EncodeError);
    expect(() => w.f32(Number.NaN)).toThrow(EncodeError);
    expect(() => w.string(1, '\ud800', 8)).toThrow(EncodeError);
    expect(() => w.count(1, 3, 2)).toThrow(EncodeError);
  });

  it('report a short frame, a long string and a forged count as decode errors', () => {
    expect(failureOf(() => new ByteReader(new Uint8Array([1])).u16())).toBe('Truncated');
    expect(failureOf(() => new ByteReader(new Uint8Array([5, 0x61])).string(1, 4))).toBe('LengthTooLarge');
    expect(failureOf(() => new ByteReader(new Uint8Array([2, 0xc3, 0x28])).string(1, 4))).toBe('InvalidUtf8');
    expect(failureOf(() => new ByteReader(new Uint8Array([3, 0, 1, 2])).count(2, 2, 1))).toBe('CountTooLarge');
    expect(failureOf(() => new ByteReader(new Uint8Array([3, 0, 1])).count(2, 10, 1))).toBe('CountTooLarge');
  });
});
