import { describe, expect, it } from 'vitest';
import { mapLayer, object, solid } from './fixtures.testing';
import { spriteMessage } from './protocol';
import { TextureCache } from './textureCache';
import { SpriteWorld } from './world';
import type { Sprite } from './world';

// Stands in for the GPU: a texture is the label and size it was uploaded with.
function fakeCache(maxIdleBytes?: number) {
  const destroyed: string[] = [];
  const cache = new TextureCache<string>({
    upload: (sprite) => `${sprite.id}:${sprite.width}x${sprite.height}:${sprite.label}`,
    destroy: (texture) => destroyed.push(texture),
  }, maxIdleBytes);
  return { cache, destroyed };
}

// What a renderer does each frame: ask the cache for every drawn object's sprite.
function drawFrame(world: SpriteWorld, cache: TextureCache<string>): Array<string | null> {
  return world.drawOrder().flatMap(({ objects }) =>
    objects.map((o) => {
      const sprite = world.sprites.get(o.spriteId);
      return sprite ? cache.get(sprite) : null;
    }),
  );
}

describe('texture cache', () => {
  it('uploads each sprite once, however many objects and frames use it', () => {
    const world = new SpriteWorld();
    world.apply([...mapLayer(720, 400), solid(2300, 14, 14, [0, 0, 0, 255], 'padlock')]);
    const { cache } = fakeCache();
    for (let frame = 0; frame < 5; frame++) {
      world.apply([object(2320, frame, 0, 0, 2300), object(2321, 0, frame, 0, 2300), object(2322, 5, 5, 1, 2300)]);
      expect(drawFrame(world, cache)).toStrictEqual(Array(3).fill('2300:14x14:padlock'));
    }
    expect(cache.uploads).toBe(1);
  });

  it('re-uploads only when the sprite is redefined, and frees the old texture', () => {
    const world = new SpriteWorld();
    world.apply([...mapLayer(720, 400), solid(100, 72, 72, [63, 124, 196, 255], 'cog HIDER own aim 0'), object(1000, 0, 0, 0, 100)]);
    const { cache, destroyed } = fakeCache(0); // nothing kept idle
    drawFrame(world, cache);
    drawFrame(world, cache);
    world.apply([solid(100, 72, 72, [63, 124, 196, 255], 'cog HIDER own aim 6')]);
    expect(drawFrame(world, cache)).toStrictEqual(['100:72x72:cog HIDER own aim 6']);
    drawFrame(world, cache);
    expect(cache.uploads).toBe(2);
    expect(destroyed).toStrictEqual(['100:72x72:cog HIDER own aim 0']);
  });

  it('uploads nothing for a sprite whose pixels were stripped', () => {
    const world = new SpriteWorld();
    world.apply([...mapLayer(720, 400), spriteMessage(30, 1440, 96, null, 'map band 0'), object(40, 0, 0, -32768, 30)]);
    const { cache } = fakeCache();
    expect(drawFrame(world, cache)).toStrictEqual([null]);
    expect(cache.uploads).toBe(0);
  });

  // Sprites as the decoder hands them out: the same RGBA array for a byte-identical block (PixelCache).
  const cone = (version: number, rgba: Uint8Array, label = `cone ${version}`): Sprite => ({ id: 2400, width: 4, height: 4, label, rgba, version });
  const pixels = (seed: number) => new Uint8Array(64).fill(seed); // 64 RGBA bytes each

  it('reuses the texture of a redefinition whose pixels are the same array (a hit)', () => {
    const { cache, destroyed } = fakeCache();
    const a = pixels(1);
    expect(cache.get(cone(1, a, 'vision cone 0 aim 1'))).toBe('2400:4x4:vision cone 0 aim 1');
    expect(cache.get(cone(2, a, 'vision cone 0 aim 2'))).toBe('2400:4x4:vision cone 0 aim 1');
    expect([cache.uploads, cache.reused, cache.textures]).toStrictEqual([1, 1, 1]);
    expect(destroyed).toStrictEqual([]);
  });

  it('keeps released textures idle for reuse, and uploads other pixels (a miss)', () => {
    const { cache, destroyed } = fakeCache(1024);
    const a = pixels(1);
    const b = pixels(2);
    cache.get(cone(1, a));
    expect(cache.get(cone(2, b))).toBe('2400:4x4:cone 2'); // a goes idle
    expect(cache.get(cone(3, a))).toBe('2400:4x4:cone 1'); // and comes back without an upload
    expect([cache.uploads, cache.reused, cache.textures]).toStrictEqual([2, 1, 2]);
    expect(destroyed).toStrictEqual([]);
  });

  it('destroys the least recently released idle textures past the byte budget, never one in use', () => {
    const { cache, destroyed } = fakeCache(128); // two idle 4×4 textures
    const images = [1, 2, 3, 4].map(pixels);
    images.forEach((rgba, i) => cache.get(cone(i + 1, rgba)));
    // 1, 2, 3 were released in that order; only two fit, so 1 went.
    expect(destroyed).toStrictEqual(['2400:4x4:cone 1']);
    expect(cache.textures).toBe(3);
    // Another sprite showing pixels 4 (in use by 2400) while 2400 moves on: 4 is still in use, stays.
    const other: Sprite = { id: 2401, width: 4, height: 4, label: 'other', rgba: images[3]!, version: 10 };
    expect(cache.get(other)).toBe('2400:4x4:cone 4');
    cache.get(cone(5, images[1]!)); // 2 back in use; 4 still used by 2401
    expect(destroyed).toStrictEqual(['2400:4x4:cone 1']);
    cache.get(cone(6, pixels(9))); // 2 idle again: idle are 3, 2
    cache.get({ ...other, rgba: pixels(8), version: 11 }); // 4 idle too: 3 is the oldest and goes
    expect(destroyed).toStrictEqual(['2400:4x4:cone 1', '2400:4x4:cone 3']);
    cache.clear();
    expect(cache.textures).toBe(0);
    expect(destroyed).toHaveLength(6); // every texture uploaded was destroyed exactly once
  });
});
