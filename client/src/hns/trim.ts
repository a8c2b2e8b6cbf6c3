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

// The same bounds on a texture uploaded `factor` times smaller (downscale.ts): the texel rectangle
// covering them (clamped to the texture) and where it starts in logical pixels.
export function scaledBounds(bounds: Bounds, factor: number, textureWidth: number, textureHeight: number): { frame: Bounds; dx: number; dy: number } {
  const x0 = Math.floor(bounds.x / factor);
  const y0 = Math.floor(bounds.y / factor);
  const x1 = Math.min(textureWidth, Math.ceil((bounds.x + bounds.width) / factor));
  const y1 = Math.min(textureHeight, Math.ceil((bounds.y + bounds.height) / factor));
  return { frame: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, dx: x0 * factor, dy: y0 * factor };
}

// Horizontal strips that together hold every inked pixel inside `bounds`: the rows are cut at
// multiples of `stripRows` (an even number, so strips stay whole texels on a half-size texture and
// never overlap there), and each strip spans only its rows' leftmost to rightmost ink. A vision cone
// is a wedge: its strips cover about 60 % of its bounding box. Strips without ink are left out.
export function inkStrips(rgba: Uint8Array, width: number, bounds: Bounds, stripRows: number): Bounds[] {
  const out: Bounds[] = [];
  const bottom = bounds.y + bounds.height;
  for (let top = bounds.y; top < bottom; ) {
    const end = Math.min(bottom, (Math.floor(top / stripRows) + 1) * stripRows);
    let left = bounds.x + bounds.width;
    let right = bounds.x;
    for (let y = top; y < end; y++) {
      let at = (y * width + bounds.x) * BYTES_PER_PIXEL + ALPHA;
      for (let x = bounds.x; x < left; x++, at += BYTES_PER_PIXEL) {
        if (rgba[at] !== 0) {
          left = x;
          break;
        }
      }
      at = (y * width + bounds.x + bounds.width - 1) * BYTES_PER_PIXEL + ALPHA;
      for (let x = bounds.x + bounds.width - 1; x >= right; x--, at -= BYTES_PER_PIXEL) {
        if (rgba[at] !== 0) {
          right = x + 1;
          break;
        }
      }
    }
    if (right > left) out.push({ x: left, y: top, width: right - left, height: end - top });
    top = end;
  }
  return out;
}

// Two triangles per strip, in logical pixels from the sprite's origin, with UVs on a texture `factor`
// times smaller than the sprite (textureWidth×textureHeight texels).
export function stripGeometry(
  strips: readonly Bounds[],
  factor: number,
  textureWidth: number,
  textureHeight: number,
): { positions: Float32Array; uvs: Float32Array; indices: Uint32Array } {
  const positions = new Float32Array(strips.length * 8);
  const uvs = new Float32Array(strips.length * 8);
  const indices = new Uint32Array(strips.length * 6);
  strips.forEach((strip, i) => {
    const { frame, dx, dy } = scaledBounds(strip, factor, textureWidth, textureHeight);
    const x1 = dx + frame.width * factor;
    const y1 = dy + frame.height * factor;
    positions.set([dx, dy, x1, dy, x1, y1, dx, y1], i * 8);
    const u0 = frame.x / textureWidth;
    const v0 = frame.y / textureHeight;
    const u1 = (frame.x + frame.width) / textureWidth;
    const v1 = (frame.y + frame.height) / textureHeight;
    uvs.set([u0, v0, u1, v0, u1, v1, u0, v1], i * 8);
    const v = i * 4;
    indices.set([v, v + 1, v + 2, v, v + 2, v + 3], i * 6);
  });
  return { positions, uvs, indices };
}
