// A hide-and-seek board on the page: the existing PixiSpriteRenderer, plus (for a seat) a floor grid
// under the map layer and a camera that keeps the own cog centred. The renderer itself is untouched.
import { Graphics, Rectangle, Texture } from 'pixi.js';
import type { Sprite as PixiSprite } from 'pixi.js';
import { mapScale, placeLayer } from '../sprite/layout';
import { PixiSpriteRenderer } from '../sprite/pixiRenderer';
import { LayerType } from '../sprite/protocol';
import type { SpriteWorld } from '../sprite/world';
import { followCamera } from './camera';
import { opaqueBounds } from './trim';

const GRID_STEP = 40;
const FLOOR = 0x1b2433;
const GRID_LINE = 0x2c3a52;
const BORDER = 0x64748b;
// Sprites at least this big (RGBA bytes) are drawn through their opaque bounds: the 1364² cones.
export const TRIM_MIN_RGBA_BYTES = 1 << 20;
// After a draw that took d ms, the next one waits at least d·IDLE_PER_DRAW ms: the browser runs
// about one task between two frames, so without idle time a board that is slow to draw (software
// WebGL) would read one socket message per frame and fall behind the 24 Hz stream.
export const IDLE_PER_DRAW = 1;

interface Trim {
  version: number;
  texture: Texture | null; // a frame on the renderer's own texture source; null: all transparent
  dx: number;
  dy: number;
}

export interface StageOptions {
  follow?: () => { x: number; y: number } | null; // target in map-layer pixels
  zoom?: number;
  grid?: boolean;
}

export class HnsStage {
  readonly renderer: PixiSpriteRenderer;
  frames = 0; // board frames drawn, for the HUD and the measuring script
  drawMs = 0; // time spent in them (sync, trim, camera and the draw call)
  private readonly ready: Promise<void>;
  private grid: Graphics | null = null;
  private gridKey = '';
  private readonly trims = new Map<number, Trim>(); // by sprite id
  private drawnRevision = -1;
  private drawnCamera = '';
  private resized = true;
  private nextDrawAt = 0;
  private lastTickAt = 0;
  private drewLastTick = false;
  private destroyed = false;

  constructor(private readonly world: SpriteWorld, host: HTMLElement, testId: string, private readonly options: StageOptions = {}) {
    this.renderer = new PixiSpriteRenderer(world);
    this.ready = this.renderer.init(host, testId).then(() => {
      if (this.destroyed) return;
      const app = this.renderer.app;
      // Draw on demand and paced (IDLE_PER_DRAW) instead of on every animation frame.
      app.ticker.remove(app.render, app);
      app.renderer.on('resize', () => (this.resized = true));
      // Added after the renderer's own ticker callback, so it runs after each sync.
      app.ticker.add(() => this.afterSync());
    });
  }

  destroy(): void {
    this.destroyed = true;
    // Pixi cannot be destroyed mid-init; wait for it.
    void this.ready.then(() => this.renderer.destroy());
  }

  private mapLayer() {
    for (const layer of this.world.layers.values()) if (layer.layerType === LayerType.Map && layer.viewport) return layer;
    return null;
  }

  private afterSync(): void {
    // The time from a tick that drew to the next tick is the draw's whole cost, including what the
    // browser does natively after the callback (software WebGL reads the canvas back): idle as long.
    const now = performance.now();
    if (this.drewLastTick) this.nextDrawAt = Math.max(this.nextDrawAt, now + (now - this.lastTickAt) * IDLE_PER_DRAW);
    this.lastTickAt = now;
    this.drewLastTick = false;
    this.trimBigSprites();
    const cameraKey = this.placeCamera();
    this.draw(cameraKey);
  }


  private draw(cameraKey: string): void {
    const now = performance.now();
    const changed = this.resized || this.world.revision !== this.drawnRevision || cameraKey !== this.drawnCamera;
    if (!changed || now < this.nextDrawAt) return;
    this.resized = false;
    this.drawnRevision = this.world.revision;
    this.drawnCamera = cameraKey;
    this.renderer.app.render();
    const took = performance.now() - now;
    this.nextDrawAt = now + took * (1 + IDLE_PER_DRAW);
    this.frames++;
    this.drawMs += took;
    this.drewLastTick = true;
  }

  // Places the floor and the camera; returns what the camera shows, so a move redraws.
  private placeCamera(): string {
    const follow = this.options.follow;
    if (!follow && !this.options.grid) return '';
    const app = this.renderer.app;
    const page = app.renderer.screen;
    const layer = this.mapLayer();
    if (!layer) return '';
    const placement = placeLayer(layer, page, mapScale(this.world.layers.values(), page));
    if (this.options.grid) this.placeGrid(layer.viewport!, placement);
    if (!follow) return '';
    const camera = followCamera(placement, follow(), page, this.options.zoom ?? 1);
    app.stage.pivot.set(camera.pivotX, camera.pivotY);
    app.stage.position.set(camera.x, camera.y);
    app.stage.scale.set(camera.scale);
    return `${camera.pivotX},${camera.pivotY},${camera.x},${camera.y},${camera.scale}`;
  }

  // After the renderer's sync: a big sprite's Pixi sprite shows only the sub-rectangle that has ink,
  // moved by that rectangle's offset, so the same pixels land in the same place. The renderer keeps
  // its texture per sprite; after each of its syncs (which put the full texture back) this redoes it.
  private trimBigSprites(): void {
    const drawn = (this.renderer as unknown as { objects: Map<number, PixiSprite> }).objects;
    for (const [objectId, pixi] of drawn) {
      const object = this.world.objects.get(objectId);
      const sprite = object ? this.world.sprites.get(object.spriteId) : undefined;
      if (!object || !sprite?.rgba || sprite.rgba.length < TRIM_MIN_RGBA_BYTES) continue;
      let trim = this.trims.get(sprite.id);
      if (trim && trim.version === sprite.version && trim.texture !== null && pixi.texture === trim.texture) continue;
      if (!trim || trim.version !== sprite.version) {
        trim?.texture?.destroy(false);
        const bounds = opaqueBounds(sprite.rgba, sprite.width, sprite.height);
        trim = {
          version: sprite.version,
          texture: bounds ? new Texture({ source: pixi.texture.source, frame: new Rectangle(bounds.x, bounds.y, bounds.width, bounds.height) }) : null,
          dx: bounds?.x ?? 0,
          dy: bounds?.y ?? 0,
        };
        this.trims.set(sprite.id, trim);
      }
      if (!trim.texture) {
        pixi.visible = false;
        continue;
      }
      pixi.texture = trim.texture;
      pixi.position.set(object.x + trim.dx, object.y + trim.dy);
    }
    for (const [id, trim] of this.trims) {
      if (this.world.sprites.get(id)?.version === trim.version) continue;
      trim.texture?.destroy(false);
      this.trims.delete(id);
    }
  }

  // A floor under the board so a centred cog visibly moves over it (the seat's stream has no map, §4.1).
  private placeGrid(viewport: { width: number; height: number }, placement: { x: number; y: number; scale: number }): void {
    const stage = this.renderer.app.stage;
    if (!this.grid) this.grid = new Graphics();
    const grid = this.grid;
    const key = `${viewport.width}x${viewport.height}`;
    if (key !== this.gridKey) {
      this.gridKey = key;
      grid.clear();
      grid.rect(0, 0, viewport.width, viewport.height).fill(FLOOR);
      for (let x = GRID_STEP; x < viewport.width; x += GRID_STEP) grid.moveTo(x, 0).lineTo(x, viewport.height);
      for (let y = GRID_STEP; y < viewport.height; y += GRID_STEP) grid.moveTo(0, y).lineTo(viewport.width, y);
      grid.stroke({ width: 1, color: GRID_LINE });
      grid.rect(0, 0, viewport.width, viewport.height).stroke({ width: 3, color: BORDER });
    }
    // The renderer rebuilds the stage's children when its layers change: put the floor back underneath.
    if (grid.parent !== stage || stage.getChildIndex(grid) !== 0) stage.addChildAt(grid, 0);
    grid.position.set(placement.x, placement.y);
    grid.scale.set(placement.scale);
  }
}
