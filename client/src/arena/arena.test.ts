import { describe, expect, it } from 'vitest';
import { HeldKeys } from './keyboard';
import { letterbox } from './letterbox';
import { SnapshotBuffer } from './snapshotBuffer';
import { TickClock } from './tickClock';
import { WorldRenderer, entityLabel } from './worldRenderer';
import type { EntitySprite } from './worldRenderer';
import type { v1 } from '../net/protocol';

const entity = (id: number, x: number, y: number, radius = 16): v1.EntityState => ({ id, kind: 1, x, y, radius, colour: 0xff0000 });

describe('SnapshotBuffer', () => {
  it('interpolates between the two snapshots that straddle the render time', () => {
    const buffer = new SnapshotBuffer();
    buffer.push(1000, [entity(1, 0, 100)]);
    buffer.push(1050, [entity(1, 10, 200)]);
    buffer.push(1100, [entity(1, 30, 200)]);
    expect(buffer.sample(1025)).toEqual([entity(1, 5, 150)]);
    expect(buffer.sample(1075)).toEqual([entity(1, 20, 200)]);
    expect(buffer.sample(1050)).toEqual([entity(1, 10, 200)]);
  });

  it('holds the first and last snapshot instead of extrapolating', () => {
    const buffer = new SnapshotBuffer();
    buffer.push(1000, [entity(1, 0, 0)]);
    buffer.push(1050, [entity(1, 10, 0)]);
    expect(buffer.sample(900)).toEqual([entity(1, 0, 0)]);
    expect(buffer.sample(5000)).toEqual([entity(1, 10, 0)]);
  });

  it('returns nothing before the first snapshot arrives', () => {
    expect(new SnapshotBuffer().sample(0)).toEqual([]);
  });

  it('takes membership from the later snapshot', () => {
    const buffer = new SnapshotBuffer();
    buffer.push(0, [entity(1, 0, 0), entity(2, 50, 50)]);
    buffer.push(100, [entity(1, 100, 0), entity(3, 7, 7)]);
    expect(buffer.sample(50)).toEqual([entity(1, 50, 0), entity(3, 7, 7)]);
  });

  it('drops late snapshots and keeps only its capacity', () => {
    const buffer = new SnapshotBuffer(3);
    buffer.push(100, [entity(1, 1, 0)]);
    buffer.push(90, [entity(1, 999, 0)]);
    expect(buffer.size).toBe(1);
    for (const time of [200, 300, 400]) buffer.push(time, [entity(1, time, 0)]);
    expect(buffer.size).toBe(3);
    expect(buffer.sample(0)).toEqual([entity(1, 200, 0)]);
  });
});

describe('TickClock', () => {
  it('spaces snapshot times by the tick, not by jittery arrival', () => {
    const clock = new TickClock(50);
    expect(clock.localTime(10, 1000)).toBe(1000);
    expect(clock.localTime(11, 1070)).toBe(1050); // arrived 20 ms late
    expect(clock.localTime(12, 1095)).toBe(1095); // faster path: re-anchors the offset
    expect(clock.localTime(13, 1160)).toBe(1145);
  });
});

describe('letterbox', () => {
  it('fits a wide world into a tall viewport with bars above and below', () => {
    expect(letterbox(800, 900, 1600, 900)).toEqual({ scale: 0.5, offsetX: 0, offsetY: 225 });
  });
  it('fits into a wide viewport with bars left and right', () => {
    expect(letterbox(2000, 900, 1600, 900)).toEqual({ scale: 1, offsetX: 200, offsetY: 0 });
  });
  it('does not divide by zero before the world is known', () => {
    expect(letterbox(800, 600, 0, 0)).toEqual({ scale: 1, offsetX: 0, offsetY: 0 });
  });
});

describe('WorldRenderer', () => {
  function fakeFactory() {
    const log: string[] = [];
    const live = new Map<number, { own: boolean; x: number }>();
    return {
      log,
      live,
      create(e: v1.EntityState): EntitySprite {
        log.push(`create ${e.id}`);
        return {
          update(next, isOwn) {
            live.set(next.id, { own: isOwn, x: next.x });
          },
          destroy() {
            log.push(`destroy ${e.id}`);
            live.delete(e.id);
          },
        };
      },
    };
  }

  it('creates on first sight, updates in place and destroys when an id leaves', () => {
    const factory = fakeFactory();
    const renderer = new WorldRenderer(factory);
    renderer.render([entity(1, 0, 0), entity(2, 5, 5)], 2);
    renderer.render([entity(1, 3, 0), entity(2, 6, 5)], 2);
    expect(factory.log).toEqual(['create 1', 'create 2']);
    expect(factory.live.get(1)).toEqual({ own: false, x: 3 });
    expect(factory.live.get(2)).toEqual({ own: true, x: 6 });
    renderer.render([entity(2, 7, 5)], 2);
    expect(factory.log).toEqual(['create 1', 'create 2', 'destroy 1']);
    expect(renderer.count).toBe(1);
    renderer.clear();
    expect(factory.live.size).toBe(0);
  });

  it('labels the own avatar "you" and others by id', () => {
    expect(entityLabel(entity(4, 0, 0), true, 'you')).toBe('you');
    expect(entityLabel(entity(4, 0, 0), false, 'you')).toBe('#4');
    expect(entityLabel({ ...entity(9, 0, 0), kind: 2 }, false, 'you')).toBe('');
  });
});

describe('HeldKeys', () => {
  it('combines arrows and WASD into the button mask', () => {
    const keys = new HeldKeys();
    keys.press('ArrowUp');
    keys.press('KeyD');
    expect(keys.mask()).toBe(1 | 8);
    keys.release('ArrowUp');
    expect(keys.mask()).toBe(8);
    expect(keys.press('KeyQ')).toBe(false);
    keys.releaseAll();
    expect(keys.mask()).toBe(0);
  });
});
