// The PixiJS side of the arena: the world letterboxed (or, when larger than the view, a camera
// following the own avatar), the far-density layer under one Graphics per entity.
import { Application, Container, Graphics, Text } from 'pixi.js';
import { followCamera } from './letterbox';
import { rendererPreference } from './rendererChoice';
import { entityLabel } from './worldRenderer';
import type { EntitySprite, SpriteFactory } from './worldRenderer';
import type { v1 } from '../net/protocol';

const BACKGROUND = 0x0f172a;
const FIELD_COLOUR = 0x1e293b;
const FIELD_BORDER = 0x475569;
const OWN_RING_COLOUR = 0xffffff;
const OWN_RING_WIDTH = 4;
const OWN_RING_GAP = 5;
const LABEL_SIZE = 14;
const LABEL_GAP = 4;
const FAR_COLOUR = 0x94a3b8;
const FAR_ALPHA_PER_PLAYER = 0.03;
const FAR_ALPHA_MAX = 0.35;

class PixiEntitySprite implements EntitySprite {
  private readonly root = new Container();
  private readonly body = new Graphics();
  private readonly label = new Text({ text: '', style: { fontSize: LABEL_SIZE, fill: 0xe2e8f0, fontFamily: 'sans-serif' } });
  private drawn = '';

  constructor(parent: Container, private readonly youLabel: () => string) {
    this.label.anchor.set(0.5, 0);
    this.root.addChild(this.body, this.label);
    parent.addChild(this.root);
  }

  update(entity: v1.EntityState, isOwn: boolean): void {
    this.root.position.set(entity.x, entity.y);
    const key = `${entity.radius}|${entity.colour}|${isOwn}`;
    if (key !== this.drawn) {
      // Redraw only when the look changes; moving is just a position update.
      this.drawn = key;
      this.body.clear();
      this.body.circle(0, 0, entity.radius).fill(entity.colour);
      if (isOwn) this.body.circle(0, 0, entity.radius + OWN_RING_GAP).stroke({ width: OWN_RING_WIDTH, color: OWN_RING_COLOUR });
    }
    this.label.text = entityLabel(entity, isOwn, this.youLabel());
    this.label.position.set(0, entity.radius + (isOwn ? OWN_RING_GAP + OWN_RING_WIDTH : 0) + LABEL_GAP);
  }

  destroy(): void {
    this.root.destroy({ children: true });
  }
}

export class PixiScene implements SpriteFactory {
  readonly app = new Application();
  private readonly world = new Container();
  private readonly field = new Graphics();
  private readonly far = new Graphics();
  private worldSize = { width: 0, height: 0 };
  private target: { x: number; y: number } | null = null;
  private farDrawn: { counts: readonly number[]; cols: number; cellSize: number } | null = null;

  constructor(private readonly youLabel: () => string) {}

  async init(host: HTMLElement): Promise<void> {
    await this.app.init({ resizeTo: host, background: BACKGROUND, antialias: true, preference: rendererPreference() });
    this.app.canvas.setAttribute('aria-label', 'arena');
    this.app.canvas.dataset.testid = 'arena-canvas';
    host.appendChild(this.app.canvas);
    this.world.addChild(this.field, this.far);
    this.app.stage.addChild(this.world);
    this.app.renderer.on('resize', () => this.fit());
  }

  setWorld(width: number, height: number): void {
    this.worldSize = { width, height };
    this.field.clear();
    this.field.rect(0, 0, width, height).fill(FIELD_COLOUR).stroke({ width: 2, color: FIELD_BORDER });
    this.fit();
  }

  // Players per cell, drawn as shade: the crowd beyond the window the server sends players of.
  drawFar(counts: readonly number[], cols: number, cellSize: number): void {
    const last = this.farDrawn;
    if (last && last.cols === cols && last.cellSize === cellSize && last.counts.length === counts.length
      && last.counts.every((count, i) => count === counts[i])) return; // the same shade: keep it
    this.farDrawn = { counts: [...counts], cols, cellSize };
    this.far.clear();
    counts.forEach((count, cell) => {
      if (count === 0) return;
      const alpha = Math.min(FAR_ALPHA_MAX, count * FAR_ALPHA_PER_PLAYER);
      this.far.rect((cell % cols) * cellSize, Math.floor(cell / cols) * cellSize, cellSize, cellSize).fill({ color: FAR_COLOUR, alpha });
    });
  }

  // The camera centres this point when the world is larger than the view.
  follow(x: number, y: number): void {
    this.target = { x, y };
    this.fit();
  }

  create(): EntitySprite {
    return new PixiEntitySprite(this.world, this.youLabel);
  }

  // Before each frame's drawing.
  onFrame(callback: () => void): void {
    this.app.ticker.add(callback);
  }

  // After each frame's drawing was submitted (Canvas 2D: done; WebGL: flushed to the GPU); not
  // after Pixi's other renders (into textures).
  onRendered(callback: () => void): void {
    this.app.renderer.runners.postrender.add({
      postrender: (options?: { container?: unknown }) => {
        if (options?.container === this.app.stage) callback();
      },
    });
  }

  // 'webgl' or 'canvas' (see rendererChoice.ts); null before init.
  get rendererKind(): string | null {
    return this.app.renderer ? this.app.renderer.name : null;
  }

  destroy(): void {
    this.app.destroy({ removeView: true }, { children: true });
  }

  private fit(): void {
    const { width, height } = this.app.renderer.screen;
    const box = followCamera(width, height, this.worldSize.width, this.worldSize.height, this.target);
    this.world.scale.set(box.scale);
    this.world.position.set(box.offsetX, box.offsetY);
  }
}
