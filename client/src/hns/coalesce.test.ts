import { describe, expect, it } from 'vitest';
import { mapLayer, object, packet, solid } from '../sprite/fixtures.testing';
import { concat } from '../sprite/protocol';
import { SpriteStream } from '../sprite/stream';
import { coalesce, spans, splitBigRedefinitions } from './coalesce';

const RED = [255, 0, 0, 255];
const BLUE = [0, 0, 255, 255];

function tables(batch: Uint8Array[]) {
  const stream = new SpriteStream();
  for (const message of batch) expect(stream.receive(message)).toEqual({ ok: true });
  const sprites = [...stream.world.sprites.values()].map((s) => [s.id, s.width, s.height, s.label, [...(s.rgba ?? [])].slice(0, 4)]);
  return { sprites, objects: [...stream.world.objects.values()], layers: [...stream.world.layers.values()] };
}

describe('coalescing a batch of Sprite v1 messages', () => {
  const batch = [
    packet(...mapLayer(1440, 800), solid(2400, 8, 8, RED, 'vision cone 0 aim 1 deg 35 range 340 on'), object(2500, 0, 0, -900, 2400)),
    packet(solid(2400, 8, 8, BLUE, 'vision cone 0 aim 2 deg 35 range 340 on'), solid(100, 4, 4, RED, 'cog HIDER own aim 2'), object(1000, 1, 2, 3, 100)),
    new Uint8Array(0),
    packet(solid(100, 4, 4, BLUE, 'cog HIDER own aim 9'), solid(100, 4, 4, RED, 'cog HIDER own aim 7'), { type: 'DeleteObject', objectId: 7 }),
  ];

  it('walks message boundaries', () => {
    expect(spans(batch[0]!)!.map((s) => s.spriteId)).toEqual([null, null, 2400, null]);
    expect(spans(new Uint8Array(0))).toEqual([]);
    expect(spans(Uint8Array.of(0x7f))).toBeNull();
    expect(spans(batch[1]!.subarray(0, 20))).toBeNull();
  });

  it('drops only definitions a later one replaces, keeping every WebSocket message', () => {
    const out = coalesce(batch);
    expect(out).toHaveLength(4);
    expect(spans(out[0]!)!.map((s) => s.spriteId)).toEqual([null, null, null]);
    expect(spans(out[1]!)!.map((s) => s.spriteId)).toEqual([2400, null]);
    expect(spans(out[3]!)!.map((s) => s.spriteId)).toEqual([100, null]);
    expect(out[2]).toBe(batch[2]);
  });

  it('leaves the tables exactly as applying everything does', () => {
    expect(tables(coalesce(batch))).toEqual(tables(batch));
  });

  it('keeps a message that does not walk, and does not cut across it', () => {
    const broken = concat([packet(solid(5, 1, 1, RED)), Uint8Array.of(0x7f)]);
    const out = coalesce([packet(...mapLayer(10, 10), solid(5, 1, 1, BLUE)), broken, packet(solid(5, 1, 1, RED))]);
    expect(spans(out[0]!)!.map((s) => s.spriteId)).toEqual([null, null, 5]);
    expect(out[1]).toBe(broken);
  });
});

describe('holding back big redefinitions', () => {
  it('splits out definitions of known sprites of at least the threshold, keeping the rest in order', () => {
    const message = packet(solid(2400, 8, 8, RED, 'cone'), object(2500, 0, 0, 0, 2400), solid(7, 1, 1, RED, 'small'), solid(2401, 8, 8, RED));
    const { rest, big } = splitBigRedefinitions(message, (id) => id === 2400 || id === 7, 8 * 8 * 4);
    expect(big.map((b) => b.spriteId)).toEqual([2400]);
    expect(spans(big[0]!.bytes)!.map((s) => s.spriteId)).toEqual([2400]);
    expect(spans(rest)!.map((s) => s.spriteId)).toEqual([null, 7, 2401]); // 2401 is new: shown at once
    expect(splitBigRedefinitions(message, () => false, 8 * 8 * 4).rest).toBe(message);
  });
});
