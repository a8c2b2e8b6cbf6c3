// GPU textures for sprites, uploaded on first use and again only when a sprite is redefined with other
// pixels. Textures are shared by pixel array: the decoder (PixelCache) hands out the same RGBA array
// for a byte-identical block, so a vision cone redefined with a new label but pixels seen a moment ago
// gets the texture already on the GPU. A texture no sprite uses any more stays for reuse while the idle
// ones fit in `maxIdleBytes` (by RGBA bytes), least recently used evicted and destroyed first.
// The upload itself is behind TextureBackend so the bookkeeping is testable without a GPU.
import type { Sprite } from './world';

export const IDLE_TEXTURE_BYTES = 64 << 20;

export interface TextureBackend<T> {
  upload(sprite: Sprite & { rgba: Uint8Array }): T;
  destroy(texture: T): void;
}

interface Shared<T> {
  texture: T;
  rgba: Uint8Array;
  users: number; // sprite ids whose current definition shows it
}

interface Entry<T> {
  version: number;
  shared: Shared<T> | null; // null for a sprite whose pixels were stripped: nothing to draw
}

export class TextureCache<T> {
  private readonly entries = new Map<number, Entry<T>>(); // by sprite id
  private readonly byPixels = new Map<Uint8Array, Shared<T>>();
  private readonly idle = new Map<Uint8Array, Shared<T>>(); // unused, least recently released first
  private idleBytes = 0;
  uploads = 0;
  reused = 0; // definitions served by a texture already uploaded for the same pixels

  constructor(private readonly backend: TextureBackend<T>, readonly maxIdleBytes = IDLE_TEXTURE_BYTES) {}

  get textures(): number {
    return this.byPixels.size;
  }

  // The texture for this sprite's current definition, or null when it has no pixels.
  get(sprite: Sprite): T | null {
    const entry = this.entries.get(sprite.id);
    if (entry && entry.version === sprite.version) return entry.shared?.texture ?? null;
    // Acquire before releasing, so pixels that did not change never pass through the idle list.
    const shared = sprite.rgba ? this.acquire(sprite as Sprite & { rgba: Uint8Array }) : null;
    if (entry?.shared) this.release(entry.shared);
    this.entries.set(sprite.id, { version: sprite.version, shared });
    return shared?.texture ?? null;
  }

  clear(): void {
    for (const shared of this.byPixels.values()) this.backend.destroy(shared.texture);
    this.byPixels.clear();
    this.idle.clear();
    this.idleBytes = 0;
    this.entries.clear();
  }

  private acquire(sprite: Sprite & { rgba: Uint8Array }): Shared<T> {
    let shared = this.byPixels.get(sprite.rgba);
    if (shared) {
      if (shared.users === 0) {
        this.idle.delete(shared.rgba);
        this.idleBytes -= shared.rgba.length;
      }
      this.reused++;
    } else {
      shared = { texture: this.backend.upload(sprite), rgba: sprite.rgba, users: 0 };
      this.byPixels.set(sprite.rgba, shared);
      this.uploads++;
    }
    shared.users++;
    return shared;
  }

  private release(shared: Shared<T>): void {
    if (--shared.users > 0) return;
    this.idle.set(shared.rgba, shared);
    this.idleBytes += shared.rgba.length;
    while (this.idleBytes > this.maxIdleBytes) {
      const oldest = this.idle.values().next().value!;
      this.idle.delete(oldest.rgba);
      this.byPixels.delete(oldest.rgba);
      this.idleBytes -= oldest.rgba.length;
      this.backend.destroy(oldest.texture);
    }
  }
}
