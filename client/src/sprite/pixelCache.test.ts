import { describe, expect, it } from 'vitest';
import { mapLayer, object, packet } from './fixtures.testing';
import { PixelCache, fnv1a } from './pixelCache';
import { compressBlock } from './snappy';
import { spriteMessage } from './protocol';
import { SpriteStream } from './stream';

// A w×h image whose pixels depend on `seed`, so two seeds give two different blocks.
function pattern(width: number, height: number, seed: number): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 7 + seed * 13) & 0xff;
  return rgba;
}

// Every 4×4 pattern compresses to the same length (all literals).
const BLOCK_BYTES = compressBlock(pattern(4, 4, 1)).length;
const ENTRY_BYTES = 64 + BLOCK_BYTES; // RGBA plus the stored compressed copy

// A cache that admits blocks of ≥ 16 RGBA bytes and holds `entries` 4×4 sprites; counts real decodes.
function counted(entries: number) {
  const cache = new PixelCache(entries * ENTRY_BYTES, 16);
  let decodes = 0;
  const decode = (rgba: Uint8Array) => {
    const block = compressBlock(rgba);
    return cache.decode(block.slice(), 4, 4, () => {
      decodes++;
      return { ok: true as const, bytes: rgba.slice() };
    });
  };
  return { cache, decode, decodes: () => decodes };
}

// One block in a roomy cache, and a decoder that counts its calls and gives each call's image its own bytes.
function oneBlock() {
  const cache = new PixelCache(1024, 16);
  const block = compressBlock(pattern(4, 4, 1));
  let decodes = 0;
  const decode = () => ({ ok: true as const, bytes: new Uint8Array(64).fill(++decodes) });
  return { cache, block, decode, decodes: () => decodes };
}

describe('pixel cache', () => {
  it('hands out the same array for a byte-identical block without decoding it again', () => {
    const { cache, decode, decodes } = counted(4);
    const a = pattern(4, 4, 1);
    const first = decode(a);
    const second = decode(a);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.bytes).toBe(first.bytes);
    expect(decodes()).toBe(1);
    expect([cache.hits, cache.misses]).toStrictEqual([1, 1]);
  });

  it('decodes a different block (a miss) and keeps both', () => {
    const { cache, decode, decodes } = counted(4);
    decode(pattern(4, 4, 1));
    decode(pattern(4, 4, 2));
    decode(pattern(4, 4, 1));
    decode(pattern(4, 4, 2));
    expect(decodes()).toBe(2);
    expect([cache.hits, cache.misses, cache.size]).toStrictEqual([2, 2, 2]);
  });

  it('keys by size too: the same block for another shape is decoded apart', () => {
    const { cache, block, decode, decodes } = oneBlock();
    const a = cache.decode(block, 4, 4, decode);
    const b = cache.decode(block, 2, 8, decode);
    expect(decodes()).toBe(2);
    expect(a.ok && b.ok && a.bytes !== b.bytes).toBe(true);
  });

  it('keys by codec too: the same bytes as a zlib block at another scale are another image', () => {
    const { cache, block, decode, decodes } = oneBlock();
    const snappy = cache.decode(block, 4, 4, decode);
    const zlib1 = cache.decode(block, 4, 4, decode, 'zlib/1');
    const zlib2 = cache.decode(block, 4, 4, decode, 'zlib/2');
    expect(decodes()).toBe(3);
    expect(cache.decode(block, 4, 4, decode, 'zlib/2')).toStrictEqual(zlib2);
    expect(new Set([snappy, zlib1, zlib2].map((r) => r.ok && r.bytes)).size).toBe(3);
  });

  it('evicts the least recently used block once the RGBA bytes exceed the budget', () => {
    const { cache, decode, decodes } = counted(2);
    decode(pattern(4, 4, 1));
    decode(pattern(4, 4, 2));
    decode(pattern(4, 4, 1)); // 1 is now the most recent
    decode(pattern(4, 4, 3)); // evicts 2
    expect([cache.size, cache.totalBytes, cache.evictions]).toStrictEqual([2, 2 * ENTRY_BYTES, 1]);
    expect([1, 2, 3].map((seed) => compressBlock(pattern(4, 4, seed)).length)).toStrictEqual([BLOCK_BYTES, BLOCK_BYTES, BLOCK_BYTES]);
    decode(pattern(4, 4, 1));
    expect(decodes()).toBe(3);
    decode(pattern(4, 4, 2));
    expect(decodes()).toBe(4);
  });

  it('neither stores errors nor small blocks', () => {
    const cache = new PixelCache(1024, 16);
    const block = compressBlock(pattern(4, 4, 1));
    expect(cache.decode(block, 4, 4, () => ({ ok: false as const, error: 'BadSnappy' }))).toStrictEqual({ ok: false, error: 'BadSnappy' });
    expect(cache.size).toBe(0);
    const tiny = compressBlock(pattern(1, 2, 1));
    cache.decode(tiny, 1, 2, () => ({ ok: true as const, bytes: new Uint8Array(8) }));
    expect([cache.size, cache.hits, cache.misses]).toStrictEqual([0, 0, 1]); // the error was a miss
  });

  it('hashes with FNV-1a', () => {
    expect(fnv1a(new Uint8Array(0))).toBe(0x811c9dc5);
    expect(fnv1a(new TextEncoder().encode('a'))).toBe(0xe40c292c);
  });

  it('lets a stream share one RGBA array between redefinitions with the same pixels', () => {
    const stream = new SpriteStream();
    const cone = pattern(200, 200, 5); // 160,000 RGBA bytes: above the stream's threshold
    stream.receive(packet(...mapLayer(720, 400), spriteMessage(2400, 200, 200, cone, 'vision cone 0 aim 1'), object(2400, 0, 0, 0, 2400)));
    const first = stream.world.sprites.get(2400)!;
    stream.receive(packet(spriteMessage(2400, 200, 200, cone, 'vision cone 0 aim 2')));
    const second = stream.world.sprites.get(2400)!;
    expect(second.label).toBe('vision cone 0 aim 2');
    expect(second.version).not.toBe(first.version);
    expect(second.rgba).toBe(first.rgba);
    expect(second.rgba).toStrictEqual(cone);
    stream.receive(packet(spriteMessage(2400, 200, 200, pattern(200, 200, 6), 'vision cone 0 aim 9')));
    expect(stream.world.sprites.get(2400)!.rgba).not.toBe(first.rgba);
    expect([stream.pixels.hits, stream.pixels.misses]).toStrictEqual([1, 2]);
  });
});
