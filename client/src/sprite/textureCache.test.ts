import { describe, expect, it } from 'vitest';
import { mapLayer, object, solid } from './fixtures.testing';
import { spriteMessage } from './protocol';
import { TextureCache } from './textureCache';
import { SpriteWorld } from './world';

// Stands in for the GPU: a texture is the label and size it was uploaded with.
function fakeCache() {
  const destroyed: string[] = [];
  const cache = new TextureCache<string>({
    upload: (sprite) => `${sprite.id}:${sprite.width}x${sprite.height}:${sprite.label}`,
    destroy: (texture) => destroyed.push(texture),
  });
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
    const { cache, destroyed } = fakeCache();
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
});
