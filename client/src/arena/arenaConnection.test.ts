import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { v1 } from '../net/protocol';
import { decodedSent, lastFakeSocket as fake, restoreSockets, useFakeSockets } from '../net/fakeWebSocket.testing';
import type { ConnectionState } from '../net/reconnectingSocket';
import { ARENA_FULL_CLOSE_REASON, ArenaConnection, MAX_SEQUENCE, TRY_AGAIN_LATER_CLOSE_CODE, waitNotice } from './arenaConnection';
import type { ConnectionEvents, WorldMessage } from './arenaConnection';

const INPUT_MS = 50;
const welcome: v1.Welcome = { type: 'Welcome', version: 1, playerId: 7, tickRate: 20, worldWidth: 1600, worldHeight: 900 };

// The smallest protocol on the base: it records what the base hands it and sends one Input a tick.
class RecordingConnection extends ArenaConnection<v1.ClientMessage, v1.ServerMessage, ConnectionEvents> {
  readonly log: string[] = [];
  readonly messages: Array<WorldMessage<v1.ServerMessage>> = [];

  constructor(events: ConnectionEvents) {
    super(v1, 'Ann', () => 0, events);
  }

  takeSequence(): number {
    return this.nextSequence();
  }

  protected override onOpened(): void {
    this.log.push('opened');
    this.startInputTimer(INPUT_MS, () => this.send({ type: 'Input', sequence: this.nextSequence(), buttons: this.buttons() }));
  }

  protected override forget(): void {
    this.log.push('forget');
  }

  protected override onMessage(message: WorldMessage<v1.ServerMessage>): void {
    this.messages.push(message);
  }
}

describe('ArenaConnection', () => {
  let connection: RecordingConnection;
  let states: string[];
  let seen: ConnectionState[];
  let rtts: number[];

  beforeEach(() => {
    useFakeSockets({ protocol: 'http:', host: 'game.example' });
    states = [];
    seen = [];
    rtts = [];
    connection = new RecordingConnection({
      onConnection: (state) => {
        states.push(state.phase);
        seen.push(state);
        connection.log.push(`state ${state.phase}`);
      },
      onPing: (rtt) => rtts.push(rtt),
    });
    connection.start();
  });

  afterEach(() => {
    connection.stop();
    restoreSockets();
  });

  const sent = () => decodedSent(fake(), v1.decodeClient);

  it('says Hello with its version and name, then pings, on every connection', () => {
    fake().accept();
    expect(sent().slice(0, 2)).toStrictEqual([
      { type: 'Hello', version: v1.VERSION, name: 'Ann' },
      { type: 'Ping', clientTimeMs: Date.now() },
    ]);
    expect(connection.log.at(-1)).toBe('opened');
    fake().drop();
    vi.advanceTimersByTime(1000);
    fake().accept();
    expect(sent()[0]).toStrictEqual({ type: 'Hello', version: v1.VERSION, name: 'Ann' });
  });

  it('answers Pong itself and hands every other known message on', () => {
    fake().accept();
    const [ping] = sent().filter((m): m is v1.Ping => m.type === 'Ping');
    vi.advanceTimersByTime(30);
    fake().deliver(v1.encodeServer({ type: 'Pong', clientTimeMs: ping!.clientTimeMs, serverTick: 1 }));
    fake().deliver(v1.encodeServer(welcome));
    fake().deliver(new Uint8Array([0x7f])); // an id v1 does not know
    fake().deliver(new Uint8Array([v1.Id.Welcome, 1])); // truncated
    expect(rtts).toStrictEqual([30]);
    expect(connection.messages).toStrictEqual([welcome]);
  });

  it('stops its timers and forgets the world before it reports a drop', () => {
    fake().accept();
    fake().drop();
    expect(connection.log.slice(-2)).toStrictEqual(['forget', 'state waiting']);
    expect(vi.getTimerCount()).toBe(1); // the retry only: no Ping, no Input timer
  });

  it('numbers inputs across reconnects and wraps past the u32 to 1', () => {
    fake().accept();
    vi.advanceTimersByTime(INPUT_MS * 3);
    expect(connection.sequence).toBe(3);
    fake().drop();
    vi.advanceTimersByTime(1000);
    fake().accept();
    vi.advanceTimersByTime(INPUT_MS);
    expect(sent().filter((m): m is v1.Input => m.type === 'Input').map((m) => m.sequence)).toStrictEqual([4]);
    connection.sequence = MAX_SEQUENCE;
    expect(connection.takeSequence()).toBe(1);
  });

  it('stops for good: closed, forgotten, no timer left', () => {
    fake().accept();
    connection.stop();
    expect(states.at(-1)).toBe('closed');
    expect(connection.log.slice(-2)).toStrictEqual(['forget', 'state closed']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells a full arena from a busy server by 1013\'s reason, and says nothing for other drops', () => {
    const noticeAfter = (code: number, reason: string) => {
      fake().accept();
      fake().drop(code, reason);
      const state = seen.at(-1)!;
      vi.advanceTimersByTime(60_000); // the retry: a new socket for the next case
      return { state, notice: waitNotice(state) };
    };
    const full = noticeAfter(TRY_AGAIN_LATER_CLOSE_CODE, ARENA_FULL_CLOSE_REASON);
    expect(full.state).toMatchObject({ phase: 'waiting', closeCode: 1013, closeReason: 'arena is full' });
    expect(full.notice).toBe('arenaFull');
    expect(noticeAfter(TRY_AGAIN_LATER_CLOSE_CODE, 'the server is behind').notice).toBe('serverBusy');
    expect(noticeAfter(TRY_AGAIN_LATER_CLOSE_CODE, 'server is busy').notice).toBe('serverBusy');
    expect(noticeAfter(TRY_AGAIN_LATER_CLOSE_CODE, '').notice).toBe('serverBusy');
    expect(noticeAfter(1006, '').notice).toBeNull();
    expect(noticeAfter(1011, ARENA_FULL_CLOSE_REASON).notice).toBeNull();
    expect(waitNotice({ phase: 'open' })).toBeNull();
  });
});
