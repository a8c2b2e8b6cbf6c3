import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hexToBytes, v5 } from '../net/protocol';
import { Replica } from './v5Replica';

interface StreamFile {
  frames: Array<{ hex: string; replica: Array<[number, number, number, number, number]> }>;
}

const stream = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../tests/vectors/v5_stream.json', import.meta.url)), 'utf8'),
) as StreamFile;

const frameOf = (hex: string): v5.Frame => {
  const decoded = v5.decodeServer(hexToBytes(hex));
  if (!decoded.ok || decoded.message.type !== 'Frame') throw new Error('not a Frame');
  return decoded.message;
};

const empty = (tick: number, baseTick: number, flags = 0): v5.Frame => ({
  type: 'Frame', tick, baseTick, flags, ackSeq: 0, inputQueue: 0, mask: 0, selfX: 0, selfY: 0,
  leaves: [], enters: [], updates: [], farCols: 0, farRows: 0, far: [],
});

describe('the v5 replica', () => {
  it('reproduces the C++ replica after every Frame of a recorded stream', () => {
    const replica = new Replica();
    expect(stream.frames.length).toBeGreaterThan(20);
    for (const [i, { hex, replica: expected }] of stream.frames.entries()) {
      expect([i, replica.apply(frameOf(hex))]).toStrictEqual([i, null]);
      expect(replica.entries().map((e) => [e.slot, e.id, e.qx, e.qy, e.colour])).toStrictEqual(expected);
    }
  });

  it('refuses broken streams and changes nothing when it does', () => {
    const replica = new Replica();
    expect(replica.apply(empty(5, 0))).toBe('FirstNotKeyframe');
    const first = { ...empty(5, 0, v5.FrameFlags.Keyframe), enters: [{ slot: 3, id: 30, qx: 10, qy: 10, colour: 1 }] };
    expect(replica.apply(first)).toBeNull();
    expect(replica.apply(empty(7, 6))).toBe('BrokenChain');
    expect(replica.apply({ ...empty(7, 5), leaves: [4] })).toBe('UnknownSlot');
    expect(replica.apply({ ...empty(7, 5), enters: [{ slot: 3, id: 31, qx: 0, qy: 0, colour: 0 }] })).toBe('SlotTaken');
    expect(replica.apply({ ...empty(7, 5), leaves: [20000] })).toBe('SlotOutOfRange');
    expect(replica.apply({ ...empty(7, 5), leaves: [3, 3] })).toBe('RepeatedSlot');
    const left = { slot: 3, form: v5.Form.Dx, dx: -11, dy: 0, fields: 0, qx: 0, qy: 0, colour: 0 };
    expect(replica.apply({ ...empty(7, 5), updates: [left] })).toBe('QuantumOutOfRange');
    expect(replica.entries()).toStrictEqual([{ slot: 3, id: 30, qx: 10, qy: 10, colour: 1 }]);
    const reuse = { ...empty(7, 5), leaves: [3], enters: [{ slot: 3, id: 33, qx: 5, qy: 6, colour: 7 }] };
    expect(replica.apply(reuse)).toBeNull();
    expect(replica.entries()).toStrictEqual([{ slot: 3, id: 33, qx: 5, qy: 6, colour: 7 }]);
  });
});
