import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { v4 } from '../net/protocol';
import { BACKOFF_BASE_MS } from '../net/backoff';
import { FakeWebSocket, restoreSockets, useFakeSockets } from '../net/fakeWebSocket.testing';
import { SchoolSession } from './schoolSession';
import type { SchoolSessionState } from './schoolSession';

const clock = (gameTimeMs: number, running: number, speedIndex: number): v4.Clock => ({ type: 'Clock', schoolId: 3, gameTimeMs, running, speedIndex });

describe('SchoolSession', () => {
  let states: SchoolSessionState[];
  let gone: number[];
  let session: SchoolSession;

  beforeEach(() => {
    useFakeSockets({ protocol: 'http:', host: 'example.test:8080' });
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // no backoff jitter
    states = [];
    gone = [];
    session = new SchoolSession(3, 1, { onChange: (s) => states.push(s), onGone: (id) => gone.push(id) });
    session.start();
  });

  afterEach(() => {
    session.stop();
    restoreSockets();
    vi.restoreAllMocks();
  });

  const socket = (index = 0) => {
    const fake = FakeWebSocket.instances[index]!;
    return {
      url: fake.url,
      accept: () => fake.accept(),
      drop: (code?: number) => fake.drop(code),
      deliver: (message: v4.ServerMessage) => fake.deliver(v4.encodeServer(message)),
      get sent() {
        return fake.sent.map((frame) => {
          const decoded = v4.decodeClient(frame);
          if (!decoded.ok) throw new Error(`client sent a malformed frame: ${decoded.error}`);
          return decoded.message;
        });
      },
    };
  };
  const last = () => states.at(-1)!;

  it('connects to /ws/game and sends Hello then OpenSchool', () => {
    expect(socket().url).toBe('ws://example.test:8080/ws/game');
    socket().accept();
    expect(socket().sent.slice(0, 2)).toEqual([
      { type: 'Hello', version: 4, locale: 1 },
      { type: 'OpenSchool', schoolId: 3 },
    ]);
  });

  it('keeps the latest clock and map of its own school only', () => {
    socket().accept();
    socket().deliver(clock(1000, 1, 2));
    socket().deliver({ type: 'Clock', schoolId: 99, gameTimeMs: 5, running: 0, speedIndex: 0 });
    socket().deliver({ type: 'MapSnapshot', schoolId: 3, nodes: [] });
    expect(last().clock).toEqual(clock(1000, 1, 2));
    expect(last().map).toEqual([]);
  });

  it('sends running and speed as separate messages', () => {
    socket().accept();
    session.setSpeed(4);
    session.setRunning(false);
    expect(socket().sent.filter((m) => m.type === 'SetSpeed' || m.type === 'SetRunning')).toEqual([
      { type: 'SetSpeed', speedIndex: 4 },
      { type: 'SetRunning', running: 0 },
    ]);
  });

  it('forgets the clock when the connection drops and re-opens the school after the backoff', () => {
    socket().accept();
    socket().deliver(clock(1000, 1, 1));
    socket().drop();
    expect(last().clock).toBeNull();
    expect(last().connection.phase).toBe('waiting');
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(BACKOFF_BASE_MS);
    expect(FakeWebSocket.instances).toHaveLength(2);
    socket(1).drop(); // the server is still down: the next wait is longer
    vi.advanceTimersByTime(BACKOFF_BASE_MS);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(BACKOFF_BASE_MS);
    expect(FakeWebSocket.instances).toHaveLength(3);
    socket(2).accept();
    expect(socket(2).sent.slice(0, 2)).toEqual([
      { type: 'Hello', version: 4, locale: 1 },
      { type: 'OpenSchool', schoolId: 3 },
    ]);
    expect(last().connection.phase).toBe('open');
  });

  it('pings every second and measures the round trip from Pong', () => {
    socket().accept();
    const pings = () => socket().sent.filter((m) => m.type === 'Ping') as v4.Ping[];
    expect(pings()).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(pings()).toHaveLength(2);
    const echoed = pings()[1]!.clientTimeMs;
    vi.advanceTimersByTime(40);
    socket().deliver({ type: 'Pong', clientTimeMs: echoed, serverTick: 7 });
    expect(last().rttMs).toBe(40);
  });

  it('reports SchoolGone, sends CloseSchool and stops reconnecting', () => {
    socket().accept();
    socket().deliver({ type: 'SchoolGone', schoolId: 3 });
    expect(gone).toEqual([3]);
    expect(socket().sent.at(-1)).toEqual({ type: 'CloseSchool' });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('re-dials another URL at once and opens the school again on the new socket', () => {
    socket().accept();
    socket().deliver(clock(1000, 1, 1));
    const url = 'ws://example.test:8080/ws/game?ownerToken=abc';
    session.reconnectTo(url);
    expect(FakeWebSocket.instances[0]!.readyState).toBe(FakeWebSocket.CLOSED);
    expect(FakeWebSocket.instances).toHaveLength(2);
    expect(socket(1).url).toBe(url);
    expect(last().clock).toBeNull(); // the old socket's clock says nothing about the new rights
    socket(1).accept();
    expect(socket(1).sent.slice(0, 2)).toEqual([
      { type: 'Hello', version: 4, locale: 1 },
      { type: 'OpenSchool', schoolId: 3 },
    ]);
    session.setRunning(false);
    expect(socket(1).sent.at(-1)).toEqual({ type: 'SetRunning', running: 0 });
    expect(socket(0).sent.some((m) => m.type === 'SetRunning')).toBe(false);
    // A drop of the new socket comes back to the new URL.
    socket(1).drop();
    vi.advanceTimersByTime(BACKOFF_BASE_MS);
    expect(socket(2).url).toBe(url);
  });

  it('dials the URL it is given', () => {
    const other = new SchoolSession(4, 0, { onChange: () => {}, onGone: () => {} }, 'ws://example.test:8080/ws/game?ownerToken=t');
    other.start();
    expect(FakeWebSocket.instances.at(-1)!.url).toBe('ws://example.test:8080/ws/game?ownerToken=t');
    other.stop();
  });

  it('sends CloseSchool when the view leaves', () => {
    socket().accept();
    session.stop();
    expect(socket().sent.at(-1)).toEqual({ type: 'CloseSchool' });
    expect(last().connection.phase).toBe('closed');
  });
});
