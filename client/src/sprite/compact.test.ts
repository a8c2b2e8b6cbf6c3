import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CompactId, MAX_BLOCK_SCALE, decodeCompact, encodeCompact, maxBlockBytes } from './compact';
import type { CompactMessage } from './compact';
import { CompactStream } from './compactStream';
import { compactPacket, frameMark, relabel, solidBlock, useBlock } from './compactFixtures.testing';
import { ServerId, bytesToHex, concat, hexToBytes } from './protocol';
import { asVector, loadVectors, vectorMessages } from './vectors.testing';
import type { VectorMessage } from './vectors.testing';
import { seededRandom } from '../testing/seededRandom.testing';

// The golden vectors of tests/vectors/hns_compact.json (written by make_hns_compact.py), checked by the
// C++ codec too: a missing file must fail, not skip.
interface VectorFile {
  version: string;
  valid: Array<VectorMessage & { name: string; hex: string }>;
  malformed: Array<{ name: string; hex: string; error: string }>;
  receiver: Array<{ name: string; messages: string[]; error: string | null }>;
}
const vectors = loadVectors<VectorFile>('hns_compact.json');

const HEX_FIELDS = new Set(['zlib', 'rgba', 'compressed']);
const normaliseHex = (hex: string) => bytesToHex(hexToBytes(hex));

function expectedMessages(vector: VectorMessage): VectorMessage[] {
  return vectorMessages(vector, (key, value) => (HEX_FIELDS.has(key) ? normaliseHex(value as string) : value));
}

// A message built from the vector's fields alone, to encode.
function fromVector({ type, fields }: VectorMessage): CompactMessage {
  const bytes = (key: string) => hexToBytes(fields[key] as string);
  switch (type) {
    case 'DefineBlock':
      return { ...(fields as { blockId: number; width: number; height: number; scale: number }), type, zlib: bytes('zlib'), rgba: null };
    case 'DefineSprite':
      return { ...(fields as { spriteId: number; width: number; height: number; label: string }), type, compressed: bytes('compressed'), rgba: null };
    case 'DefineLayer':
      return { type, layer: fields.layer as number, layerType: fields.type as number, flags: fields.flags as number };
    default:
      return { type, ...fields } as CompactMessage;
  }
}

const RECEIVER_ERRORS = ['UnknownBlock', 'UnknownSprite', 'UnknownLayer', 'TooManyBlocks'];
const DECODER_ERRORS = ['UnknownType', 'Truncated', 'TooLarge', 'ZeroDimension', 'BadScale', 'BadZlib', 'SizeMismatch', 'BadFlags'];

describe('compact stream golden vectors', () => {
  it('has every section, and malformed vectors for every decoder error', () => {
    expect(vectors.version).toBe('hns-compact');
    expect(vectors.valid.length).toBeGreaterThanOrEqual(12);
    expect(vectors.receiver.length).toBeGreaterThanOrEqual(8);
    expect(new Set(vectors.malformed.map((v) => v.error))).toStrictEqual(new Set(DECODER_ERRORS));
    expect(new Set(vectors.receiver.map((v) => v.error).filter((e) => e !== null))).toStrictEqual(new Set(RECEIVER_ERRORS));
  });

  for (const vector of vectors.valid) {
    it(`decodes ${vector.name} to its fields and pixels`, () => {
      const result = decodeCompact(hexToBytes(vector.hex));
      if (!result.ok) throw new Error(`${vector.name}: ${result.error}`);
      expect(result.messages.map(asVector)).toStrictEqual(expectedMessages(vector));
    });
    it(`encodes ${vector.name} byte for byte`, () => {
      const encoded = concat(expectedMessages(vector).map((m) => encodeCompact(fromVector(m))));
      expect(bytesToHex(encoded)).toBe(normaliseHex(vector.hex));
    });
  }

  for (const vector of vectors.malformed) {
    it(`rejects ${vector.name} with ${vector.error}`, () => {
      expect(decodeCompact(hexToBytes(vector.hex))).toStrictEqual({ ok: false, error: vector.error });
    });
  }

  for (const vector of vectors.receiver) {
    it(`applies ${vector.name} and stops at ${vector.error ?? 'nothing'}`, () => {
      const stream = new CompactStream();
      let error: string | null = null;
      for (const hex of vector.messages) {
        const result = stream.receive(hexToBytes(hex));
        if (!result.ok) {
          error = result.error;
          break;
        }
      }
      expect(error).toBe(vector.error);
    });
  }
});

const FUZZ_PACKETS = 3000;
const FUZZ_MAX_LENGTH = 64;
const MESSAGE_IDS = [...Object.values(ServerId), ...Object.values(CompactId)];

describe('compact decoder on hostile bytes', () => {
  const single = vectors.valid.filter((v) => v.type !== 'Frame');

  it('calls every cut of every single-message vector Truncated', () => {
    let cuts = 0;
    for (const vector of single) {
      const bytes = hexToBytes(vector.hex);
      for (let length = 1; length < bytes.length; length++, cuts++) {
        expect(decodeCompact(bytes.subarray(0, length)), `${vector.name} cut to ${length}`).toStrictEqual({ ok: false, error: 'Truncated' });
      }
    }
    expect(cuts).toBeGreaterThan(100);
  });

  it('returns a result for random bytes and random damage to valid messages, never throwing', () => {
    const random = seededRandom(31);
    const byte = () => Math.floor(random() * 256);
    const outcomes = { ok: 0, error: 0 };
    const stream = new CompactStream();
    for (let i = 0; i < FUZZ_PACKETS; i++) {
      let bytes: Uint8Array;
      if (i % 2 === 0) {
        bytes = Uint8Array.from({ length: Math.floor(random() * FUZZ_MAX_LENGTH) }, byte);
        // Bias the first byte towards known ids so message bodies get exercised.
        if (bytes.length > 0 && random() < 0.8) bytes[0] = MESSAGE_IDS[Math.floor(random() * MESSAGE_IDS.length)]!;
      } else {
        bytes = hexToBytes(vectors.valid[Math.floor(random() * vectors.valid.length)]!.hex);
        for (let flips = 1 + Math.floor(random() * 3); flips > 0; flips--) bytes[Math.floor(random() * bytes.length)] = byte();
      }
      const result = decodeCompact(bytes);
      outcomes[result.ok ? 'ok' : 'error']++;
      expect(() => new CompactStream().receive(bytes)).not.toThrow();
      stream.receive(bytes); // a stream that already failed keeps answering its error
    }
    expect(outcomes.ok).toBeGreaterThan(0);
    expect(outcomes.error).toBeGreaterThan(0);
    expect(stream.error).not.toBeNull();
  });

  it('refuses a zlib bomb declared 2×2 without inflating it', () => {
    const bomb = new Uint8Array(deflateSync(new Uint8Array(64 << 10), { level: 9 }));
    expect(bomb.length).toBeLessThanOrEqual(maxBlockBytes(2, 2, 1));
    const block = compactPacket({ type: 'DefineBlock', blockId: 1, width: 2, height: 2, scale: 1, zlib: bomb, rgba: null });
    expect(decodeCompact(block)).toStrictEqual({ ok: false, error: 'SizeMismatch' });
  });

  it('refuses a 16 MiB zlib bomb: too many bytes declared 2×2, too long declared 64×64', () => {
    const bomb = new Uint8Array(deflateSync(new Uint8Array(16 << 20), { level: 9 }));
    const declared = (side: number) => compactPacket({ type: 'DefineBlock', blockId: 1, width: side, height: side, scale: 1, zlib: bomb, rgba: null });
    expect(decodeCompact(declared(2))).toStrictEqual({ ok: false, error: 'TooLarge' });
    expect(decodeCompact(declared(64))).toStrictEqual({ ok: false, error: 'SizeMismatch' }); // how far it inflated: blockPixels.test.ts
  });

  it('bounds a block by its image size and its zlib length', () => {
    const header = (width: number, height: number, scale: number, n: number) => {
      const bytes = new Uint8Array(12);
      const view = new DataView(bytes.buffer);
      bytes[0] = CompactId.DefineBlock;
      view.setUint16(3, width, true);
      view.setUint16(5, height, true);
      bytes[7] = scale;
      view.setUint32(8, n, true);
      return bytes;
    };
    // 4096×4096 RGBA is the 64 MiB maximum; one row more is too large, before the stream is looked at.
    expect(decodeCompact(header(4096, 4096, 1, 0))).toStrictEqual({ ok: false, error: 'BadZlib' });
    expect(decodeCompact(header(4096, 4097, 1, 0))).toStrictEqual({ ok: false, error: 'TooLarge' });
    expect(decodeCompact(header(0xffff, 0xffff, 1, 0))).toStrictEqual({ ok: false, error: 'TooLarge' });
    // N at its bound is only short of bytes; one more is refused before reading them.
    const max = maxBlockBytes(8, 8, 2);
    expect(max).toBe(4 * 4 * 4 + 5 + 6 + 64);
    expect(decodeCompact(header(8, 8, 2, max))).toStrictEqual({ ok: false, error: 'Truncated' });
    expect(decodeCompact(header(8, 8, 2, max + 1))).toStrictEqual({ ok: false, error: 'TooLarge' });
    expect(decodeCompact(header(8, 8, 2, 0xffffffff))).toStrictEqual({ ok: false, error: 'TooLarge' });
    // Scales 1..8 that divide both sides.
    expect(decodeCompact(header(16, 16, MAX_BLOCK_SCALE, 0))).toStrictEqual({ ok: false, error: 'BadZlib' });
    expect(decodeCompact(header(18, 18, MAX_BLOCK_SCALE + 1, 0))).toStrictEqual({ ok: false, error: 'BadScale' });
    expect(decodeCompact(header(16, 12, 8, 0))).toStrictEqual({ ok: false, error: 'BadScale' });
  });

  it('answers unknown block and sprite ids with receiver errors, at the edges of the id range', () => {
    const receive = (...messages: CompactMessage[]) => new CompactStream().receive(compactPacket(frameMark(1, 1), ...messages));
    expect(receive(useBlock(0, 0xffff))).toStrictEqual({ ok: false, error: 'UnknownBlock' });
    expect(receive(solidBlock(0xffff, 2, 2, [1, 2, 3, 4]), useBlock(0xffff, 0xffff, 'max'))).toStrictEqual({ ok: true });
    expect(receive(relabel(0xffff, 'x'))).toStrictEqual({ ok: false, error: 'UnknownSprite' });
    expect(receive({ type: 'ForgetBlock', blockId: 0xffff })).toStrictEqual({ ok: true });
    expect(receive({ type: 'DefineObject', objectId: 1, x: 0, y: 0, z: 0, layer: 0xff, spriteId: 0 })).toStrictEqual({ ok: false, error: 'UnknownLayer' });
  });
});
