// The play view's camera: the own cog stays in the middle of the page, the board slides under it.
// Pure, so the tests check it without a GPU; the stage applies it as the Pixi stage's pivot and position.
import type { Placement } from '../sprite/layout';

export interface CameraTransform {
  pivotX: number; // the page point (as laid out by layout.ts) that goes to the centre
  pivotY: number;
  x: number; // where it goes: the page centre
  y: number;
  scale: number;
}

export const IDENTITY: CameraTransform = { pivotX: 0, pivotY: 0, x: 0, y: 0, scale: 1 };

// `target` is in the map layer's own pixels (wire units); `placement` is that layer's fit on the page.
export function followCamera(
  placement: Placement,
  target: { x: number; y: number } | null,
  page: { width: number; height: number },
  zoom: number,
): CameraTransform {
  if (!target) return IDENTITY;
  return {
    pivotX: placement.x + placement.scale * target.x,
    pivotY: placement.y + placement.scale * target.y,
    x: page.width / 2,
    y: page.height / 2,
    scale: zoom,
  };
}
