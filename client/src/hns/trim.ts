// The smallest rectangle holding every non-transparent pixel of a straight-RGBA sprite. Vision cones
// are 1364×1364 on the global stream but mostly transparent: drawn through this rectangle they cost a
// fraction of the fill (headless Chromium rasterizes WebGL in software, where fill is the bottleneck).
export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

const ALPHA = 3;
const BYTES_PER_PIXEL = 4;

function rowHasInk(rgba: Uint8Array, width: number, y: number, from: number, to: number): boolean {
  let at = (y * width + from) * BYTES_PER_PIXEL + ALPHA;
  for (let x = from; x < to; x++, at += BYTES_PER_PIXEL) if (rgba[at] !== 0) return true;
  return false;
}

function columnHasInk(rgba: Uint8Array, width: number, x: number, top: number, bottom: number): boolean {
  let at = (top * width + x) * BYTES_PER_PIXEL + ALPHA;
  const stride = width * BYTES_PER_PIXEL;
  for (let y = top; y < bottom; y++, at += stride) if (rgba[at] !== 0) return true;
  return false;
}

// null when every pixel is transparent.
export function opaqueBounds(rgba: Uint8Array, width: number, height: number): Bounds | null {
  let top = 0;
  while (top < height && !rowHasInk(rgba, width, top, 0, width)) top++;
  if (top === height) return null;
  let bottom = height;
  while (bottom > top && !rowHasInk(rgba, width, bottom - 1, 0, width)) bottom--;
  let left = 0;
  while (left < width && !columnHasInk(rgba, width, left, top, bottom)) left++;
  let right = width;
  while (right > left && !columnHasInk(rgba, width, right - 1, top, bottom)) right--;
  return { x: left, y: top, width: right - left, height: bottom - top };
}
