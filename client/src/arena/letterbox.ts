// Fits the world into the viewport keeping its aspect, centred: every player sees the same area.
export interface Letterbox {
  scale: number;
  offsetX: number;
  offsetY: number;
}

export function letterbox(viewWidth: number, viewHeight: number, worldWidth: number, worldHeight: number): Letterbox {
  if (worldWidth <= 0 || worldHeight <= 0 || viewWidth <= 0 || viewHeight <= 0) return { scale: 1, offsetX: 0, offsetY: 0 };
  const scale = Math.min(viewWidth / worldWidth, viewHeight / worldHeight);
  return { scale, offsetX: (viewWidth - worldWidth * scale) / 2, offsetY: (viewHeight - worldHeight * scale) / 2 };
}

// At least this much of the world is seen across the view's width: the 500-unit window and far more.
export const CAMERA_VIEW_UNITS = 2000;

// Letterboxed while the world fits at a scale showing CAMERA_VIEW_UNITS; beyond that, that scale,
// centred on the target and kept from showing past the world's edges.
export function followCamera(
  viewWidth: number,
  viewHeight: number,
  worldWidth: number,
  worldHeight: number,
  target: { x: number; y: number } | null,
): Letterbox {
  const box = letterbox(viewWidth, viewHeight, worldWidth, worldHeight);
  const scale = viewWidth / CAMERA_VIEW_UNITS;
  if (!target || box.scale >= scale) return box;
  const offset = (view: number, world: number, at: number) =>
    world * scale <= view ? (view - world * scale) / 2 : Math.min(0, Math.max(view - world * scale, view / 2 - at * scale));
  return { scale, offsetX: offset(viewWidth, worldWidth, target.x), offsetY: offset(viewHeight, worldHeight, target.y) };
}
