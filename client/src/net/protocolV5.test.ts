import { describe, expect, it } from 'vitest';
import { v5 } from './protocol';
import { seededRandom } from '../testing/seededRandom.testing';

function randomUpdate(random: () => number): v5.Update {
  const int = (n: number) => Math.floor(random() * n);
  const u: v5.Update = { slot: int(v5.SLOT_LIMIT), form: int(4), dx: 0, dy: 0, fields: 0, qx: 0, qy: 0, colour: 0 };
  if (u.form === v5.Form.DxDy || u.form === v5.Form.Dx) u.dx = int(256) - 128;
  if (u.form === v5.Form.DxDy || u.form === v5.Form.Dy) u.dy = int(256) - 128;
  if (u.form === v5.Form.Fields) {
    u.fields = 1 + int(7);
    if (u.fields & v5.Fields.Qx) u.qx = int(65536);
    if (u.fields & v5.Fields.Qy) u.qy = int(65536);
    if (u.fields & v5.Fields.Colour) u.colour = int(v5.MAX_COLOUR + 1);
  }
  return u;
}

describe('v5 frames', () => {
  it('survive encode and decode whatever their sections hold', () => {
    const random = seededRandom(23);
    const int = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 300; round++) {
      const flags = int(4);
      const farCols = flags & v5.FrameFlags.FarGrid ? int(20) : 0;
      const farRows = flags & v5.FrameFlags.FarGrid ? int(20) : 0;
      const frame: v5.Frame = {
        type: 'Frame', tick: int(2 ** 32), baseTick: int(2 ** 32), flags, ackSeq: int(2 ** 32), inputQueue: int(256), mask: int(256),
        selfX: int(100000) / 8, selfY: int(100000) / 8,
        leaves: Array.from({ length: int(20) }, () => int(65536)),
        enters: Array.from({ length: int(20) }, () => ({ slot: int(65536), id: int(2 ** 32), qx: int(65536), qy: int(65536), colour: int(v5.MAX_COLOUR + 1) })),
        updates: Array.from({ length: int(40) }, () => randomUpdate(random)),
        farCols, farRows, far: Array.from({ length: farCols * farRows }, () => int(256)),
      };
      expect(v5.decodeServer(v5.encodeServer(frame))).toStrictEqual({ ok: true, message: frame });
    }
  });

  it('decode random bytes to a result, never a throw, and re-encode what they accept', () => {
    const random = seededRandom(99);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const frame = new Uint8Array(30 + Math.floor(random() * 24));
      for (let j = 0; j < frame.length; j++) frame[j] = Math.floor(random() * 256);
      frame[0] = v5.Id.Frame;
      frame[9]! &= 3; // known flags, so the sections get exercised
      frame[16] = 0; // self position: exact small floats survive re-encoding
      frame[17] = 0;
      frame[18] = 0x80;
      frame[19] = 0x3f;
      frame[20] = 0;
      frame[21] = 0;
      frame[22] = 0x80;
      frame[23] = 0x3f;
      frame.fill(0, 24, 28); // no leaves, no enters
      frame[28] = Math.floor(random() * 6); // a few updates, whose forms and fields are random
      frame[29] = 0;
      const result = v5.decodeServer(frame);
      expect(typeof result.ok).toBe('boolean');
      if (result.ok && result.message.type === 'Frame') {
        expect(v5.encodeServer(result.message)).toStrictEqual(frame);
        accepted++;
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('refuse to encode what the decoder would refuse', () => {
    const base: v5.Frame = {
      type: 'Frame', tick: 1, baseTick: 0, flags: 0, ackSeq: 0, inputQueue: 0, mask: 0, selfX: 0, selfY: 0,
      leaves: [], enters: [], updates: [], farCols: 0, farRows: 0, far: [],
    };
    expect(() => v5.encodeServer({ ...base, flags: 4 })).toThrow();
    expect(() => v5.encodeServer({ ...base, updates: [{ slot: v5.SLOT_LIMIT, form: 0, dx: 0, dy: 0, fields: 0, qx: 0, qy: 0, colour: 0 }] })).toThrow();
    expect(() => v5.encodeServer({ ...base, updates: [{ slot: 1, form: 3, dx: 0, dy: 0, fields: 0, qx: 0, qy: 0, colour: 0 }] })).toThrow();
    expect(() => v5.encodeServer({ ...base, enters: [{ slot: 1, id: 1, qx: 0, qy: 0, colour: 0x1000000 }] })).toThrow();
    expect(() => v5.encodeServer({ ...base, flags: 2, farCols: 2, farRows: 2, far: [1] })).toThrow();
    expect(() => v5.encodeClient({ type: 'Hello', version: 5, name: 'я'.repeat(17) })).toThrow();
  });
});
