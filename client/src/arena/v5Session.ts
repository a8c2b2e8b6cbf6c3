// A v5 arena session: one Input per tick (each also predicted locally), Frames into the replica and
// the interpolation buffer, the own avatar predicted and reconciled with ackSeq. The socket, Hello
// and pings are the arena connection's (arenaConnection.ts).
import { v1, v5 } from '../net/protocol';
import { ArenaConnection } from './arenaConnection';
import type { ConnectionEvents, WorldMessage } from './arenaConnection';
import { SnapshotBuffer } from './snapshotBuffer';
import { TickClock } from './tickClock';
import { stepAvatar } from './v5Physics';
import type { AvatarRules, Circle, Point } from './v5Physics';
import { Replica } from './v5Replica';

export const MAX_PENDING_COMMANDS = 64; // a server that never acknowledges cannot grow this forever
export const CORRECTION_HALF_LIFE_MS = 60; // a mispredicted avatar glides to the server's answer
export const MAX_CATCH_UP_COMMANDS = 5; // ticks a late timer or frame makes up for at once
export const TARGET_SERVER_QUEUE = 1; // commands waiting on the server: more is latency for everyone else

export interface V5Events extends ConnectionEvents {
  onWelcome(welcome: v5.Welcome, world: v5.StaticWorld): void;
}

interface Command {
  seq: number;
  mask: number;
}

export class V5Session extends ArenaConnection<v5.ClientMessage, v5.ServerMessage, V5Events> {
  readonly buffer = new SnapshotBuffer(); // the other players, as positions in world units
  readonly replica = new Replica();
  welcome: v5.Welcome | null = null;
  world: v5.StaticWorld | null = null;
  obstacles: Circle[] = [];
  ackSeq = 0;
  corrections = 0; // Frames whose replay disagreed with the prediction
  private rules: AvatarRules | null = null;
  private pending: Command[] = [];
  private predicted: Point | null = null; // after the last command issued
  private previous: Point | null = null; // before it
  private commandAt = 0;
  private earlyAt = -Infinity; // when a key change last sent its command within half a tick of the one before
  private serverQueue = 0; // inputQueue of the last Frame, until a pump acts on it
  private error: Point = { x: 0, y: 0 }; // decaying offset after a correction
  private errorAt = 0;
  private tickClock: TickClock | null = null;

  constructor(name: string, buttons: () => number, events: V5Events, now?: () => number) {
    super(v5, name, buttons, events, now);
  }

  get tickMs(): number {
    return 1000 / Math.max(1, this.welcome?.tickRate ?? 20);
  }

  // A key went down or up: its command goes now (not at the next tick), so the avatar answers on
  // the next frame. Without flooding the FIFO: when the last command is less than half a tick old,
  // only one such early command per tick; a further change waits for the tick.
  inputChanged(): void {
    if (!this.rules || !this.predicted) return;
    const now = this.now();
    if (now - this.commandAt < this.tickMs / 2) {
      if (now - this.earlyAt < this.tickMs) return;
      this.earlyAt = now;
    }
    this.issue(now);
    this.startTicks();
  }

  // One command per tick since the last: called by the timer and by every drawn frame, so a page
  // whose timers run late (a busy or throttled tab) still sends one command for each tick it lived.
  pump(): void {
    if (!this.rules || !this.predicted) return;
    const now = this.now();
    let due = Math.floor((now - this.commandAt) / this.tickMs);
    if (due > 0 && this.serverQueue > TARGET_SERVER_QUEUE) {
      // The server holds more than it needs (a burst after a late frame): sit one tick out.
      this.commandAt += this.tickMs;
      this.serverQueue = 0;
      due--;
    }
    for (let i = 0; i < Math.min(due, MAX_CATCH_UP_COMMANDS); i++) this.issue(this.commandAt + this.tickMs);
    if (due > MAX_CATCH_UP_COMMANDS) this.commandAt = now; // a long sleep is not replayed
  }

  // Where to draw the own avatar now: between the last two predicted steps, plus what is left of
  // a correction. Null before Welcome and StaticWorld.
  ownPosition(at: number = this.now()): Point | null {
    if (!this.predicted || !this.previous) return null;
    const fraction = Math.min(1, Math.max(0, (at - this.commandAt) / this.tickMs));
    const decay = Math.pow(0.5, Math.max(0, at - this.errorAt) / CORRECTION_HALF_LIFE_MS);
    return {
      x: this.previous.x + (this.predicted.x - this.previous.x) * fraction + this.error.x * decay,
      y: this.previous.y + (this.predicted.y - this.previous.y) * fraction + this.error.y * decay,
    };
  }

  // The exact predicted position after the last command (tests compare it with the server's).
  predictedPosition(): Point | null {
    return this.predicted;
  }

  // Quantised replica values back in world units.
  toWorld(q: number): number {
    return q * Math.pow(2, this.welcome?.quantumExp ?? 0);
  }

  protected override forget(): void {
    this.welcome = null;
    this.world = null;
    this.rules = null;
    this.tickClock = null;
    this.predicted = this.previous = null;
    this.pending = [];
    this.replica.reset();
    this.buffer.clear();
  }

  private issue(at: number): void {
    if (!this.rules || !this.predicted) return;
    const command = { seq: this.nextSequence(), mask: this.buttons() & 0x0f };
    this.send({ type: 'Input', seq: command.seq, mask: command.mask });
    this.pending.push(command);
    if (this.pending.length > MAX_PENDING_COMMANDS) this.pending.shift();
    this.previous = this.ownPosition(at) ?? this.predicted;
    this.error = { x: 0, y: 0 }; // folded into `previous`
    this.predicted = stepAvatar(this.predicted, command.mask, this.rules, this.obstacles);
    this.commandAt = at;
  }

  private startTicks(): void {
    this.startInputTimer(this.tickMs, () => this.pump());
  }

  protected override onMessage(message: WorldMessage<v5.ServerMessage>): void {
    switch (message.type) {
      case 'Welcome':
        this.welcome = message;
        this.tickClock = new TickClock(this.tickMs);
        this.rules = {
          width: message.width, height: message.height, playerSpeed: message.playerSpeed,
          playerRadius: message.playerRadius, tickRate: message.tickRate,
        };
        break;
      case 'StaticWorld':
        this.world = message;
        this.obstacles = message.obstacles.map((o) => ({ x: o.x, y: o.y, radius: o.radius }));
        break;
      case 'Frame':
        this.onDelta(message);
        break;
    }
  }

  private onDelta(frame: v5.Frame): void {
    if (!this.welcome || !this.world || !this.rules) return;
    if (this.replica.apply(frame) !== null) {
      // A broken chain cannot be repaired in place: a new connection starts with a keyframe.
      this.redial();
      return;
    }
    const first = this.predicted === null;
    this.reconcile(frame);
    if (first) {
      this.commandAt = this.now();
      this.events.onWelcome(this.welcome, this.world);
      this.startTicks();
    }
    if (!this.tickClock) return;
    const others: v1.EntityState[] = [];
    for (const e of this.replica.entries()) {
      if (e.slot === this.welcome.selfSlot) continue;
      others.push({ id: e.id, kind: v1.EntityKind.Player, x: this.toWorld(e.qx), y: this.toWorld(e.qy), radius: this.rules.playerRadius, colour: e.colour });
    }
    this.buffer.push(this.tickClock.localTime(frame.tick, this.now()), others);
  }

  // From the server's exact position after ackSeq, replay what it has not applied yet.
  private reconcile(frame: v5.Frame): void {
    this.ackSeq = frame.ackSeq;
    this.serverQueue = frame.inputQueue;
    this.pending = this.pending.filter((c) => c.seq > frame.ackSeq);
    let at: Point = { x: frame.selfX, y: frame.selfY };
    let before = at;
    for (const command of this.pending) {
      before = at;
      at = stepAvatar(at, command.mask, this.rules!, this.obstacles);
    }
    if (!this.predicted || !this.previous) {
      this.predicted = this.previous = at;
      return;
    }
    if (at.x === this.predicted.x && at.y === this.predicted.y) return;
    // A misprediction (the server stepped a mask again while its FIFO was empty): jump the
    // prediction, keep the drawn avatar where it was and let the difference decay.
    const drawn = this.ownPosition()!;
    this.corrections++;
    this.predicted = at;
    this.previous = this.pending.length > 0 ? before : at;
    this.error = { x: 0, y: 0 };
    const fresh = this.ownPosition()!;
    this.error = { x: drawn.x - fresh.x, y: drawn.y - fresh.y };
    this.errorAt = this.now();
  }
}
