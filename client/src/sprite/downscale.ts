// Big sprites are uploaded at half resolution and drawn scaled ×2, so they still cover their full
// logical size. The hide-and-seek board (1440×800 logical, 2× on the global stream) is shown aspect-fit,
// usually well under 2880 device pixels wide, so a 1364² vision cone loses no visible detail, while its
// upload (and the texture the software rasterizer samples) is a quarter of the bytes.
export const DOWNSCALE_MIN_RGBA_BYTES = 1 << 20;
export const DOWNSCALE_FACTOR = 2;

export interface Pixels {
  rgba: Uint8Array;
  width: number;
  height: number;
}

export function shouldDownscale(width: number, height: number, minRgbaBytes = DOWNSCALE_MIN_RGBA_BYTES): boolean {
  return width * height * 4 >= minRgbaBytes && width >= DOWNSCALE_FACTOR && height >= DOWNSCALE_FACTOR;
}

// Keeps every second pixel in both axes (pixel (2x, 2y) becomes (x, y)): ceil(w/2)×ceil(h/2).
export function downscaleHalf(rgba: Uint8Array, width: number, height: number): Pixels {
  const w = Math.ceil(width / 2);
  const h = Math.ceil(height / 2);
  const out = new Uint8Array(w * h * 4);
  if (rgba.byteOffset % 4 === 0) {
    const src = new Uint32Array(rgba.buffer, rgba.byteOffset, width * height);
    const dst = new Uint32Array(out.buffer);
    for (let y = 0, to = 0; y < h; y++) {
      let from = 2 * y * width;
      for (let x = 0; x < w; x++, from += 2) dst[to++] = src[from]!;
    }
  } else {
    for (let y = 0, to = 0; y < h; y++) {
      let from = 2 * y * width * 4;
      for (let x = 0; x < w; x++, from += 8, to += 4) {
        out[to] = rgba[from]!;
        out[to + 1] = rgba[from + 1]!;
        out[to + 2] = rgba[from + 2]!;
        out[to + 3] = rgba[from + 3]!;
      }
    }
  }
  return { rgba: out, width: w, height: h };
}
