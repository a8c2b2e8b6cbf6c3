import { describe, expect, it } from 'vitest';
import { FrameFlag } from './compact';
import type { CompactMessage } from './compact';
import { CompactStream } from './compactStream';
import { compactPacket, forgetBlock, frameMark, relabel, solidBlock, solidRgba, useBlock } from './compactFixtures.testing';
import { mapLayer, object, solid } from './fixtures.testing';
import { TextureCache } from './textureCache';

const CONE = [255, 220, 120, 96];
const COG = [63, 124, 196, 255];

// A keyframe as the server sends one: the board's header, then blocks, sprites and objects.
const keyframe = (tick: number, ...scene: CompactMessage[]) => compactPacket(frameMark(tick, FrameFlag.Keyframe), { type: 'ClearObjects' }, ...mapLayer(1440, 800), ...scene);

function receiveAll(stream: CompactStream, ...packets: Uint8Array[]): void {
  for (const packet of packets) {
    const result = stream.receive(packet);
    if (!result.ok) throw new Error(result.error);
  }
}

// Stands in for the GPU, as textureCache.test.ts does: counts what would be uploaded.
function uploadsFor(stream: CompactStream) {
  const cache = new TextureCache<string>({ upload: (sprite) => `${sprite.id}:${sprite.label}`, destroy: () => {} });
  const draw = () => {
    for (const o of stream.world.objects.values()) {
      const sprite = stream.world.sprites.get(o.spriteId);
      if (sprite) cache.get(sprite);
    }
    return cache.uploads;
  };
  return draw;
}

describe('compact stream receiver', () => {
  it('makes sprites from widened blocks with their labels, and reports the frame it shows', () => {
    const stream = new CompactStream();
    receiveAll(stream, keyframe(42, solidBlock(3, 64, 64, CONE, 2), useBlock(2400, 3, 'vision cone 0 aim 37'), object(2500, 10, 20, -900, 2400)));
    const sprite = stream.world.sprites.get(2400)!;
    expect(sprite).toMatchObject({ width: 64, height: 64, label: 'vision cone 0 aim 37' });
    expect(sprite.rgba).toStrictEqual(solidRgba(64, 64, CONE));
    expect(stream.world.objects.get(2500)).toMatchObject({ x: 10, y: 20, spriteId: 2400 });
    expect(stream.lastFrame).toStrictEqual({ type: 'FrameMark', tick: 42, flags: FrameFlag.Keyframe });
    expect([stream.messages, stream.frames, stream.keyframes, stream.resyncs]).toStrictEqual([1, 1, 1, 0]);
  });

  it('relabels without a new version, so nothing is uploaded again', () => {
    const stream = new CompactStream();
    const draw = uploadsFor(stream);
    receiveAll(stream, keyframe(1, solidBlock(3, 64, 64, CONE, 2), useBlock(2400, 3, 'aim 37'), object(2500, 0, 0, 0, 2400)));
    expect(draw()).toBe(1);
    const { version, rgba } = stream.world.sprites.get(2400)!;
    const revision = stream.world.revision;
    receiveAll(stream, compactPacket(frameMark(2), relabel(2400, 'aim 38')));
    expect(stream.world.sprites.get(2400)).toMatchObject({ version, rgba, label: 'aim 38' });
    expect(stream.world.revision).toBeGreaterThan(revision); // the labels are read again
    expect(draw()).toBe(1);
    // The same block used again (another aim in the same art direction): still no new version.
    receiveAll(stream, compactPacket(frameMark(3), useBlock(2400, 3, 'aim 39')));
    expect(stream.world.sprites.get(2400)).toMatchObject({ version, rgba, label: 'aim 39' });
    // Another block: new pixels, a new version, one more upload.
    receiveAll(stream, compactPacket(frameMark(4), solidBlock(4, 64, 64, COG, 2), useBlock(2400, 4, 'aim 90')));
    expect(stream.world.sprites.get(2400)!.version).toBeGreaterThan(version);
    expect(stream.world.sprites.get(2400)!.rgba).toStrictEqual(solidRgba(64, 64, COG));
    expect(draw()).toBe(2);
  });

  it('does not inflate a block seen before again, even under another id', () => {
    const stream = new CompactStream();
    receiveAll(stream, keyframe(1, solidBlock(3, 64, 64, CONE, 2), useBlock(2400, 3, 'a'), useBlock(2401, 3, 'b')));
    const first = stream.world.sprites.get(2400)!.rgba;
    expect(stream.world.sprites.get(2401)!.rgba).toBe(first); // one array, so one texture
    const misses = stream.pixels.misses;
    receiveAll(stream, compactPacket(frameMark(2), forgetBlock(3)), compactPacket(frameMark(3), solidBlock(9, 64, 64, CONE, 2), useBlock(2402, 9, 'c')));
    expect(stream.world.sprites.get(2402)!.rgba).toBe(first);
    expect(stream.pixels.misses).toBe(misses);
    expect(stream.pixels.hits).toBeGreaterThan(0);
  });

  it('keeps the pixels of sprites made from a forgotten block, and refuses to use it again', () => {
    const stream = new CompactStream();
    receiveAll(stream, keyframe(1, solidBlock(3, 8, 8, COG), useBlock(100, 3, 'cog')));
    receiveAll(stream, compactPacket(frameMark(2), forgetBlock(3), forgetBlock(77)));
    expect(stream.blocks.size).toBe(0);
    expect(stream.world.sprites.get(100)!.rgba).toStrictEqual(solidRgba(8, 8, COG));
    expect(stream.receive(compactPacket(frameMark(3), useBlock(101, 3)))).toStrictEqual({ ok: false, error: 'UnknownBlock' });
  });

  it('replaces a block redefined under the same id', () => {
    const stream = new CompactStream();
    receiveAll(stream, keyframe(1, solidBlock(3, 8, 8, COG), solidBlock(3, 4, 4, CONE), useBlock(100, 3, 'x')));
    expect(stream.blocks.size).toBe(1);
    expect(stream.world.sprites.get(100)).toMatchObject({ width: 4, height: 4, rgba: solidRgba(4, 4, CONE) });
  });

  it('empties the block table on a keyframe, counts resyncs, and keeps the last mark', () => {
    const stream = new CompactStream();
    receiveAll(stream, keyframe(1, solidBlock(3, 8, 8, COG)), compactPacket(frameMark(2)));
    expect(stream.blocks.size).toBe(1);
    receiveAll(stream, compactPacket(frameMark(9, FrameFlag.Keyframe | FrameFlag.Resync), { type: 'ClearObjects' }));
    expect(stream.blocks.size).toBe(0);
    expect(stream.lastFrame).toMatchObject({ tick: 9, flags: FrameFlag.Keyframe | FrameFlag.Resync });
    expect([stream.frames, stream.keyframes, stream.resyncs]).toStrictEqual([3, 2, 1]);
  });

  it('applies Sprite v1 messages in order among its own (tethers and shouts are inline sprites)', () => {
    const stream = new CompactStream();
    receiveAll(stream, keyframe(1, solid(2600, 2, 2, [1, 2, 3, 255], 'carry tether 0 1,1'), object(2601, 5, 5, 1, 2600)));
    expect(stream.world.sprites.get(2600)).toMatchObject({ label: 'carry tether 0 1,1', rgba: solidRgba(2, 2, [1, 2, 3, 255]) });
    receiveAll(stream, compactPacket(frameMark(2), { type: 'DeleteObject', objectId: 2601 }));
    expect(stream.world.objects.size).toBe(0);
  });

  it('stops at the first error and keeps answering it', () => {
    const stream = new CompactStream();
    const result = stream.receive(compactPacket(frameMark(1, FrameFlag.Keyframe), relabel(5, 'x')));
    expect(result).toStrictEqual({ ok: false, error: 'UnknownSprite' });
    expect(stream.receive(keyframe(2))).toStrictEqual({ ok: false, error: 'UnknownSprite' });
    expect(stream.messages).toBe(0);
    expect(new CompactStream().receive(Uint8Array.of(0x10, 1))).toStrictEqual({ ok: false, error: 'Truncated' });
  });
});
