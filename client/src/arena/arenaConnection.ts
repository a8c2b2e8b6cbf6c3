// What the two arena protocols (v1 in arenaSession.ts, v5 in v5Session.ts) do alike on the game
// socket: reconnect with backoff; on every (re)connection say Hello with the player's name and start
// pinging; report the connection and each round trip; number the inputs; run the input timer; and
// forget the world whenever the socket is not open. What each does with the world is its own.
import type { Decoded, Unknown } from '../net/codec';
import { Pinger } from '../net/pinger';
import { ReconnectingSocket, gameSocketUrl } from '../net/reconnectingSocket';
import type { ConnectionState } from '../net/reconnectingSocket';
import type { NamedHello, Ping, Pong } from '../net/sharedMessages';

export const TRY_AGAIN_LATER_CLOSE_CODE = 1013;
// 1013's reasons (docs/protocol.md): the arena's own ("arena is full") and the server's ("server is
// busy", "the server is behind"); a page says which, since only the first is about the arena.
// The server's side of it: protocol::kArenaFullReason (src/protocol/close_codes.hpp).
export const ARENA_FULL_CLOSE_REASON = 'arena is full';

export type WaitNotice = 'arenaFull' | 'serverBusy';

// What a page tells a player while it waits to reconnect: nothing for an ordinary drop.
export function waitNotice(state: ConnectionState): WaitNotice | null {
  if (state.phase !== 'waiting' || state.closeCode !== TRY_AGAIN_LATER_CLOSE_CODE) return null;
  return state.closeReason === ARENA_FULL_CLOSE_REASON ? 'arenaFull' : 'serverBusy';
}
export const MAX_SEQUENCE = 0xffffffff; // the u32 on the wire; the next one after it is 1

export interface ConnectionEvents {
  onConnection(state: ConnectionState): void;
  onPing(rttMs: number): void;
}

// The part of a protocol module (v1, v5) the connection speaks itself.
export interface ArenaCodec<Client, Server> {
  readonly VERSION: number;
  encodeClient(message: Client | NamedHello | Ping): Uint8Array;
  decodeServer(frame: Uint8Array): Decoded<Server | Pong | Unknown>;
}

// The server's messages a protocol handles itself: all but Pong (answered here) and unknown ids.
export type WorldMessage<Server> = Exclude<Server, Pong | Unknown>;

const isPong = (message: { type: string }): message is Pong => message.type === 'Pong';

export abstract class ArenaConnection<Client extends { type: string }, Server extends { type: string }, Events extends ConnectionEvents> {
  sequence = 0; // keeps increasing across reconnects, so no input is ever mistaken for an older one
  private readonly socket: ReconnectingSocket;
  private readonly pinger: Pinger;
  private inputTimer: ReturnType<typeof setInterval> | null = null;

  protected constructor(
    private readonly codec: ArenaCodec<Client, Server>,
    private readonly name: string,
    protected readonly buttons: () => number, // the button mask held now
    protected readonly events: Events,
    protected readonly now: () => number = () => performance.now(), // a clock the tests can drive
  ) {
    this.pinger = new Pinger((clientTimeMs) => this.send({ type: 'Ping', clientTimeMs }));
    this.socket = new ReconnectingSocket(gameSocketUrl(), {
      onOpen: (send) => {
        send(this.codec.encodeClient({ type: 'Hello', version: this.codec.VERSION, name: this.name }));
        this.pinger.start();
        this.onOpened();
      },
      onFrame: (frame) => this.onFrame(frame),
      onState: (state) => {
        if (state.phase !== 'open') {
          this.stopInputTimer();
          this.pinger.stop();
          this.forget();
        }
        this.events.onConnection(state);
      },
    });
  }

  start(): void {
    this.socket.start();
  }

  stop(): void {
    this.stopInputTimer();
    this.pinger.stop();
    this.socket.stop();
  }

  retryNow(): void {
    this.socket.retryNow();
  }

  // After Hello and the first Ping went out on a new connection.
  protected onOpened(): void {}

  // The socket is not open any more (dropped, waiting or stopped): nothing known about the world holds.
  protected abstract forget(): void;

  protected abstract onMessage(message: WorldMessage<Server>): void;

  protected send(message: Client | NamedHello | Ping): void {
    this.socket.send(this.codec.encodeClient(message));
  }

  protected nextSequence(): number {
    this.sequence = this.sequence >= MAX_SEQUENCE ? 1 : this.sequence + 1;
    return this.sequence;
  }

  // One repeating timer for the inputs, stopped with the connection.
  protected startInputTimer(intervalMs: number, tick: () => void): void {
    this.stopInputTimer();
    this.inputTimer = setInterval(tick, intervalMs);
  }

  protected stopInputTimer(): void {
    if (this.inputTimer !== null) clearInterval(this.inputTimer);
    this.inputTimer = null;
  }

  // A new connection at once (e.g. for a keyframe); its 'connecting' state forgets the world as a drop does.
  protected redial(): void {
    this.socket.reconnectTo(gameSocketUrl());
  }

  private onFrame(frame: Uint8Array): void {
    const decoded = this.codec.decodeServer(frame);
    if (!decoded.ok) return; // the server never sends malformed frames; ignore rather than crash
    const message = decoded.message;
    if (message.type === 'Unknown') return;
    if (isPong(message)) this.events.onPing(this.pinger.onPong(message.clientTimeMs));
    else this.onMessage(message as WorldMessage<Server>);
  }
}
