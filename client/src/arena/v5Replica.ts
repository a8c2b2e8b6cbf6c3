// A v5 client's replica of the players in its window: applies Frames by the session rules
// (docs/protocol.md) and says why one breaks them; mirrors src/sim/arena/v5/replica.cpp.
import { v5 } from '../net/protocol';

export type ApplyError =
  | 'FirstNotKeyframe'
  | 'BrokenChain'
  | 'UnknownSlot'
  | 'SlotTaken'
  | 'SlotOutOfRange'
  | 'RepeatedSlot'
  | 'QuantumOutOfRange';

export interface Replicated {
  slot: number;
  id: number;
  qx: number;
  qy: number;
  colour: number;
}

const MAX_QUANTUM = 0xffff;

function sectionError(slots: readonly number[]): ApplyError | null {
  const seen = new Set<number>();
  for (const slot of slots) {
    if (slot >= v5.SLOT_LIMIT) return 'SlotOutOfRange';
    if (seen.has(slot)) return 'RepeatedSlot';
    seen.add(slot);
  }
  return null;
}

export class Replica {
  private slots = new Map<number, Replicated>();
  tick = 0;
  started = false;
  far: number[] = [];
  farCols = 0;
  farRows = 0;

  get size(): number {
    return this.slots.size;
  }

  entries(): Replicated[] {
    return [...this.slots.values()].sort((a, b) => a.slot - b.slot);
  }

  reset(): void {
    this.slots.clear();
    this.tick = 0;
    this.started = false;
    this.far = [];
  }

  // Applies the Frame whole, or nothing when it breaks a rule (the error says which).
  apply(frame: v5.Frame): ApplyError | null {
    const keyframe = (frame.flags & v5.FrameFlags.Keyframe) !== 0;
    if (!this.started && (!keyframe || frame.baseTick !== 0)) return 'FirstNotKeyframe';
    if (this.started && frame.baseTick !== this.tick) return 'BrokenChain';
    const bad =
      sectionError(frame.leaves) ?? sectionError(frame.enters.map((e) => e.slot)) ?? sectionError(frame.updates.map((u) => u.slot));
    if (bad) return bad;
    const next = keyframe ? new Map<number, Replicated>() : new Map(this.slots);
    for (const slot of frame.leaves) if (!next.delete(slot)) return 'UnknownSlot';
    for (const e of frame.enters) {
      if (next.has(e.slot)) return 'SlotTaken';
      next.set(e.slot, { slot: e.slot, id: e.id, qx: e.qx, qy: e.qy, colour: e.colour });
    }
    for (const u of frame.updates) {
      const old = next.get(u.slot);
      if (!old) return 'UnknownSlot';
      const v = { ...old };
      if (u.form === v5.Form.Fields) {
        if (u.fields & v5.Fields.Qx) v.qx = u.qx;
        if (u.fields & v5.Fields.Qy) v.qy = u.qy;
        if (u.fields & v5.Fields.Colour) v.colour = u.colour;
      } else {
        v.qx += u.dx;
        v.qy += u.dy;
        if (v.qx < 0 || v.qx > MAX_QUANTUM || v.qy < 0 || v.qy > MAX_QUANTUM) return 'QuantumOutOfRange';
      }
      next.set(u.slot, v);
    }
    this.slots = next;
    if (frame.flags & v5.FrameFlags.FarGrid) {
      this.far = frame.far;
      this.farCols = frame.farCols;
      this.farRows = frame.farRows;
    }
    this.tick = frame.tick;
    this.started = true;
    return null;
  }
}
