// A v1 arena session: Input at ~30 Hz once Welcome has come, snapshots into the interpolation
// buffer. The socket, Hello and pings are the arena connection's (arenaConnection.ts).
import { v1 } from '../net/protocol';
import { ArenaConnection } from './arenaConnection';
import type { ConnectionEvents, WorldMessage } from './arenaConnection';
import { SnapshotBuffer } from './snapshotBuffer';
import { TickClock } from './tickClock';

export const INPUT_INTERVAL_MS = Math.round(1000 / 30);

export interface ArenaEvents extends ConnectionEvents {
  onWelcome(welcome: v1.Welcome): void;
}

export class ArenaSession extends ArenaConnection<v1.ClientMessage, v1.ServerMessage, ArenaEvents> {
  readonly buffer = new SnapshotBuffer();
  welcome: v1.Welcome | null = null;
  private tickClock: TickClock | null = null;

  constructor(name: string, buttons: () => number, events: ArenaEvents, now?: () => number) {
    super(v1, name, buttons, events, now);
  }

  // The held buttons go out from the first moment of each connection, once Welcome has come.
  protected override onOpened(): void {
    this.startInputTimer(INPUT_INTERVAL_MS, () => {
      if (!this.welcome) return;
      this.send({ type: 'Input', sequence: this.nextSequence(), buttons: this.buttons() });
    });
  }

  protected override forget(): void {
    this.welcome = null;
    this.tickClock = null;
    this.buffer.clear();
  }

  protected override onMessage(message: WorldMessage<v1.ServerMessage>): void {
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
    }
  }
}
