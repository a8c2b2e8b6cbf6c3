import { describe, expect, it } from 'vitest';
import { bytesToHex, concat, decodeClient, decodeServer, encodeClient, encodeServer, hexToBytes, spriteMessage } from './protocol';
import type { ClientMessage, ServerMessage } from './protocol';
import { solid } from './fixtures.testing';
import { asVector, loadVectors, vectorMessages } from './vectors.testing';
import type { VectorMessage } from './vectors.testing';
import { seededRandom } from '../testing/seededRandom.testing';

// The reference example of spec §1.1: sprite 7, 2×2, red, green, blue, transparent black, label "test".
const TEST_SPRITE_HEX =
  '01 07 00 02 00 02 00 12 00 00 00 10 3c ff 00 00 ff 00 ff 00 ff 00 00 ff ff 00 00 00 00 04 00 74 65 73 74';
const TEST_PIXELS = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0];
const TEST_BLOCK = '10 3c ff 00 00 ff 00 ff 00 ff 00 00 ff ff 00 00 00 00';
const OBJECT_HEX = '02 03 00 0a 00 14 00 00 00 00 07 00';
const PLAYER_HEADER_HEX = '04 06 00 00 01 05 00 d0 02 90 01';
const GLOBAL_HEADER_HEX = '04 06 00 00 01 05 00 a0 05 20 03';

const ok = (hex: string) => {
  const result = decodeServer(hexToBytes(hex));
  if (!result.ok) throw new Error(`expected ${hex} to decode, got ${result.error}`);
  return result.messages;
};

describe('Sprite v1 server messages (spec examples)', () => {
  it('decodes the 2×2 "test" sprite to straight RGBA and its label', () => {
    expect(ok(TEST_SPRITE_HEX)).toStrictEqual([
      {
        type: 'DefineSprite',
        spriteId: 7,
        width: 2,
        height: 2,
        compressed: hexToBytes(TEST_BLOCK),
        rgba: Uint8Array.from(TEST_PIXELS),
        label: 'test',
      },
    ]);
  });

  it('decodes object 3 at (10,20), z 0, layer 0, sprite 7', () => {
    expect(ok(OBJECT_HEX)).toStrictEqual([{ type: 'DefineObject', objectId: 3, x: 10, y: 20, z: 0, layer: 0, spriteId: 7 }]);
  });

  it('decodes both snapshot headers as three messages in one WebSocket message', () => {
    expect(ok(PLAYER_HEADER_HEX)).toStrictEqual([
      { type: 'ClearObjects' },
      { type: 'DefineLayer', layer: 0, layerType: 0, flags: 1 },
      { type: 'SetViewport', layer: 0, width: 720, height: 400 },
    ]);
    expect(ok(GLOBAL_HEADER_HEX)[2]).toStrictEqual({ type: 'SetViewport', layer: 0, width: 1440, height: 800 });
  });

  it('decodes the derived lobby placements of §4.1 with signed coordinates', () => {
    expect(ok('02 E9 03 4C 01 74 00 98 00 00 7C 00')).toStrictEqual([
      { type: 'DefineObject', objectId: 1001, x: 332, y: 116, z: 152, layer: 0, spriteId: 124 },
    ]);
    expect(ok('02 28 00 00 00 00 00 00 80 00 1E 00')[0]).toMatchObject({ objectId: 40, z: -32768, spriteId: 30 });
  });

  it('takes an empty WebSocket message as an empty tick', () => {
    expect(decodeServer(new Uint8Array(0))).toStrictEqual({ ok: true, messages: [] });
  });

  it('decodes a sprite whose pixels were stripped (N=0) with its size and label', () => {
    expect(ok('01 64 00 48 00 48 00 00 00 00 00 03 00 63 6f 67')).toStrictEqual([
      { type: 'DefineSprite', spriteId: 100, width: 72, height: 72, compressed: new Uint8Array(0), rgba: null, label: 'cog' },
    ]);
  });

  it('compresses RGBA that decodes back to the same pixels', () => {
    const rgba = Uint8Array.from({ length: 72 * 72 * 4 }, (_, i) => (i * 7) % 256);
    const [message] = ok(bytesToHex(encodeServer(spriteMessage(100, 72, 72, rgba, 'cog HIDER own aim 12'))));
    expect(message).toMatchObject({ rgba, label: 'cog HIDER own aim 12' });
  });

  it('decodes delete and a label with UTF-8', () => {
    const label = 'shout bubble привет';
    const bytes = concat([encodeServer(solid(2700, 1, 1, [1, 2, 3, 4], label)), hexToBytes('03 ff ff')]);
    const messages = decodeServer(bytes);
    expect(messages.ok && messages.messages.map((m) => m.type)).toStrictEqual(['DefineSprite', 'DeleteObject']);
    expect(messages.ok && messages.messages[0]).toMatchObject({ label, spriteId: 2700 });
    expect(messages.ok && messages.messages[1]).toStrictEqual({ type: 'DeleteObject', objectId: 0xffff });
  });

  it('round-trips every server message through encodeServer', () => {
    const all: ServerMessage[] = [
      solid(5, 3, 2, [10, 20, 30, 128], 'crate box1'),
      spriteMessage(6, 1440, 96, null, 'map band 0'),
      { type: 'DefineObject', objectId: 2200, x: -5, y: 1056, z: -900, layer: 3, spriteId: 5 },
      { type: 'DeleteObject', objectId: 9 },
      { type: 'ClearObjects' },
      { type: 'SetViewport', layer: 3, width: 100, height: 40 },
      { type: 'DefineLayer', layer: 3, layerType: 9, flags: 2 },
    ];
    expect(decodeServer(concat(all.map(encodeServer)))).toStrictEqual({ ok: true, messages: all });
  });
});

describe('Sprite v1 receiver errors (§1.1)', () => {
  const error = (hex: string) => decodeServer(hexToBytes(hex));

  it('rejects unknown message types, including client ids and the reserved 0x00', () => {
    for (const id of ['00', '07', '7f', '81', '87', 'ff']) expect(error(id)).toStrictEqual({ ok: false, error: 'UnknownType' });
    expect(error(`${OBJECT_HEX} 08`)).toStrictEqual({ ok: false, error: 'UnknownType' });
  });

  it('rejects every truncation of the spec examples', () => {
    for (const hex of [TEST_SPRITE_HEX, OBJECT_HEX, '03 01 00', '05 00 d0 02 90 01', '06 00 00 01']) {
      const bytes = hexToBytes(hex);
      for (let cut = 1; cut < bytes.length; cut++) {
        expect(decodeServer(bytes.subarray(0, cut)), `${hex} cut at ${cut}`).toStrictEqual({ ok: false, error: 'Truncated' });
      }
    }
  });

  it('rejects a label length past the end of the message', () => {
    expect(error(TEST_SPRITE_HEX.replace(/04 00 74/, '05 00 74'))).toStrictEqual({ ok: false, error: 'Truncated' });
  });

  it('decodes the whole WebSocket message before checking pixels, as the C++ codec does', () => {
    // A bad Snappy body (a copy before any output) followed by a truncated message: truncation wins.
    const badBody = '01 01 00 01 00 01 00 03 00 00 00 04 01 01 00 00';
    expect(error(badBody)).toStrictEqual({ ok: false, error: 'BadSnappy' });
    expect(error(`${badBody} 02 03`)).toStrictEqual({ ok: false, error: 'Truncated' });
  });

  it('rejects pixels that are not Snappy', () => {
    // A copy tag before any output, a literal running past N, and a varint that never ends.
    expect(error('01 01 00 01 00 01 00 03 00 00 00 04 01 01 00 00')).toStrictEqual({ ok: false, error: 'BadSnappy' });
    expect(error('01 01 00 01 00 01 00 03 00 00 00 04 0c aa 00 00')).toStrictEqual({ ok: false, error: 'BadSnappy' });
    expect(error('01 01 00 01 00 01 00 02 00 00 00 ff ff 00 00')).toStrictEqual({ ok: false, error: 'BadSnappy' });
  });

  it('rejects pixels whose preamble is not w·h·4 (SizeMismatch)', () => {
    // The example's 16 bytes declared for a 2×1 and a 3×2 sprite.
    expect(error(TEST_SPRITE_HEX.replace(/^01 07 00 02 00 02 00/, '01 07 00 02 00 01 00'))).toStrictEqual({
      ok: false,
      error: 'SizeMismatch',
    });
    expect(error(TEST_SPRITE_HEX.replace(/^01 07 00 02 00 02 00/, '01 07 00 03 00 02 00'))).toStrictEqual({
      ok: false,
      error: 'SizeMismatch',
    });
    // The varint says 16 but the tags yield only 12: snappyjs alone would leave zeros and say nothing.
    expect(error('01 07 00 02 00 02 00 0e 00 00 00 10 2c ff 00 00 ff 00 ff 00 ff 00 00 ff ff 00 00')).toStrictEqual({
      ok: false,
      error: 'BadSnappy',
    });
  });

  it('rejects a zero width or height of a sprite or a viewport, before reading further', () => {
    expect(error('01 07 00 00 00 02 00')).toStrictEqual({ ok: false, error: 'ZeroDimension' });
    expect(error('01 07 00 00 00 02 00 00 00 00 00 00 00')).toStrictEqual({ ok: false, error: 'ZeroDimension' });
    expect(error('01 07 00 02 00 00 00 00 00 00 00 00 00')).toStrictEqual({ ok: false, error: 'ZeroDimension' });
    expect(error('05 00 00 00 90 01')).toStrictEqual({ ok: false, error: 'ZeroDimension' });
    expect(error('05 00 d0 02 00 00')).toStrictEqual({ ok: false, error: 'ZeroDimension' });
  });

  it('rejects dimensions too large for memory, and a block longer than any valid one, before allocating', () => {
    expect(error('01 07 00 ff ff ff ff 00 00 00 00 00 00')).toStrictEqual({ ok: false, error: 'TooLarge' });
    expect(error('01 07 00 00 10 00 10 00 00 00 00 00 00')).toMatchObject({ ok: true }); // 4096×4096 is the limit
    // A 1×1 sprite's block can be at most 4·6+16 = 40 bytes: 41 is refused before looking for the bytes.
    expect(error('01 07 00 01 00 01 00 28 00 00 00')).toStrictEqual({ ok: false, error: 'Truncated' });
    expect(error('01 07 00 01 00 01 00 29 00 00 00')).toStrictEqual({ ok: false, error: 'TooLarge' });
  });

  it('rejects a layer type above 9 and keeps label bytes as sent', () => {
    expect(error('06 00 0a')).toStrictEqual({ ok: false, error: 'BadLayerType' });
    expect(error('06 00 09 00')).toStrictEqual({ ok: true, messages: [{ type: 'DefineLayer', layer: 0, layerType: 9, flags: 0 }] });
    expect(error('01 07 00 01 00 01 00 00 00 00 00 01 00 ff')).toMatchObject({ ok: true, messages: [{ label: '\ufffd' }] });
  });
});

describe('Sprite v1 client messages (§1.2)', () => {
  const cases: Array<[ClientMessage, string]> = [
    [{ type: 'InputText', text: 'hi\n' }, '81 03 00 68 69 0a'],
    [{ type: 'MousePosition', x: -2, y: 300, layer: null }, '82 fe ff 2c 01'],
    [{ type: 'MousePosition', x: 1, y: 2, layer: 3 }, '82 01 00 02 00 03'],
    [{ type: 'MouseButton', code: 1, down: true }, '83 01 01'],
    [{ type: 'MouseButton', code: 3, down: false }, '83 03 00'],
    [{ type: 'PlayerInput', mask: 0x80 | 0x01 }, '84 81'],
    [{ type: 'PlayerReady' }, '85'],
    [{ type: 'DebugSprites', payload: hexToBytes('03 01 00') }, '86 03 00 00 00 03 01 00'],
    [{ type: 'SpritesOff' }, '87'],
  ];
  for (const [message, hex] of cases) {
    it(`encodes and decodes ${message.type} ${hex}`, () => {
      expect(bytesToHex(encodeClient(message))).toBe(hex);
      expect(decodeClient(hexToBytes(hex))).toStrictEqual({ ok: true, messages: [message] });
    });
  }

  it('reads the mouse layer byte only when it does not start another client message', () => {
    expect(decodeClient(hexToBytes('82 01 00 02 00 84 01'))).toStrictEqual({
      ok: true,
      messages: [
        { type: 'MousePosition', x: 1, y: 2, layer: null },
        { type: 'PlayerInput', mask: 1 },
      ],
    });
  });

  it('refuses to encode a mouse layer that would read as the next message, and an overlay above 32 KiB', () => {
    expect(() => encodeClient({ type: 'MousePosition', x: 0, y: 0, layer: 0x84 })).toThrow();
    expect(() => encodeClient({ type: 'DebugSprites', payload: new Uint8Array(32 * 1024 + 1) })).toThrow();
  });

  it('rejects a boolean other than 0 or 1, unknown ids and truncation', () => {
    expect(decodeClient(hexToBytes('83 01 02'))).toStrictEqual({ ok: false, error: 'BadBoolean' });
    expect(decodeClient(hexToBytes('01'))).toStrictEqual({ ok: false, error: 'UnknownType' });
    expect(decodeClient(hexToBytes('88'))).toStrictEqual({ ok: false, error: 'UnknownType' });
    expect(decodeClient(hexToBytes('86 05 00 00 00 01'))).toStrictEqual({ ok: false, error: 'Truncated' });
    expect(decodeClient(hexToBytes('86 01 80 00 00'))).toStrictEqual({ ok: false, error: 'TooLarge' });
    expect(decodeClient(hexToBytes('84'))).toStrictEqual({ ok: false, error: 'Truncated' });
  });
});

const FUZZ_PACKETS = 3000;
const FUZZ_MAX_LENGTH = 48;

describe('Sprite v1 decoders on random bytes', () => {
  it('return a result and never throw', () => {
    const random = seededRandom(13);
    const outcomes = { ok: 0, error: 0 };
    for (let i = 0; i < FUZZ_PACKETS; i++) {
      const bytes = new Uint8Array(Math.floor(random() * FUZZ_MAX_LENGTH));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      // Bias the first byte towards known ids so message bodies get exercised.
      if (bytes.length > 0 && random() < 0.8) bytes[0] = [1, 2, 3, 4, 5, 6, 0x81, 0x82, 0x83, 0x84, 0x86][Math.floor(random() * 11)]!;
      for (const decode of [decodeServer, decodeClient]) {
        const result = decode(bytes);
        outcomes[result.ok ? 'ok' : 'error']++;
      }
    }
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.error).toBeGreaterThan(0);
  });
});

// The golden vectors the C++ codec writes (tests/vectors/sprite_v1.json), shared like v1.json and v4.json.
// Byte fields are hex strings there, DefineLayer's layer type is "type", and a "Frame" lists several messages.
interface VectorFile {
  version: string;
  valid: Array<VectorMessage & { name: string; direction: 'client' | 'server'; hex: string }>;
  malformed: Array<{ name: string; direction: 'client' | 'server'; hex: string; error: string }>;
}

const vectors = loadVectors<VectorFile>('sprite_v1.json');

function expectedMessages(vector: VectorMessage): VectorMessage[] {
  const normalise = (value: unknown) => (typeof value === 'string' && /^[0-9a-f ]+$/.test(value) ? bytesToHex(hexToBytes(value)) : value);
  return vectorMessages(vector, (key, value) => (key === 'label' || key === 'text' ? value : normalise(value)));
}

describe('Sprite v1 golden vectors', () => {
  it('has valid and malformed vectors', () => {
    expect(vectors.version).toBe('sprite-v1');
    expect(vectors.valid.length).toBeGreaterThan(0);
    expect(vectors.malformed.length).toBeGreaterThan(0);
  });

  for (const vector of vectors.valid) {
    const bytes = hexToBytes(vector.hex);
    it(`decodes ${vector.name}`, () => {
      const result = vector.direction === 'client' ? decodeClient(bytes) : decodeServer(bytes);
      if (!result.ok) throw new Error(`${vector.name}: ${result.error}`);
      expect(result.messages.map(asVector)).toStrictEqual(expectedMessages(vector));
    });
    it(`encodes ${vector.name} byte for byte`, () => {
      const result = vector.direction === 'client' ? decodeClient(bytes) : decodeServer(bytes);
      if (!result.ok) throw new Error(`${vector.name}: ${result.error}`);
      const encoded = concat(
        result.messages.map((message) => (vector.direction === 'client' ? encodeClient(message as ClientMessage) : encodeServer(message as ServerMessage))),
      );
      expect(bytesToHex(encoded)).toBe(bytesToHex(bytes));
    });
  }

  for (const vector of vectors.malformed) {
    it(`rejects ${vector.name} with ${vector.error}`, () => {
      const bytes = hexToBytes(vector.hex);
      const result = vector.direction === 'client' ? decodeClient(bytes) : decodeServer(bytes);
      expect(result).toStrictEqual({ ok: false, error: vector.error });
    });
  }
});
