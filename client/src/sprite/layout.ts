// Where each layer goes on the page: the map and the full-screen layer are aspect-fit and centred,
// UI layers hug their edge or corner at the map's scale, so the HUD keeps its size relative to the board.
import { letterbox } from '../arena/letterbox';
import { LayerType } from './protocol';
import type { Layer, Viewport } from './world';

export interface Placement {
  x: number;
  y: number;
  scale: number;
}

export interface PageSize {
  width: number;
  height: number;
}

// Horizontal and vertical anchors of each UI layer type: 0 left/top, 0.5 centre, 1 right/bottom.
const UI_ANCHORS: Readonly<Record<number, readonly [number, number]>> = {
  [LayerType.TopLeft]: [0, 0],
  [LayerType.TopRight]: [1, 0],
  [LayerType.BottomRight]: [1, 1],
  [LayerType.BottomLeft]: [0, 1],
  [LayerType.CentreTop]: [0.5, 0],
  [LayerType.CentreRight]: [1, 0.5],
  [LayerType.CentreLeft]: [0, 0.5],
  [LayerType.CentreBottom]: [0.5, 1],
};

const NO_VIEWPORT: Viewport = { width: 0, height: 0 };

// The scale UI layers use: the first map layer's fit, or 1 when there is no map to follow.
export function mapScale(layers: Iterable<Layer>, page: PageSize): number {
  for (const layer of layers) {
    if (layer.layerType === LayerType.Map && layer.viewport) {
      return letterbox(page.width, page.height, layer.viewport.width, layer.viewport.height).scale;
    }
  }
  return 1;
}

export function placeLayer(layer: Layer, page: PageSize, uiScale: number): Placement {
  const viewport = layer.viewport ?? NO_VIEWPORT;
  if (layer.layerType === LayerType.Map || layer.layerType === LayerType.FullScreen) {
    if (!layer.viewport) return { x: 0, y: 0, scale: 1 };
    const box = letterbox(page.width, page.height, viewport.width, viewport.height);
    return { x: box.offsetX, y: box.offsetY, scale: box.scale };
  }
  const [ax, ay] = UI_ANCHORS[layer.layerType] ?? [0, 0];
  return {
    x: (page.width - viewport.width * uiScale) * ax,
    y: (page.height - viewport.height * uiScale) * ay,
    scale: uiScale,
  };
}
