import { describe, expect, it } from 'vitest';
import { IDENTITY, followCamera } from './camera';

describe('the play camera', () => {
  it('puts the target, as laid out, in the middle of the page', () => {
    const placement = { x: 20, y: 10, scale: 1.5 };
    const camera = followCamera(placement, { x: 100, y: 40 }, { width: 1000, height: 600 }, 2);
    expect(camera).toEqual({ pivotX: 20 + 150, pivotY: 10 + 60, x: 500, y: 300, scale: 2 });
    // The stage maps page point p to (p − pivot)·scale + position: the target lands on the centre.
    const screenX = (placement.x + placement.scale * 100 - camera.pivotX) * camera.scale + camera.x;
    expect(screenX).toBe(500);
  });

  it('leaves the stage alone without a target', () => {
    expect(followCamera({ x: 0, y: 0, scale: 1 }, null, { width: 10, height: 10 }, 2)).toBe(IDENTITY);
  });
});
