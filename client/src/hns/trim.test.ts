import { describe, expect, it } from 'vitest';
import { opaqueBounds } from './trim';

function image(width: number, height: number, ink: Array<[number, number]>): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (const [x, y] of ink) rgba[(y * width + x) * 4 + 3] = 1;
  return rgba;
}

describe('opaque bounds', () => {
  it('finds the rectangle around every pixel with alpha', () => {
    expect(opaqueBounds(image(10, 8, [[3, 2], [6, 5]]), 10, 8)).toEqual({ x: 3, y: 2, width: 4, height: 4 });
    expect(opaqueBounds(image(10, 8, [[0, 0], [9, 7]]), 10, 8)).toEqual({ x: 0, y: 0, width: 10, height: 8 });
    expect(opaqueBounds(image(5, 5, [[4, 0]]), 5, 5)).toEqual({ x: 4, y: 0, width: 1, height: 1 });
  });

  it('ignores colour without alpha, and has none for a clear image', () => {
    const rgba = image(4, 4, []);
    rgba.fill(200);
    for (let i = 3; i < rgba.length; i += 4) rgba[i] = 0;
    expect(opaqueBounds(rgba, 4, 4)).toBeNull();
  });
});
