// A v4 connection watching one school: Hello and OpenSchool on every (re)connect, then the
// clock, the map snapshot and SchoolGone. The view reads state only from what the server sent.
import { v4 } from '../net/protocol';
import { Pinger } from '../net/pinger';
import { ReconnectingSocket, gameSocketUrl } from '../net/reconnectingSocket';
import type { ConnectionState } from '../net/reconnectingSocket';

export interface SchoolSessionState {
  connection: ConnectionState;
  clock: v4.Clock | null; // the latest from the server, null until one arrives on this connection
  map: v4.MapNode[] | null;
  rttMs: number | null;
}

export interface SchoolSessionEvents {
  onChange(state: SchoolSessionState): void;
  onGone(schoolId: number): void;
}

export class SchoolSession {
  private readonly socket: ReconnectingSocket;
  private readonly pinger: Pinger;
  private state: SchoolSessionState = { connection: { phase: 'connecting', attempt: 1 }, clock: null, map: null, rttMs: null };

  constructor(
    readonly schoolId: number,
    private readonly locale: number,
    private readonly events: SchoolSessionEvents,
    url: string = gameSocketUrl(),
  ) {
    this.pinger = new Pinger((clientTimeMs) => this.send({ type: 'Ping', clientTimeMs }));
    this.socket = new ReconnectingSocket(url, {
      onOpen: (send) => {
        send(v4.encodeClient({ type: 'Hello', version: v4.VERSION, locale: this.locale }));
        send(v4.encodeClient({ type: 'OpenSchool', schoolId: this.schoolId }));
        this.pinger.start();
      },
      onFrame: (frame) => this.onFrame(frame),
      onState: (connection) => {
        if (connection.phase !== 'open') {
          this.pinger.stop();
          // A clock from a dead connection is stale: controls wait for a fresh one.
          this.update({ connection, clock: null });
        } else {
          this.update({ connection });
        }
      },
    });
  }

  start(): void {
    this.socket.start();
  }

  stop(): void {
    this.pinger.stop();
    this.socket.stop(v4.encodeClient({ type: 'CloseSchool' }));
  }

  retryNow(): void {
    this.socket.retryNow();
  }

  // Dials another URL at once (the owner tokens it carries changed), the first connection too: the
  // server grants control at the upgrade, so a new credential needs a new socket. The school is
  // opened again on it; until its first Clock the controls wait, as after any reconnect.
  reconnectTo(url: string): void {
    this.pinger.stop();
    this.socket.reconnectTo(url);
  }

  setRunning(running: boolean): void {
    this.send({ type: 'SetRunning', running: running ? 1 : 0 });
  }

  setSpeed(speedIndex: number): void {
    this.send({ type: 'SetSpeed', speedIndex });
  }

  current(): SchoolSessionState {
    return this.state;
  }

  private send(message: v4.ClientMessage): void {
    this.socket.send(v4.encodeClient(message));
  }

  private onFrame(frame: Uint8Array): void {
    const decoded = v4.decodeServer(frame);
    if (!decoded.ok) return; // the server never sends malformed frames; ignore rather than crash
    const message = decoded.message;
    switch (message.type) {
      case 'Clock':
        if (message.schoolId === this.schoolId) this.update({ clock: message });
        break;
      case 'MapSnapshot':
        if (message.schoolId === this.schoolId) this.update({ map: message.nodes });
        break;
      case 'SchoolGone':
        if (message.schoolId === this.schoolId) {
          this.stop();
          this.events.onGone(message.schoolId);
        }
        break;
      case 'Pong':
        this.update({ rttMs: this.pinger.onPong(message.clientTimeMs) });
        break;
      case 'Welcome':
      case 'Unknown':
        break;
    }
  }

  private update(patch: Partial<SchoolSessionState>): void {
    this.state = { ...this.state, ...patch };
    this.events.onChange(this.state);
  }
}
