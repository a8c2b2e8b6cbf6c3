import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { v1 } from '../net/protocol';
import { decodedSent, lastFakeSocket as fake, restoreSockets, useFakeSockets } from '../net/fakeWebSocket.testing';
import { ArenaSession, INPUT_INTERVAL_MS } from './arenaSession';

const welcome: v1.Welcome = { type: 'Welcome', version: 1, playerId: 7, tickRate: 20, worldWidth: 1600, worldHeight: 900 };
const snapshot = (tick: number, x: number): v1.Snapshot => ({
  type: 'Snapshot',
  tick,
  entities: [{ id: 7, kind: 1, x, y: 100, radius: 16, colour: 0xff0000 }],
});

describe('ArenaSession', () => {
  let now: number;
  let buttons: number;
  let session: ArenaSession;
  let welcomes: v1.Welcome[];

  beforeEach(() => {
    useFakeSockets({ protocol: 'https:', host: 'game.example' });
    now = 0;
    buttons = 0;
    welcomes = [];
    session = new ArenaSession('Ann', () => buttons, { onConnection: () => {}, onWelcome: (w) => welcomes.push(w), onPing: () => {} }, () => now);
    session.start();
  });

  afterEach(() => {
    session.stop();
    restoreSockets();
  });

  const sent = () => decodedSent(fake(), v1.decodeClient);

  it('uses wss behind https and says Hello with its name', () => {
    expect(fake().url).toBe('wss://game.example/ws/game');
    fake().accept();
    expect(sent()[0]).toEqual({ type: 'Hello', version: 1, name: 'Ann' });
  });

  it('sends the held buttons about 30 times a second with an increasing sequence after Welcome', () => {
    fake().accept();
    vi.advanceTimersByTime(INPUT_INTERVAL_MS * 3);
    expect(sent().filter((m) => m.type === 'Input')).toHaveLength(0); // not before Welcome
    fake().deliver(v1.encodeServer(welcome));
    expect(welcomes).toEqual([welcome]);
    buttons = v1.Buttons.Right;
    vi.advanceTimersByTime(1000);
    const inputs = sent().filter((m): m is v1.Input => m.type === 'Input');
    expect(inputs.length).toBeGreaterThanOrEqual(29);
    expect(inputs.length).toBeLessThanOrEqual(31);
    expect(inputs.every((input, i) => i === 0 || input.sequence > inputs[i - 1]!.sequence)).toBe(true);
    expect(inputs.every((input) => input.buttons === v1.Buttons.Right)).toBe(true);
  });

  it('keeps the sequence increasing across a reconnect', () => {
    fake().accept();
    fake().deliver(v1.encodeServer(welcome));
    vi.advanceTimersByTime(INPUT_INTERVAL_MS * 5);
    const before = session.sequence;
    fake().drop();
    vi.advanceTimersByTime(1000);
    fake().accept();
    fake().deliver(v1.encodeServer(welcome));
    vi.advanceTimersByTime(INPUT_INTERVAL_MS * 2);
    const inputs = sent().filter((m): m is v1.Input => m.type === 'Input');
    expect(inputs[0]!.sequence).toBeGreaterThan(before);
  });

  it('times snapshots by tick and interpolates between them', () => {
    fake().accept();
    fake().deliver(v1.encodeServer(welcome));
    now = 1000;
    fake().deliver(v1.encodeServer(snapshot(100, 0)));
    now = 1070; // 20 ms late on the wire
    fake().deliver(v1.encodeServer(snapshot(101, 10)));
    expect(session.buffer.sample(1025)[0]!.x).toBeCloseTo(5);
  });

  it('forgets the world when the connection drops', () => {
    fake().accept();
    fake().deliver(v1.encodeServer(welcome));
    fake().deliver(v1.encodeServer(snapshot(1, 0)));
    fake().drop();
    expect(session.welcome).toBeNull();
    expect(session.buffer.size).toBe(0);
  });
});
