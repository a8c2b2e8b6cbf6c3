import { describe, expect, it } from 'vitest';
import { CAMERA_VIEW_UNITS, followCamera, letterbox } from './letterbox';

describe('followCamera', () => {
  it('letterboxes a world that fits the view', () => {
    expect(followCamera(1200, 675, 1600, 900, { x: 100, y: 100 })).toEqual(letterbox(1200, 675, 1600, 900));
  });

  it('centres the target in a larger world at the camera scale', () => {
    const scale = 1200 / CAMERA_VIEW_UNITS;
    expect(followCamera(1200, 675, 8000, 4500, { x: 4000, y: 2000 })).toEqual({ scale, offsetX: 600 - 4000 * scale, offsetY: 337.5 - 2000 * scale });
  });

  it('stops at the world edges', () => {
    const box = followCamera(1200, 675, 8000, 4500, { x: 10, y: 4490 });
    expect(box.offsetX).toBe(0);
    expect(box.offsetY).toBe(675 - 4500 * (1200 / CAMERA_VIEW_UNITS));
  });
});
