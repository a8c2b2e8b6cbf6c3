import { describe, expect, it } from 'vitest';
import { inkStrips, opaqueBounds, scaledBounds, stripGeometry } from './trim';

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

  it('maps bounds onto a texture uploaded at half size, covering every inked pixel', () => {
    // Even bounds map exactly; the offset stays in logical pixels.
    expect(scaledBounds({ x: 100, y: 40, width: 200, height: 60 }, 2, 682, 682)).toEqual({
      frame: { x: 50, y: 20, width: 100, height: 30 }, dx: 100, dy: 40,
    });
    // Odd edges widen to the texels that hold them.
    expect(scaledBounds({ x: 101, y: 41, width: 200, height: 61 }, 2, 682, 682)).toEqual({
      frame: { x: 50, y: 20, width: 101, height: 31 }, dx: 100, dy: 40,
    });
    // Never past the texture (an odd-sized sprite's last texel).
    expect(scaledBounds({ x: 0, y: 0, width: 5, height: 3 }, 2, 3, 2)).toEqual({ frame: { x: 0, y: 0, width: 3, height: 2 }, dx: 0, dy: 0 });
    expect(scaledBounds({ x: 3, y: 2, width: 4, height: 4 }, 1, 10, 8)).toEqual({ frame: { x: 3, y: 2, width: 4, height: 4 }, dx: 3, dy: 2 });
  });

  it('cuts the bounds into strips at multiples of the strip height, each as wide as its ink', () => {
    // A wedge: row y has ink from x = 10 - y to 10 + y (rows 2..9 of a 24×12 image).
    const ink: Array<[number, number]> = [];
    for (let y = 2; y < 10; y++) for (let x = 10 - y; x <= 10 + y; x++) ink.push([x, y]);
    const rgba = image(24, 12, ink);
    const bounds = opaqueBounds(rgba, 24, 12)!;
    expect(bounds).toEqual({ x: 1, y: 2, width: 19, height: 8 });
    expect(inkStrips(rgba, 24, bounds, 4)).toEqual([
      { x: 7, y: 2, width: 7, height: 2 }, // rows 2-3 (the first cut is at row 4)
      { x: 3, y: 4, width: 15, height: 4 }, // rows 4-7
      { x: 1, y: 8, width: 19, height: 2 }, // rows 8-9
    ]);
    // Every inked pixel is inside a strip, and strips do not overlap.
    const strips = inkStrips(rgba, 24, bounds, 2);
    for (const [x, y] of ink) expect(strips.filter((s) => x >= s.x && x < s.x + s.width && y >= s.y && y < s.y + s.height)).toHaveLength(1);
  });

  it('leaves out strips without ink', () => {
    const rgba = image(8, 12, [[1, 0], [6, 11]]);
    expect(inkStrips(rgba, 8, opaqueBounds(rgba, 8, 12)!, 4)).toEqual([
      { x: 1, y: 0, width: 1, height: 4 },
      { x: 6, y: 8, width: 1, height: 4 },
    ]);
  });

  it('turns strips into two triangles each, positions in logical pixels, UVs on a half-size texture', () => {
    const { positions, uvs, indices } = stripGeometry([{ x: 2, y: 0, width: 4, height: 4 }, { x: 1, y: 4, width: 7, height: 4 }], 2, 4, 4);
    expect([...positions]).toEqual([2, 0, 6, 0, 6, 4, 2, 4, 0, 4, 8, 4, 8, 8, 0, 8]);
    expect([...uvs]).toEqual([0.25, 0, 0.75, 0, 0.75, 0.5, 0.25, 0.5, 0, 0.5, 1, 0.5, 1, 1, 0, 1]);
    expect([...indices]).toEqual([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]);
  });
});
