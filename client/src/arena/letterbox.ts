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
