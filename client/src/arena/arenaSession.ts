// A v1 arena connection: Hello with a name, Input at ~30 Hz, snapshots into the buffer, pings.
import { v1 } from '../net/protocol';
import { Pinger } from '../net/pinger';
import { ReconnectingSocket, gameSocketUrl } from '../net/reconnectingSocket';
import type { ConnectionState } from '../net/reconnectingSocket';
import { SnapshotBuffer } from './snapshotBuffer';
import { TickClock } from './tickClock';

export const INPUT_INTERVAL_MS = Math.round(1000 / 30);
export const ARENA_FULL_CLOSE_CODE = 1013;
const MAX_SEQUENCE = 0xffffffff;

export interface ArenaEvents {
  onConnection(state: ConnectionState): void;
  onWelcome(welcome: v1.Welcome): void;
  onPing(rttMs: number): void;
}

export class ArenaSession {
  readonly buffer = new SnapshotBuffer();
  welcome: v1.Welcome | null = null;
  sequence = 0; // keeps increasing across reconnects, so no input is ever mistaken for an older one
  private tickClock: TickClock | null = null;
  private inputTimer: ReturnType<typeof setInterval> | null = null;
  private readonly socket: ReconnectingSocket;
  private readonly pinger: Pinger;

  constructor(
    private readonly name: string,
    private readonly buttons: () => number,
    private readonly events: ArenaEvents,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.pinger = new Pinger((clientTimeMs) => this.send({ type: 'Ping', clientTimeMs }));
    this.socket = new ReconnectingSocket(gameSocketUrl(), {
      onOpen: (send) => {
        send(v1.encodeClient({ type: 'Hello', version: v1.VERSION, name: this.name }));
        this.pinger.start();
        this.startInput();
      },
      onFrame: (frame) => this.onFrame(frame),
      onState: (state) => {
        if (state.phase !== 'open') {
          this.stopInput();
          this.pinger.stop();
          this.welcome = null;
          this.tickClock = null;
          this.buffer.clear();
        }
        this.events.onConnection(state);
      },
    });
  }

  start(): void {
    this.socket.start();
  }

  stop(): void {
    this.stopInput();
    this.pinger.stop();
    this.socket.stop();
  }

  retryNow(): void {
    this.socket.retryNow();
  }

  private startInput(): void {
    this.stopInput();
    this.inputTimer = setInterval(() => {
      if (!this.welcome) return;
      this.sequence = this.sequence >= MAX_SEQUENCE ? 1 : this.sequence + 1;
      this.send({ type: 'Input', sequence: this.sequence, buttons: this.buttons() });
    }, INPUT_INTERVAL_MS);
  }

  private stopInput(): void {
    if (this.inputTimer !== null) clearInterval(this.inputTimer);
    this.inputTimer = null;
  }

  private send(message: v1.ClientMessage): void {
    this.socket.send(v1.encodeClient(message));
  }

  private onFrame(frame: Uint8Array): void {
    const decoded = v1.decodeServer(frame);
    if (!decoded.ok) return; // the server never sends malformed frames; ignore rather than crash
    const message = decoded.message;
    switch (message.type) {
      case 'Welcome':
        this.welcome = message;
        this.tickClock = new TickClock(1000 / Math.max(1, message.tickRate));
        this.buffer.clear();
        this.events.onWelcome(message);
        break;
      case 'Snapshot':
        if (this.tickClock) this.buffer.push(this.tickClock.localTime(message.tick, this.now()), message.entities);
        break;
      case 'Pong':
        this.events.onPing(this.pinger.onPong(message.clientTimeMs));
        break;
      case 'Unknown':
        break;
    }
  }
}
