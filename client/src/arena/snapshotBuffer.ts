// Snapshots kept with their (local) times; the view samples ~100 ms in the past and interpolates
// between the two snapshots that straddle that time, turning 20 Hz ticks into smooth motion.
import type { v1 } from '../net/protocol';

export const INTERPOLATION_DELAY_MS = 100;
export const SNAPSHOT_CAPACITY = 32; // 1.6 s at 20 Hz: far more than the delay needs

export interface TimedSnapshot {
  time: number;
  entities: v1.EntityState[];
}

export class SnapshotBuffer {
  private readonly snapshots: TimedSnapshot[] = [];

  constructor(private readonly capacity: number = SNAPSHOT_CAPACITY) {}

  get size(): number {
    return this.snapshots.length;
  }

  // Out-of-order or duplicate times are dropped: a late snapshot is never worth going back for.
  push(time: number, entities: v1.EntityState[]): void {
    const last = this.snapshots.at(-1);
    if (last && time <= last.time) return;
    this.snapshots.push({ time, entities });
    if (this.snapshots.length > this.capacity) this.snapshots.shift();
  }

  clear(): void {
    this.snapshots.length = 0;
  }

  // Entities as they were at renderTime; before the first or after the last snapshot it holds
  // the nearest one rather than extrapolating.
  sample(renderTime: number): v1.EntityState[] {
    const snapshots = this.snapshots;
    if (snapshots.length === 0) return [];
    const first = snapshots[0]!;
    const last = snapshots.at(-1)!;
    if (renderTime <= first.time) return first.entities;
    if (renderTime >= last.time) return last.entities;
    let later = 1;
    while (snapshots[later]!.time < renderTime) later++;
    const from = snapshots[later - 1]!;
    const to = snapshots[later]!;
    const fraction = (renderTime - from.time) / (to.time - from.time);
    return interpolate(from.entities, to.entities, fraction);
  }
}

// Membership comes from the later snapshot: whoever left it is gone, newcomers appear in place.
function interpolate(from: v1.EntityState[], to: v1.EntityState[], fraction: number): v1.EntityState[] {
  const previous = new Map(from.map((entity) => [entity.id, entity]));
  return to.map((entity) => {
    const before = previous.get(entity.id);
    if (!before) return entity;
    return {
      ...entity,
      x: before.x + (entity.x - before.x) * fraction,
      y: before.y + (entity.y - before.y) * fraction,
      radius: before.radius + (entity.radius - before.radius) * fraction,
    };
  });
}
