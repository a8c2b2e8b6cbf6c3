import { describe, expect, it } from 'vitest';
import { mapScale, placeLayer } from './layout';
import type { Layer } from './world';

const layer = (layerType: number, width: number, height: number): Layer => ({
  id: layerType,
  layerType,
  flags: 0,
  viewport: { width, height },
});

describe('layer placement', () => {
  it('aspect-fits the map into the page and centres it', () => {
    // 1440×800 into 1000×1000: width-bound, scale 1000/1440, centred vertically.
    const scale = 1000 / 1440;
    expect(placeLayer(layer(0, 1440, 800), { width: 1000, height: 1000 }, 1)).toStrictEqual({
      x: 0,
      y: (1000 - 800 * scale) / 2,
      scale,
    });
    // 720×400 into 1920×800: height-bound, scale 2, centred horizontally.
    expect(placeLayer(layer(0, 720, 400), { width: 1920, height: 800 }, 1)).toStrictEqual({ x: 240, y: 0, scale: 2 });
  });

  it('aspect-fits the full-screen layer too', () => {
    expect(placeLayer(layer(9, 100, 50), { width: 400, height: 400 }, 1)).toStrictEqual({ x: 0, y: 100, scale: 4 });
  });

  it('pins UI layers to their edge or corner at the map’s scale', () => {
    const page = { width: 1000, height: 600 };
    const ui = (type: number) => placeLayer(layer(type, 100, 50), page, 2);
    expect(ui(1)).toStrictEqual({ x: 0, y: 0, scale: 2 }); // top-left
    expect(ui(2)).toStrictEqual({ x: 800, y: 0, scale: 2 }); // top-right
    expect(ui(3)).toStrictEqual({ x: 800, y: 500, scale: 2 }); // bottom-right
    expect(ui(4)).toStrictEqual({ x: 0, y: 500, scale: 2 }); // bottom-left
    expect(ui(5)).toStrictEqual({ x: 400, y: 0, scale: 2 }); // centre-top
    expect(ui(6)).toStrictEqual({ x: 800, y: 250, scale: 2 }); // centre-right
    expect(ui(7)).toStrictEqual({ x: 0, y: 250, scale: 2 }); // centre-left
    expect(ui(8)).toStrictEqual({ x: 400, y: 500, scale: 2 }); // centre-bottom
  });

  it('takes the UI scale from the map layer, or 1 without one', () => {
    expect(mapScale([layer(1, 10, 10), layer(0, 720, 400)], { width: 1440, height: 1000 })).toBe(2);
    expect(mapScale([layer(1, 10, 10)], { width: 1440, height: 1000 })).toBe(1);
  });

  it('leaves a layer without a viewport unscaled at the origin', () => {
    expect(placeLayer({ id: 0, layerType: 0, flags: 1, viewport: null }, { width: 800, height: 600 }, 1)).toStrictEqual({
      x: 0,
      y: 0,
      scale: 1,
    });
  });
});
