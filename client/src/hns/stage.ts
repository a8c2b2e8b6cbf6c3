// A hide-and-seek board on the page: the existing PixiSpriteRenderer, plus (for a seat) a floor grid
// under the map layer and a camera that keeps the own cog centred. The renderer itself is untouched.
import { Graphics, Mesh, MeshGeometry, Texture } from 'pixi.js';
import type { TextureSource } from 'pixi.js';
import type { Sprite as PixiSprite } from 'pixi.js';
import { mapScale, placeLayer } from '../sprite/layout';
import { PixiSpriteRenderer, textureScale } from '../sprite/pixiRenderer';
import { rendererForThisPage } from '../sprite/rendererChoice';
import type { RendererKind } from '../sprite/rendererChoice';
import { LayerType } from '../sprite/protocol';
import type { SpriteWorld } from '../sprite/world';
import { followCamera } from './camera';
import { inkStrips, opaqueBounds, stripGeometry } from './trim';
import type { Bounds } from './trim';

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

// Strips of a big sprite are cut at multiples of this many rows (even: whole texels at half size).
export const STRIP_ROWS = 32;

interface StripMesh {
  version: number; // of the sprite its geometry was built for
  source: TextureSource | null;
  mesh: Mesh;
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
  private readonly meshes = new Map<number, StripMesh>(); // by object id
  private readonly strips = new WeakMap<Uint8Array, Bounds[]>(); // inked strips by pixel array
  private readonly wholeTextures = new WeakMap<TextureSource, Texture>();
  private drawnRevision = -1;
  private drawnCamera = '';
  private resized = true;
  private nextDrawAt = 0;
  private lastTickAt = 0;
  private drewLastTick = false;
  private destroyed = false;
  private started: RendererKind | null = null;

  constructor(private readonly world: SpriteWorld, host: HTMLElement, testId: string, private readonly options: StageOptions = {}) {
    this.renderer = new PixiSpriteRenderer(world);
    this.ready = this.renderer.init(host, testId, rendererForThisPage()).then(() => {
      if (this.destroyed) return;
      this.started = this.renderer.kind;
      const app = this.renderer.app;
      // Draw on demand and paced (IDLE_PER_DRAW) instead of on every animation frame.
      app.ticker.remove(app.render, app);
      app.renderer.on('resize', () => (this.resized = true));
      // Added after the renderer's own ticker callback, so it runs after each sync.
      app.ticker.add(() => this.afterSync());
    });
  }

  // The backend drawing the board, once it started.
  get kind(): RendererKind | null {
    return this.started;
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
    // Canvas 2D has no meshes, and blends on the CPU cheaply enough to draw the whole square.
    if (this.started === 'webgl') this.trimBigSprites();
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

  // WebGL only, after the renderer's sync: an object showing a big sprite (a vision cone) is drawn by a mesh of
  // horizontal strips around its inked pixels instead of by the renderer's full square (trim.ts), on the
  // same texture (maybe half size: textureScale), right above the renderer's sprite, which is hidden.
  // The renderer rebuilds a layer's children when they differ from its objects: the meshes go back in.
  private trimBigSprites(): void {
    const drawn = (this.renderer as unknown as { objects: Map<number, PixiSprite> }).objects;
    const alive = new Set<number>();
    for (const [objectId, pixi] of drawn) {
      const object = this.world.objects.get(objectId);
      const sprite = object ? this.world.sprites.get(object.spriteId) : undefined;
      if (!object || !sprite?.rgba || sprite.rgba.length < TRIM_MIN_RGBA_BYTES || !pixi.parent) continue;
      alive.add(objectId);
      const texture = pixi.texture; // the renderer's, for this sprite's current definition
      let cut = this.meshes.get(objectId);
      if (!cut || cut.version !== sprite.version || cut.source !== texture.source) {
        const strips = this.stripsOf(sprite.rgba, sprite.width, sprite.height);
        if (!cut) {
          cut = { version: -1, source: null, mesh: new Mesh({ geometry: new MeshGeometry({}), texture: Texture.EMPTY }) };
          this.meshes.set(objectId, cut);
        }
        cut.version = sprite.version;
        cut.source = texture.source;
        cut.mesh.texture = this.wholeTexture(texture.source);
        const geometry = stripGeometry(strips, textureScale(texture), texture.source.width, texture.source.height);
        cut.mesh.geometry.positions = geometry.positions;
        cut.mesh.geometry.uvs = geometry.uvs;
        cut.mesh.geometry.indices = geometry.indices;
        cut.mesh.visible = strips.length > 0;
      }
      pixi.visible = false;
      cut.mesh.position.set(object.x, object.y);
      const parent = pixi.parent;
      const at = parent.getChildIndex(pixi) + 1;
      if (cut.mesh.parent !== parent || parent.children[at] !== cut.mesh) parent.addChildAt(cut.mesh, at);
    }
    for (const [objectId, cut] of this.meshes) {
      if (alive.has(objectId)) continue;
      const geometry = cut.mesh.geometry;
      cut.mesh.destroy(); // not its texture: the renderer's source, maybe shown elsewhere
      geometry.destroy();
      this.meshes.delete(objectId);
    }
  }

  // Redefinitions with pixels seen before share one RGBA array (PixelCache): scan it once.
  private stripsOf(rgba: Uint8Array, width: number, height: number): Bounds[] {
    let strips = this.strips.get(rgba);
    if (!strips) {
      const bounds = opaqueBounds(rgba, width, height);
      strips = bounds ? inkStrips(rgba, width, bounds, STRIP_ROWS) : [];
      this.strips.set(rgba, strips);
    }
    return strips;
  }

  // A texture over the whole source, so mesh UVs are plain texel fractions.
  private wholeTexture(source: TextureSource): Texture {
    let texture = this.wholeTextures.get(source);
    if (!texture) this.wholeTextures.set(source, (texture = new Texture({ source })));
    return texture;
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
