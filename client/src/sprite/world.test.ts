import { describe, expect, it } from 'vitest';
import { concat, hexToBytes, spriteMessage } from './protocol';
import type { ServerMessage } from './protocol';
import { mapLayer, object, packet, solid } from './fixtures.testing';
import { SpriteStream } from './stream';
import { SpriteWorld } from './world';

const RED = [255, 0, 0, 255];
const BLUE = [0, 0, 255, 255];

function world(...messages: ServerMessage[]): SpriteWorld {
  const w = new SpriteWorld();
  expect(w.apply(messages)).toStrictEqual({ ok: true });
  return w;
}

// Everything a frame leaves behind, comparable with toStrictEqual.
function tables(w: SpriteWorld) {
  // Pixels as base64: deep-equality of megabytes of typed arrays element by element takes seconds.
  const sprites = [...w.sprites.values()].map(({ version: _version, rgba, ...rest }) => ({
    ...rest,
    rgba: rgba && Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength).toString('base64'),
  }));
  return { layers: [...w.layers.values()], sprites, objects: [...w.objects.values()], order: w.drawOrder() };
}

describe('retained tables', () => {
  it('builds the spec example: layer 0, the 2×2 "test" sprite and object 3', () => {
    const bytes = hexToBytes(
      '04 06 00 00 01 05 00 d0 02 90 01 ' +
        '01 07 00 02 00 02 00 12 00 00 00 10 3c ff 00 00 ff 00 ff 00 ff 00 00 ff ff 00 00 00 00 04 00 74 65 73 74 ' +
        '02 03 00 0a 00 14 00 00 00 00 07 00',
    );
    const stream = new SpriteStream();
    expect(stream.receive(bytes)).toStrictEqual({ ok: true });
    const w = stream.world;
    expect(w.layers.get(0)).toStrictEqual({ id: 0, layerType: 0, flags: 1, viewport: { width: 720, height: 400 } });
    expect(w.sprites.get(7)).toMatchObject({ width: 2, height: 2, label: 'test' });
    expect(w.objects.get(3)).toStrictEqual({ id: 3, x: 10, y: 20, z: 0, layer: 0, spriteId: 7 });
    expect(w.labels()).toStrictEqual(new Map([[7, 'test']]));
  });

  it('replaces a sprite’s pixels and label on redefinition and bumps its version', () => {
    const w = world(solid(7, 1, 1, RED, 'crate box1'));
    const before = w.sprites.get(7)!;
    w.apply([solid(7, 2, 1, BLUE, 'locked crate box1')]);
    const after = w.sprites.get(7)!;
    expect(after).toMatchObject({ width: 2, height: 1, label: 'locked crate box1', rgba: Uint8Array.from([...BLUE, ...BLUE]) });
    expect(after.version).toBeGreaterThan(before.version);
    w.apply([solid(7, 2, 1, BLUE, '')]);
    expect(w.labels().has(7)).toBe(false); // L=0 means no label
  });

  it('replaces an object and moves it to the given layer', () => {
    const w = world(...mapLayer(720, 400), { type: 'DefineLayer', layer: 1, layerType: 1, flags: 2 }, object(3, 10, 20, 0, 7));
    w.apply([object(3, 11, 21, 5, 8, 1)]);
    expect(w.objects.get(3)).toStrictEqual({ id: 3, x: 11, y: 21, z: 5, layer: 1, spriteId: 8 });
    expect(w.drawOrder().map(({ layer, objects }) => [layer.id, objects.map((o) => o.id)])).toStrictEqual([
      [0, []],
      [1, [3]],
    ]);
  });

  it('keeps an object whose sprite is unknown: it exists and draws nothing', () => {
    const w = world(...mapLayer(720, 400), object(3, 0, 0, 0, 999));
    expect(w.objects.has(3)).toBe(true);
    expect(w.visibleLabels()).toStrictEqual([]);
  });

  it('deletes objects, and deleting an unknown id is a no-op', () => {
    const w = world(...mapLayer(720, 400), object(3, 0, 0, 0, 7), object(4, 0, 0, 0, 7));
    const deletes: ServerMessage[] = [3, 3, 60000].map((objectId) => ({ type: 'DeleteObject', objectId }));
    expect(w.apply(deletes)).toStrictEqual({ ok: true });
    expect([...w.objects.keys()]).toStrictEqual([4]);
  });

  it('clears objects but keeps sprites and layers', () => {
    const w = world(...mapLayer(720, 400), solid(7, 1, 1, RED, 'padlock'), object(3, 0, 0, 0, 7));
    w.apply([{ type: 'ClearObjects' }]);
    expect(w.objects.size).toBe(0);
    expect(w.sprites.has(7)).toBe(true);
    expect(w.layers.get(0)?.viewport).toStrictEqual({ width: 720, height: 400 });
  });

  it('keeps a layer’s objects and viewport when the layer is redefined', () => {
    const w = world(...mapLayer(1440, 800), object(3, 0, 0, 0, 7));
    w.apply([{ type: 'DefineLayer', layer: 0, layerType: 9, flags: 0 }]);
    expect(w.layers.get(0)).toStrictEqual({ id: 0, layerType: 9, flags: 0, viewport: { width: 1440, height: 800 } });
    expect(w.objects.has(3)).toBe(true);
  });

  it('refuses an object or a viewport on a layer never defined', () => {
    expect(new SpriteWorld().apply([object(3, 0, 0, 0, 7, 2)])).toStrictEqual({ ok: false, error: 'UnknownLayer' });
    expect(new SpriteWorld().apply([{ type: 'SetViewport', layer: 2, width: 1, height: 1 }])).toStrictEqual({
      ok: false,
      error: 'UnknownLayer',
    });
  });

  it('finds the own aim inside the cog label, as HNS sends it (§7.2)', () => {
    const w = world(...mapLayer(720, 400), solid(108, 1, 1, RED, 'cog SEEKER own aim 131'), object(1001, 0, 0, 0, 108));
    expect(w.findLabel('own aim ')).toBe('cog SEEKER own aim 131');
  });
});

describe('draw order', () => {
  it('draws map layers, then full screen, then UI layers', () => {
    const w = world(
      { type: 'DefineLayer', layer: 0, layerType: 2, flags: 2 }, // top-right UI
      { type: 'DefineLayer', layer: 1, layerType: 9, flags: 0 }, // full screen
      { type: 'DefineLayer', layer: 2, layerType: 1, flags: 2 }, // top-left UI
      { type: 'DefineLayer', layer: 5, layerType: 0, flags: 1 }, // map
      { type: 'DefineLayer', layer: 3, layerType: 0, flags: 1 }, // map
    );
    expect(w.drawOrder().map(({ layer }) => layer.id)).toStrictEqual([3, 5, 1, 0, 2]);
  });

  it('orders objects of a layer by z, then y, then id', () => {
    const w = world(
      ...mapLayer(1440, 800),
      object(2500, -341, -5, -900, 2400), // vision cone
      object(40, 0, 0, -32768, 30), // map band
      object(1001, 100, 300, 302, 108), // cog at y 300
      object(2201, 288, 464, 232, 2001), // crate
      object(2320, 10, 90, 302, 2300), // same z as the cog, smaller y
      object(1000, 100, 300, 302, 100), // same z and y as 1001, smaller id
    );
    expect(w.drawOrder()[0]!.objects.map((o) => o.id)).toStrictEqual([40, 2500, 2201, 2320, 1000, 1001]);
  });

  it('lists the labels views read in draw order', () => {
    const w = world(
      ...mapLayer(720, 400),
      solid(1, 1, 1, RED, 'spotted ring'),
      solid(2, 1, 1, RED, 'cog HIDER own aim 12'),
      solid(3, 1, 1, RED, ''),
      object(10, 0, 0, 9, 1),
      object(11, 0, 0, 3, 2),
      object(12, 0, 0, 1, 3),
    );
    expect(w.visibleLabels()).toStrictEqual(['cog HIDER own aim 12', 'spotted ring']);
  });
});

// Splits a packet at message boundaries the way the server does (§1.4).
function chunk(messages: readonly Uint8Array[], cap: number): Uint8Array[][] {
  const chunks: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let size = 0;
  for (const message of messages) {
    if (size + message.length > cap && current.length > 0) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(message);
    size += message.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

// A sprite of pseudo-random pixels: Snappy cannot shrink it, so the frame really needs chunks.
function noise(spriteId: number, width: number, height: number, seed: number, label: string): ServerMessage {
  const rgba = new Uint8Array(width * height * 4);
  let state = seed;
  for (let i = 0; i < rgba.length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    rgba[i] = state >>> 24;
  }
  return spriteMessage(spriteId, width, height, rgba, label);
}

const CHUNK_CAP = 900_000;

describe('chunked frames (§1.4)', () => {
  // The global stream's first frame: header, nine incompressible 2× map bands and their objects (§4.2).
  const frame: ServerMessage[] = [{ type: 'ClearObjects' }, ...mapLayer(1440, 800)];
  for (let band = 0; band < 9; band++) {
    frame.push(noise(30 + band, 1440, band === 8 ? 32 : 96, band + 1, `map band ${band}`));
    frame.push(object(40 + band, 0, 96 * band, -32768, 30 + band));
  }
  frame.push(solid(100, 72, 72, BLUE, 'cog HIDER own aim 12'), object(1000, 44, 44, 82, 100), { type: 'DeleteObject', objectId: 77 });
  const encoded = frame.map((message) => packet(message));

  it('applies N chunks to the same tables as one packet', () => {
    const chunks = chunk(encoded, CHUNK_CAP);
    expect(chunks.length).toBeGreaterThan(2);
    for (const part of chunks) expect(part.reduce((n, m) => n + m.length, 0)).toBeLessThanOrEqual(CHUNK_CAP);

    const whole = new SpriteStream();
    expect(whole.receive(packet(...frame))).toStrictEqual({ ok: true });
    const chunked = new SpriteStream();
    for (const part of chunks) expect(chunked.receive(concat(part))).toStrictEqual({ ok: true });
    expect(chunked.messages).toBe(chunks.length);
    expect(tables(chunked.world)).toStrictEqual(tables(whole.world));
  });

  it('gives the same tables whatever the cap, down to one message per WebSocket message', () => {
    const whole = new SpriteStream();
    whole.receive(packet(...frame));
    for (const cap of [1, 600_000]) {
      const chunked = new SpriteStream();
      for (const part of chunk(encoded, cap)) expect(chunked.receive(concat(part))).toStrictEqual({ ok: true });
      expect(tables(chunked.world)).toStrictEqual(tables(whole.world));
    }
  });
});

describe('sprites made by the compact stream', () => {
  it('keep their version while the pixel array and size stay, and take a new one otherwise', () => {
    const w = new SpriteWorld();
    const pixels = new Uint8Array(16);
    w.useSprite(5, 2, 2, pixels, 'aim 1');
    const { version } = w.sprites.get(5)!;
    w.useSprite(5, 2, 2, pixels, 'aim 2');
    expect(w.sprites.get(5)).toMatchObject({ version, label: 'aim 2' });
    expect(w.relabel(5, 'aim 3')).toBe(true);
    expect(w.sprites.get(5)).toMatchObject({ version, label: 'aim 3', rgba: pixels });
    w.useSprite(5, 2, 2, new Uint8Array(16), 'same bytes, another array');
    expect(w.sprites.get(5)!.version).toBeGreaterThan(version);
    const second = w.sprites.get(5)!.version;
    w.useSprite(5, 1, 4, w.sprites.get(5)!.rgba!, 'another shape');
    expect(w.sprites.get(5)!.version).toBeGreaterThan(second);
  });

  it('relabel nothing that was never defined', () => {
    const w = new SpriteWorld();
    expect(w.relabel(9, 'x')).toBe(false);
    expect(w.sprites.size).toBe(0);
  });
});
