import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes, v1, v4, v5 } from './protocol';
import type { Decoded } from './protocol';
import { seededRandom } from '../testing/seededRandom.testing';

interface VectorFile {
  version: number;
  valid: Array<{ name: string; direction: 'client' | 'server'; type: string; fields: Record<string, unknown>; hex: string }>;
  malformed: Array<{ name: string; direction: 'client' | 'server'; hex: string; error: string }>;
  unknown: Array<{ name: string; direction: 'client' | 'server'; hex: string; id: number }>;
}

function loadVectors(file: string): VectorFile {
  const url = new URL(`../../../tests/vectors/${file}`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as VectorFile;
}

interface Codec {
  decodeClient(frame: Uint8Array): Decoded<{ type: string }>;
  decodeServer(frame: Uint8Array): Decoded<{ type: string }>;
  encodeClient(message: never): Uint8Array;
  encodeServer(message: never): Uint8Array;
}

const suites: Array<[string, Codec, VectorFile]> = [
  ['v1', v1 as unknown as Codec, loadVectors('v1.json')],
  ['v4', v4 as unknown as Codec, loadVectors('v4.json')],
  ['v5', v5 as unknown as Codec, loadVectors('v5.json')],
];

const normaliseHex = (hex: string) => hex.trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');

for (const [label, codec, vectors] of suites) {
  const decode = (direction: 'client' | 'server', hex: string) =>
    direction === 'client' ? codec.decodeClient(hexToBytes(hex)) : codec.decodeServer(hexToBytes(hex));
  const encode = (direction: 'client' | 'server', message: unknown) =>
    direction === 'client' ? codec.encodeClient(message as never) : codec.encodeServer(message as never);

  describe(`${label} golden vectors`, () => {
    it('has vectors of every kind', () => {
      expect(vectors.valid.length).toBeGreaterThan(0);
      expect(vectors.malformed.length).toBeGreaterThan(0);
      expect(vectors.unknown.length).toBeGreaterThan(0);
    });

    for (const vector of vectors.valid) {
      it(`decodes ${vector.name}`, () => {
        expect(decode(vector.direction, vector.hex)).toStrictEqual({
          ok: true,
          message: { type: vector.type, ...vector.fields },
        });
      });
      it(`encodes ${vector.name} byte for byte`, () => {
        const bytes = encode(vector.direction, { type: vector.type, ...vector.fields });
        expect(bytesToHex(bytes)).toBe(normaliseHex(vector.hex));
      });
    }

    for (const vector of vectors.malformed) {
      it(`rejects ${vector.name} with ${vector.error}`, () => {
        expect(decode(vector.direction, vector.hex)).toStrictEqual({ ok: false, error: vector.error });
      });
    }

    for (const vector of vectors.unknown) {
      it(`reports ${vector.name} as Unknown ${vector.id}`, () => {
        expect(decode(vector.direction, vector.hex)).toStrictEqual({
          ok: true,
          message: { type: 'Unknown', id: vector.id },
        });
      });
    }
  });
}

const FUZZ_FRAMES = 3000;
const FUZZ_MAX_LENGTH = 64;

describe('decoders on random bytes', () => {
  const decoders = [v1.decodeClient, v1.decodeServer, v4.decodeClient, v4.decodeServer, v5.decodeClient, v5.decodeServer];
  it('return a result and never throw', () => {
    const random = seededRandom(42);
    let failures = 0;
    let successes = 0;
    for (let i = 0; i < FUZZ_FRAMES; i++) {
      const frame = new Uint8Array(Math.floor(random() * FUZZ_MAX_LENGTH));
      for (let j = 0; j < frame.length; j++) frame[j] = Math.floor(random() * 256);
      // Bias the first byte towards known ids so the message bodies get exercised.
      if (frame.length > 0 && random() < 0.8) frame[0] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x81, 0x82, 0x83, 0x84, 0x85][Math.floor(random() * 11)]!;
      for (const decode of decoders) {
        const result = decode(frame);
        expect(typeof result.ok).toBe('boolean');
        if (result.ok) successes++;
        else failures++;
      }
    }
    expect(failures).toBeGreaterThan(0);
    expect(successes).toBeGreaterThan(0);
  });

  it('re-encodes whatever they accept to the same bytes', () => {
    const random = seededRandom(7);
    let checked = 0;
    const pairs = [
      [v4.decodeServer, v4.encodeServer],
      [v4.decodeClient, v4.encodeClient],
      [v1.decodeClient, v1.encodeClient],
      [v5.decodeClient, v5.encodeClient],
    ] as const;
    for (let i = 0; i < FUZZ_FRAMES; i++) {
      const frame = new Uint8Array(1 + Math.floor(random() * 16));
      for (let j = 0; j < frame.length; j++) frame[j] = Math.floor(random() * 256);
      frame[0] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x81, 0x82, 0x83, 0x84][Math.floor(random() * 10)]!;
      for (const [decode, encode] of pairs) {
        const result = decode(frame);
        if (!result.ok || result.message.type === 'Unknown') continue;
        // Random i64 clocks beyond 2^53 cannot survive a JS number; real clocks always fit.
        if (Object.values(result.message).some((v) => typeof v === 'number' && !Number.isSafeInteger(v))) continue;
        expect(bytesToHex(encode(result.message as never))).toBe(bytesToHex(frame));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('round-trip a map snapshot with every field set', () => {
    const message: v4.MapSnapshot = {
      type: 'MapSnapshot',
      schoolId: 12,
      nodes: [
        { kind: v4.NodeKind.Territory, id: 'yard', parent: '', name: 'Двор', items: ['Скамейка'], positions: [] },
        { kind: v4.NodeKind.Room, id: 'r1', parent: 'f1', name: '5А', items: ['доска', 'парта'], positions: ['desk-1'] },
      ],
    };
    expect(v4.decodeServer(v4.encodeServer(message))).toStrictEqual({ ok: true, message });
  });

  it('round-trip a snapshot whose floats are exact in f32', () => {
    const message: v1.Snapshot = {
      type: 'Snapshot',
      tick: 9,
      entities: [{ id: 3, kind: 1, x: 0.5, y: -12.25, radius: 16, colour: 0xffeedd }],
    };
    expect(v1.decodeServer(v1.encodeServer(message))).toStrictEqual({ ok: true, message });
  });
});

describe('encoders refuse what the decoder would refuse', () => {
  it('rejects a v1 name over 32 bytes', () => {
    expect(() => v1.encodeClient({ type: 'Hello', version: 1, name: 'я'.repeat(17) })).toThrow();
  });
  it('rejects a value that does not fit its field', () => {
    expect(() => v4.encodeClient({ type: 'SetSpeed', speedIndex: 256 })).toThrow();
    expect(() => v4.encodeClient({ type: 'OpenSchool', schoolId: 1.5 })).toThrow();
  });
  it('rejects a lone surrogate', () => {
    expect(() => v1.encodeClient({ type: 'Hello', version: 1, name: '\ud800' })).toThrow();
  });
});
