// Key to screen for the own avatar: from the keydown that adds a direction to the movement mask
// (its event.timeStamp, performance.now's clock) to the end of the first frame whose drawing shows
// the avatar stepping that way. Releases are never timed; a release of the pressed direction, a
// newer press or a timeout drops a pending press, so no figure ever starts at an older key event.
import { v1 } from '../net/protocol';

export const KEY_TO_SCREEN_TIMEOUT_MS = 1000; // a press into a wall or an obstacle moves nothing
const MIN_STEP = 1e-6; // world units: less is rounding, not a move

export interface Point {
  x: number;
  y: number;
}

interface Pending {
  at: number;
  bit: number; // the pressed direction's button
  dx: number;
  dy: number;
}

// The unit step of one direction button (screen axes: y grows downwards).
function direction(bit: number): Point {
  switch (bit) {
    case v1.Buttons.Up: return { x: 0, y: -1 };
    case v1.Buttons.Down: return { x: 0, y: 1 };
    case v1.Buttons.Left: return { x: -1, y: 0 };
    case v1.Buttons.Right: return { x: 1, y: 0 };
    default: return { x: 0, y: 0 };
  }
}

// The mask's net step along each axis (opposite keys cancel).
function net(mask: number): Point {
  const on = (bit: number) => ((mask & bit) !== 0 ? 1 : 0);
  return { x: on(v1.Buttons.Right) - on(v1.Buttons.Left), y: on(v1.Buttons.Down) - on(v1.Buttons.Up) };
}

export class KeyToScreen {
  latencyMs: number | null = null; // the last measured press, whole ms
  measured = 0; // presses measured so far: tells a new figure from an equal old one
  private pending: Pending | null = null;
  private lastDrawn: Point | null = null;

  constructor(private readonly timeoutMs: number = KEY_TO_SCREEN_TIMEOUT_MS) {}

  get measuring(): boolean {
    return this.pending !== null;
  }

  // The held mask went from `before` to `after` at `at`. A press that starts a move along an
  // axis that stood still is timed; a release or blur that drops the pending direction cancels it.
  maskChanged(before: number, after: number, at: number): void {
    if (this.pending && (after & this.pending.bit) === 0) this.pending = null;
    const pressed = after & ~before & 0x0f;
    if (pressed === 0) return;
    // One key adds one button; should several arrive at once, the lowest one is timed.
    const bit = pressed & -pressed;
    const step = direction(bit);
    const moving = net(after);
    // A press cancelling its opposite (Left while Right is held) stops that axis: no move to see.
    if ((step.x !== 0 && moving.x !== step.x) || (step.y !== 0 && moving.y !== step.y)) {
      this.pending = null;
      return;
    }
    this.pending = { at, bit, dx: step.x, dy: step.y };
  }

  // A frame has been drawn (called after its rendering was submitted) at `now` with the own
  // avatar at `drawn` (null: not drawn). Returns the new figure when this frame ends a press.
  frameDrawn(drawn: Point | null, now: number): number | null {
    const last = this.lastDrawn;
    this.lastDrawn = drawn ? { x: drawn.x, y: drawn.y } : null;
    const pending = this.pending;
    if (!pending) return null;
    if (drawn && last && (drawn.x - last.x) * pending.dx + (drawn.y - last.y) * pending.dy > MIN_STEP) {
      this.pending = null;
      this.latencyMs = Math.max(0, Math.round(now - pending.at));
      this.measured++;
      return this.latencyMs;
    }
    if (now - pending.at > this.timeoutMs) this.pending = null;
    return null;
  }

  // A new connection: the avatar jumps to wherever the server puts it, which is no key's doing.
  reset(): void {
    this.pending = null;
    this.lastDrawn = null;
  }
}
