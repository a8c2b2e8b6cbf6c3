// The three retained tables of Sprite v1 (layers, sprites, objects) and the draw order (spec §1.1).
// Pure state: the renderer reads it, tests check it without a GPU.
import { LayerType } from './protocol';
import type { ServerMessage, SpriteError } from './protocol';

export interface Viewport {
  width: number;
  height: number;
}
export interface Layer {
  id: number;
  layerType: number;
  flags: number;
  viewport: Viewport | null; // null until a Set Viewport: then nothing is clipped
}
export interface Sprite {
  id: number;
  width: number;
  height: number;
  label: string;
  rgba: Uint8Array | null; // straight RGBA; null for a "pixels stripped" sprite: known size and label, drawn as nothing
  version: number; // bumped on every redefinition so the renderer re-uploads exactly then
}
export interface SpriteObject {
  id: number;
  x: number;
  y: number;
  z: number;
  layer: number;
  spriteId: number;
}

export type Applied = { ok: true } | { ok: false; error: SpriteError };

// Map first, then full screen, then the UI layers (§1.1 "Client draw order").
function layerRank(layerType: number): number {
  if (layerType === LayerType.Map) return 0;
  if (layerType === LayerType.FullScreen) return 1;
  return 2;
}

export function compareObjects(a: SpriteObject, b: SpriteObject): number {
  return a.z - b.z || a.y - b.y || a.id - b.id;
}

export interface DrawLayer {
  layer: Layer;
  objects: SpriteObject[]; // in draw order, only those on this layer
}

export class SpriteWorld {
  readonly layers = new Map<number, Layer>();
  readonly sprites = new Map<number, Sprite>();
  readonly objects = new Map<number, SpriteObject>();
  revision = 0; // bumped by every apply, so a renderer redraws only after a change
  private nextVersion = 1;

  // Applies one decoded WebSocket message. Chunks of a frame are applied one after another,
  // which is the same as applying the whole frame: every message is a self-contained table edit.
  apply(messages: readonly ServerMessage[]): Applied {
    this.touch();
    for (const message of messages) {
      const error = this.applyOne(message);
      if (error) return { ok: false, error };
    }
    return { ok: true };
  }

  // Marks the tables changed, for a caller that edits them message by message (the compact stream).
  touch(): void {
    this.revision++;
  }

  // The compact stream's Use Block: a sprite whose pixel array and size stay keeps its version, so a
  // sprite made again from the block it already shows is neither uploaded nor trimmed again.
  useSprite(id: number, width: number, height: number, rgba: Uint8Array, label: string): void {
    const sprite = this.sprites.get(id);
    if (sprite && sprite.rgba === rgba && sprite.width === width && sprite.height === height) {
      sprite.label = label;
      return;
    }
    this.sprites.set(id, { id, width, height, label, rgba, version: this.nextVersion++ });
  }

  // The compact stream's Relabel: only the label changes, so the version (and the texture) stays.
  relabel(id: number, label: string): boolean {
    const sprite = this.sprites.get(id);
    if (!sprite) return false;
    sprite.label = label;
    return true;
  }

  // Sprites with labels, by sprite id: what bots read as the observation, and what views parse.
  labels(): Map<number, string> {
    const out = new Map<number, string>();
    for (const sprite of this.sprites.values()) if (sprite.label !== '') out.set(sprite.id, sprite.label);
    return out;
  }

  // Labels of the sprites that placed objects show, in draw order: a sprite can be defined but unused.
  visibleLabels(): string[] {
    const out: string[] = [];
    for (const { objects } of this.drawOrder()) {
      for (const object of objects) {
        const label = this.sprites.get(object.spriteId)?.label;
        if (label) out.push(label);
      }
    }
    return out;
  }

  // The first label that contains `text` (a substring, since HNS puts "own aim" inside the cog label, §7.2).
  findLabel(text: string): string | undefined {
    return this.visibleLabels().find((label) => label.includes(text));
  }

  drawOrder(): DrawLayer[] {
    const byLayer = new Map<number, SpriteObject[]>();
    for (const object of this.objects.values()) {
      let list = byLayer.get(object.layer);
      if (!list) byLayer.set(object.layer, (list = []));
      list.push(object);
    }
    const layers = [...this.layers.values()].sort((a, b) => layerRank(a.layerType) - layerRank(b.layerType) || a.id - b.id);
    return layers.map((layer) => ({ layer, objects: (byLayer.get(layer.id) ?? []).sort(compareObjects) }));
  }

  // One table edit; the caller marks the change (apply, or touch once per batch).
  applyOne(message: ServerMessage): SpriteError | null {
    switch (message.type) {
      case 'DefineSprite':
        this.sprites.set(message.spriteId, {
          id: message.spriteId,
          width: message.width,
          height: message.height,
          label: message.label,
          rgba: message.rgba,
          version: this.nextVersion++,
        });
        return null;
      case 'DefineObject': {
        if (!this.layers.has(message.layer)) return 'UnknownLayer';
        const { objectId: id, x, y, z, layer, spriteId } = message;
        this.objects.set(id, { id, x, y, z, layer, spriteId });
        return null;
      }
      case 'DeleteObject':
        this.objects.delete(message.objectId); // an unknown id is a no-op
        return null;
      case 'ClearObjects':
        this.objects.clear(); // sprites and layers stay
        return null;
      case 'SetViewport': {
        const layer = this.layers.get(message.layer);
        if (!layer) return 'UnknownLayer';
        layer.viewport = { width: message.width, height: message.height };
        return null;
      }
      case 'DefineLayer': {
        const existing = this.layers.get(message.layer);
        if (existing) {
          // Redefining keeps its objects, and its viewport until a new one comes.
          existing.layerType = message.layerType;
          existing.flags = message.flags;
        } else {
          this.layers.set(message.layer, { id: message.layer, layerType: message.layerType, flags: message.flags, viewport: null });
        }
        return null;
      }
    }
  }
}
