import { describe, expect, it } from 'vitest';
import { DOWNSCALE_MIN_RGBA_BYTES, downscaleHalf, shouldDownscale } from './downscale';

// Pixel (x, y) holds x, y, 7, 255, so the output shows which source pixel it kept.
function coords(width: number, height: number, offset = 0): Uint8Array {
  const buffer = new Uint8Array(offset + width * height * 4);
  const rgba = buffer.subarray(offset);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set([x, y, 7, 255], (y * width + x) * 4);
  return rgba;
}

const pixelAt = (image: { rgba: Uint8Array; width: number }, x: number, y: number) =>
  [...image.rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];

describe('downscaling big sprites', () => {
  it('applies from 1 MiB of RGBA: a 1364² vision cone yes, a 1440×96 map band no', () => {
    expect(shouldDownscale(1364, 1364)).toBe(true);
    expect(shouldDownscale(512, 512)).toBe(true); // exactly 1 MiB
    expect(shouldDownscale(512, 511)).toBe(false);
    expect(shouldDownscale(1440, 96)).toBe(false);
    expect(DOWNSCALE_MIN_RGBA_BYTES).toBe(1 << 20);
  });

  it('halves both sides (rounding up) and keeps every second pixel', () => {
    const even = downscaleHalf(coords(8, 6), 8, 6);
    expect([even.width, even.height, even.rgba.length]).toStrictEqual([4, 3, 48]);
    expect(pixelAt(even, 0, 0)).toStrictEqual([0, 0, 7, 255]);
    expect(pixelAt(even, 3, 2)).toStrictEqual([6, 4, 7, 255]);
    const odd = downscaleHalf(coords(5, 3), 5, 3);
    expect([odd.width, odd.height]).toStrictEqual([3, 2]);
    expect(pixelAt(odd, 2, 1)).toStrictEqual([4, 2, 7, 255]);
    const cone = downscaleHalf(new Uint8Array(1364 * 1364 * 4), 1364, 1364);
    expect([cone.width, cone.height, cone.rgba.length]).toStrictEqual([682, 682, 682 * 682 * 4]);
  });

  it('gives the same pixels from an unaligned view', () => {
    const aligned = downscaleHalf(coords(7, 5), 7, 5);
    const unaligned = downscaleHalf(coords(7, 5, 1), 7, 5);
    expect(unaligned).toStrictEqual(aligned);
  });
});
