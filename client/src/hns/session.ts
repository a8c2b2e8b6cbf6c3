// One hide-and-seek socket (/global, /player or /replay): reconnects with backoff like the other views,
// applies every binary message to a retained SpriteStream (Sprite v1) or CompactStream (the spectator
// pages' compact stream), and stops for good when the server says the match is over (1000), gone
// (1001) or our input was refused (1007/1008).
import { ReconnectingSocket } from '../net/reconnectingSocket';
import type { ConnectionState } from '../net/reconnectingSocket';
import { CompactStream } from '../sprite/compactStream';
import { encodeClient } from '../sprite/protocol';
import { SpriteStream } from '../sprite/stream';
import { coalesce, splitBigRedefinitions } from './coalesce';
import { concat } from '../sprite/protocol';
import { streamQuery } from './streamChoice';
import type { StreamKind } from './streamChoice';

export const CLOSE_MATCH_OVER = 1000;
export const CLOSE_MATCH_GONE = 1001;
export const CLOSE_BAD_DATA = 1007;
export const CLOSE_POLICY = 1008;

export type EndReason = 'over' | 'gone' | 'refused' | 'malformed';

// A spectator is also closed with 1008 when it falls too far behind ("client is not reading"): it
// reconnects and starts from a fresh snapshot. A seat's 1008 means its place was refused.
export function endReasonForClose(code: number, policyIsFinal = true): EndReason | null {
  switch (code) {
    case CLOSE_MATCH_OVER: return 'over';
    case CLOSE_MATCH_GONE: return 'gone';
    case CLOSE_BAD_DATA: return 'refused';
    case CLOSE_POLICY: return policyIsFinal ? 'refused' : null;
    default: return null; // 1006 and the like: the network or a restart, worth retrying
  }
}

// Messages wait for the next display frame; past these, they are applied at once (a hidden tab).
export const MAX_QUEUED_MESSAGES = 48;
export const FLUSH_FALLBACK_MS = 250;
// Redefinitions of big sprites (≥ 1 MiB RGBA: the 1364² vision cones, re-sent whenever an aim moves)
// may take this share of the main thread; in between, the latest of each waits. The tables converge
// (the last definition always lands) and nothing reads cone labels, but on a slow machine a cone can
// lag its cog by a few frames instead of the page falling behind the stream.
export const BIG_SPRITE_SHARE = 0.25;

// A hidden tab's timers are throttled, so its queue fills up without the page being behind.
const pageHidden = (): boolean => typeof document !== 'undefined' && document.visibilityState === 'hidden';

export function hnsSocketUrl(
  path: '/global' | '/player' | '/replay',
  params: Record<string, string | number>,
  location: Pick<Location, 'protocol' | 'host'> = globalThis.location,
): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return `${scheme}//${location.host}${path}?${query}`;
}

// A spectator socket (/global, /replay) asking for the stream the page reads (streamChoice.ts).
export function spectatorSocketUrl(
  path: '/global' | '/replay',
  params: Record<string, string | number>,
  kind: StreamKind,
  location: Pick<Location, 'protocol' | 'host'> = globalThis.location,
): string {
  return hnsSocketUrl(path, { ...params, ...streamQuery(kind) }, location);
}

export interface SpriteSessionEvents {
  onConnection(state: ConnectionState): void;
  // Runs on every (re)connection before anything else is sent: a seat registers here.
  onOpen?(sendText: (text: string) => void): void;
  onApplied(): void;
  onEnd(reason: EndReason, detail: string): void;
  // We cannot keep up: the server skipped frames for us (a resync), or so many messages came at once
  // that the page applied them without waiting for a display frame.
  onBehind?(): void;
}

export interface SpriteSessionOptions {
  policyIsFinal?: boolean; // false for spectators (see endReasonForClose)
  stream?: StreamKind; // how to read the socket, which the URL must have asked for; Sprite v1 by default
}

export class SpriteSession {
  readonly stream: SpriteStream | CompactStream;
  received = 0; // WebSocket messages received (applied ones are stream.messages)
  bytesReceived = 0; // their payload bytes
  applyMs = 0; // time spent decoding and applying
  private readonly socket: ReconnectingSocket;
  private ended = false;
  private queue: Uint8Array[] = [];
  private frameRequest: number | null = null;
  private fallbackTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly pendingBig = new Map<number, Uint8Array>(); // latest waiting definition per sprite id
  private nextBigAt = 0;
  private bigTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(url: string, private readonly events: SpriteSessionEvents, private readonly options: SpriteSessionOptions = {}) {
    this.stream = options.stream === 'compact' ? new CompactStream() : new SpriteStream();
    this.socket = new ReconnectingSocket(url, {
      onOpen: (send) => this.events.onOpen?.((text) => send(encodeClient({ type: 'InputText', text }))),
      onFrame: (frame) => this.onFrame(frame),
      onState: (state) => {
        if (this.ended && state.phase !== 'closed') return;
        if (state.phase === 'waiting') {
          const reason = endReasonForClose(state.closeCode, this.options.policyIsFinal ?? true);
          if (reason) {
            this.end(reason, String(state.closeCode));
            return;
          }
        }
        // A new connection starts with a snapshot header: what was queued from the old one still
        // applies first, in order.
        if (state.phase !== 'open') this.flush();
        this.events.onConnection(state);
      },
    });
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get kind(): StreamKind {
    return this.stream instanceof CompactStream ? 'compact' : 'sprite';
  }

  // The match's frames applied: Frame marks on the compact stream; on Sprite v1 each message is one.
  get frames(): number {
    return this.stream instanceof CompactStream ? this.stream.frames : this.stream.messages;
  }

  // Frames the server marked resync: it skipped frames because we could not keep up (compact only).
  get resyncs(): number {
    return this.stream instanceof CompactStream ? this.stream.resyncs : 0;
  }

  // The match tick the board shows, from the last Frame mark (Sprite v1 has none).
  get frameTick(): number | null {
    return this.stream instanceof CompactStream ? (this.stream.lastFrame?.tick ?? null) : null;
  }

  start(): void {
    this.socket.start();
  }

  stop(): void {
    this.ended = true;
    this.cancelFlush();
    this.cancelBig();
    this.queue = [];
    this.socket.stop();
  }

  retryNow(): void {
    this.socket.retryNow();
  }

  // The next connection uses `url` (e.g. /global with or without an ownerToken), starting now.
  reconnectTo(url: string): void {
    if (this.ended) return;
    this.socket.reconnectTo(url);
  }

  isOpen(): boolean {
    return this.socket.isOpen();
  }

  sendText(text: string): boolean {
    return this.socket.send(encodeClient({ type: 'InputText', text }));
  }

  sendMask(mask: number): boolean {
    return this.socket.send(encodeClient({ type: 'PlayerInput', mask }));
  }

  private onFrame(frame: Uint8Array): void {
    if (this.ended) return;
    this.received++;
    this.bytesReceived += frame.length;
    this.queue.push(frame);
    if (this.queue.length >= MAX_QUEUED_MESSAGES) {
      if (!pageHidden()) this.events.onBehind?.();
      this.flush();
    } else {
      this.scheduleFlush();
    }
  }

  // Applies everything queued, in order.
  flush(): void {
    this.cancelFlush();
    if (this.ended || this.queue.length === 0) return;
    const started = performance.now();
    const batch = this.queue;
    this.queue = [];
    const stream = this.stream;
    const applied = stream instanceof CompactStream ? this.applyCompact(stream, batch) : this.applySprite(stream, batch);
    if (!applied) return;
    this.applyMs += performance.now() - started;
    if (stream instanceof SpriteStream) this.applyBig(stream);
    this.events.onApplied();
  }

  // Compact frames go whole and in order: the server already sends a cone once and then relabels it.
  private applyCompact(stream: CompactStream, batch: readonly Uint8Array[]): boolean {
    const resyncs = stream.resyncs;
    for (const message of batch) {
      const result = stream.receive(message);
      if (!result.ok) {
        this.fail(result.error);
        return false;
      }
    }
    if (stream.resyncs > resyncs) this.events.onBehind?.();
    return true;
  }

  // Sprite v1 re-sends whole cones: superseded definitions are cut out (coalesce.ts), big ones wait.
  private applySprite(stream: SpriteStream, queued: Uint8Array[]): boolean {
    const batch = queued.length > 1 ? coalesce(queued) : queued;
    const known = (id: number) => stream.world.sprites.has(id) || this.pendingBig.has(id);
    for (const message of batch) {
      const { rest, big } = splitBigRedefinitions(message, known);
      for (const { spriteId, bytes } of big) this.pendingBig.set(spriteId, bytes);
      const result = stream.receive(rest);
      if (!result.ok) {
        this.fail(result.error);
        return false;
      }
    }
    return true;
  }

  // The waiting big definitions, all at once, when their share of the time allows.
  private applyBig(stream: SpriteStream): void {
    if (this.ended || this.pendingBig.size === 0) return;
    const now = performance.now();
    if (now < this.nextBigAt) {
      if (this.bigTimer === null) {
        this.bigTimer = setTimeout(() => {
          this.bigTimer = null;
          this.applyBig(stream);
          this.events.onApplied();
        }, this.nextBigAt - now);
      }
      return;
    }
    const message = concat([...this.pendingBig.values()]);
    this.pendingBig.clear();
    const result = stream.receive(message);
    const took = performance.now() - now;
    this.applyMs += took;
    this.nextBigAt = now + took / BIG_SPRITE_SHARE;
    if (!result.ok) this.fail(result.error);
  }

  private scheduleFlush(): void {
    if (this.frameRequest === null && typeof requestAnimationFrame === 'function') {
      this.frameRequest = requestAnimationFrame(() => {
        this.frameRequest = null;
        this.flush();
      });
    }
    // rAF does not run in a background tab; the timer keeps the tables (and the labels) current.
    if (this.fallbackTimer === null) {
      this.fallbackTimer = setTimeout(() => {
        this.fallbackTimer = null;
        this.flush();
      }, this.frameRequest === null ? 0 : FLUSH_FALLBACK_MS);
    }
  }

  private cancelBig(): void {
    if (this.bigTimer !== null) clearTimeout(this.bigTimer);
    this.bigTimer = null;
    this.pendingBig.clear();
  }

  private cancelFlush(): void {
    if (this.frameRequest !== null && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(this.frameRequest);
    this.frameRequest = null;
    if (this.fallbackTimer !== null) clearTimeout(this.fallbackTimer);
    this.fallbackTimer = null;
  }

  private fail(error: string): void {
    this.end('malformed', error);
  }

  private end(reason: EndReason, detail: string): void {
    if (this.ended) return;
    this.ended = true;
    this.cancelFlush();
    this.cancelBig();
    this.queue = [];
    // ReconnectingSocket arms its retry timer right after reporting 'waiting': stop once it has.
    queueMicrotask(() => this.socket.stop());
    this.events.onEnd(reason, detail);
  }
}
