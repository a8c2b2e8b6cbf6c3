// One GPU texture per sprite id, uploaded on first use and again only when the sprite is redefined.
// The upload itself is behind TextureBackend so the bookkeeping is testable without a GPU.
import type { Sprite } from './world';

export interface TextureBackend<T> {
  upload(sprite: Sprite & { rgba: Uint8Array }): T;
  destroy(texture: T): void;
}

interface Entry<T> {
  version: number;
  texture: T | null; // null for a sprite whose pixels were stripped: nothing to draw
}

export class TextureCache<T> {
  private readonly entries = new Map<number, Entry<T>>();
  uploads = 0;

  constructor(private readonly backend: TextureBackend<T>) {}

  // The texture for this sprite's current definition, or null when it has no pixels.
  get(sprite: Sprite): T | null {
    const entry = this.entries.get(sprite.id);
    if (entry && entry.version === sprite.version) return entry.texture;
    if (entry?.texture) this.backend.destroy(entry.texture);
    const texture = sprite.rgba ? this.backend.upload({ ...sprite, rgba: sprite.rgba }) : null;
    if (texture) this.uploads++;
    this.entries.set(sprite.id, { version: sprite.version, texture });
    return texture;
  }

  clear(): void {
    for (const entry of this.entries.values()) if (entry.texture) this.backend.destroy(entry.texture);
    this.entries.clear();
  }
}
