// Draws a SpriteWorld with PixiJS: one container per layer (placed by layout.ts, clipped to its viewport),
// one Pixi sprite per object (reused while the id lives), one texture per sprite id (TextureCache).
import { Application, BufferImageSource, Container, Graphics, Rectangle, Sprite as PixiSprite, Texture } from 'pixi.js';
import { DOWNSCALE_FACTOR, downscaleHalf, shouldDownscale } from './downscale';
import { mapScale, placeLayer } from './layout';
import { TextureCache } from './textureCache';
import type { TextureBackend } from './textureCache';
import type { RendererKind } from './rendererChoice';
import type { SpriteWorld } from './world';

const BACKGROUND = 0x000000;
const MASK_FILL = 0xffffff;

// How many logical pixels one texel of a texture covers: 2 for big sprites uploaded at half size.
const texelScale = new WeakMap<Texture, number>();
export const textureScale = (texture: Texture): number => texelScale.get(texture) ?? 1;

// Straight RGBA from the wire; premultiplied by the GPU on upload so blending is right. Nearest: pixel art.
// Sprites of ≥ 1 MiB RGBA (the vision cones) go up at half size and are drawn scaled ×2 (downscale.ts).
const pixiTextures: TextureBackend<Texture> = {
  upload(sprite) {
    const half = shouldDownscale(sprite.width, sprite.height);
    const pixels = half ? downscaleHalf(sprite.rgba, sprite.width, sprite.height) : sprite;
    const source = new BufferImageSource({
      resource: pixels.rgba,
      width: pixels.width,
      height: pixels.height,
      format: 'rgba8unorm',
      alphaMode: 'premultiply-alpha-on-upload',
      scaleMode: 'nearest',
    });
    // An odd size keeps its exact logical size: the frame ends half a texel early.
    const frame = half ? new Rectangle(0, 0, sprite.width / DOWNSCALE_FACTOR, sprite.height / DOWNSCALE_FACTOR) : undefined;
    const texture = new Texture({ source, frame });
    if (half) texelScale.set(texture, DOWNSCALE_FACTOR);
    return texture;
  },
  destroy(texture) {
    texture.destroy(true);
  },
};

interface LayerView {
  root: Container;
  clip: Graphics;
  clipKey: string;
  order: number[]; // object ids in the children's current order, to skip re-sorting when unchanged
}

export class PixiSpriteRenderer {
  readonly app = new Application();
  readonly textures = new TextureCache(pixiTextures);
  private readonly layers = new Map<number, LayerView>();
  private readonly objects = new Map<number, PixiSprite>();
  private layerOrder: number[] = [];
  private drawnRevision = -1;
  private resized = true;

  constructor(private readonly world: SpriteWorld) {}

  // `kind` first, the other backend if it cannot start (rendererChoice.ts decides which suits the browser).
  async init(host: HTMLElement, testId = 'sprite-canvas', kind: RendererKind = 'webgl'): Promise<void> {
    const preference: RendererKind[] = kind === 'canvas' ? ['canvas', 'webgl'] : ['webgl', 'canvas'];
    await this.app.init({ resizeTo: host, background: BACKGROUND, antialias: false, preference });
    this.app.canvas.dataset.testid = testId;
    host.appendChild(this.app.canvas);
    this.app.renderer.on('resize', () => (this.resized = true));
    // Several WebSocket messages may arrive between two display frames: the scene follows once per frame.
    this.app.ticker.add(() => {
      if (this.resized || this.world.revision !== this.drawnRevision) this.sync();
    });
  }

  // The backend that actually started: 'webgl' or 'canvas'.
  get kind(): RendererKind {
    return this.app.renderer.name === 'canvas' ? 'canvas' : 'webgl';
  }

  // Labels are the contract (§4.2): views read the scoreboard and the aim marker from them.
  labels(): string[] {
    return this.world.visibleLabels();
  }

  destroy(): void {
    this.textures.clear();
    this.app.destroy({ removeView: true }, { children: true });
  }

  // Brings the Pixi scene in line with the world; exposed for tests and for views that draw on demand.
  sync(): void {
    this.resized = false;
    this.drawnRevision = this.world.revision;
    const page = this.app.renderer.screen;
    const drawn = this.world.drawOrder();
    const uiScale = mapScale(this.world.layers.values(), page);
    const alive = new Set<number>();
    const layerOrder = drawn.map(({ layer }) => layer.id);
    if (!sameOrder(layerOrder, this.layerOrder)) {
      this.app.stage.removeChildren();
      for (const id of layerOrder) this.app.stage.addChild(this.layerView(id).root);
      this.layerOrder = layerOrder;
    }
    for (const { layer, objects } of drawn) {
      const view = this.layerView(layer.id);
      const placement = placeLayer(layer, page, uiScale);
      view.root.position.set(placement.x, placement.y);
      view.root.scale.set(placement.scale);
      this.clipTo(view, layer.viewport);
      const order: number[] = [];
      for (const object of objects) {
        alive.add(object.id);
        order.push(object.id);
        const sprite = this.objectSprite(object.id);
        const definition = this.world.sprites.get(object.spriteId);
        const texture = definition ? this.textures.get(definition) : null;
        // An object whose sprite is unknown or stripped exists and draws nothing (§1.1 0x02).
        sprite.visible = texture !== null;
        if (texture && sprite.texture !== texture) sprite.texture = texture;
        sprite.position.set(object.x, object.y);
        if (texture) sprite.scale.set(textureScale(texture));
      }
      if (!sameOrder(view.order, order) || view.root.children.length !== order.length + 1) {
        view.root.removeChildren();
        view.root.addChild(view.clip);
        for (const id of order) view.root.addChild(this.objects.get(id)!);
        view.order = order;
      }
    }
    for (const [id, sprite] of this.objects) {
      if (alive.has(id)) continue;
      sprite.destroy();
      this.objects.delete(id);
    }
  }

  private layerView(id: number): LayerView {
    let view = this.layers.get(id);
    if (!view) {
      const root = new Container();
      const clip = new Graphics();
      root.addChild(clip);
      view = { root, clip, clipKey: '', order: [] };
      this.layers.set(id, view);
    }
    return view;
  }

  // Pixels outside [0,W)×[0,H) of the viewport are clipped; without a viewport nothing is.
  private clipTo(view: LayerView, viewport: { width: number; height: number } | null): void {
    const key = viewport ? `${viewport.width}x${viewport.height}` : '';
    if (key === view.clipKey) return;
    view.clipKey = key;
    view.clip.clear();
    if (viewport) {
      view.clip.rect(0, 0, viewport.width, viewport.height).fill(MASK_FILL);
      view.root.mask = view.clip;
    } else {
      view.root.mask = null;
    }
  }

  private objectSprite(id: number): PixiSprite {
    let sprite = this.objects.get(id);
    if (!sprite) {
      sprite = new PixiSprite();
      this.objects.set(id, sprite);
    }
    return sprite;
  }
}

function sameOrder(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
