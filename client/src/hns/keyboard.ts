// Keys to the Sprite v1 button mask of a manual seat (spec §1.2, HNS meanings). Level state: the page
// sends the mask whenever it changes, so held keys stay held on the server until released.
import { Button } from '../sprite/protocol';
import type { MessageKey } from '../i18n/i18n';

// Aim grows counter-clockwise on screen (the sim's unit vectors have y up): B (+) turns left, Select (−) right.
export const KEY_BUTTONS: Readonly<Record<string, number>> = {
  ArrowUp: Button.Up,
  KeyW: Button.Up,
  ArrowDown: Button.Down,
  KeyS: Button.Down,
  ArrowLeft: Button.Left,
  KeyA: Button.Left,
  ArrowRight: Button.Right,
  KeyD: Button.Right,
  KeyQ: Button.B, // aim +: turn the aim anticlockwise
  KeyE: Button.Select, // aim −: turn the aim clockwise
  Space: Button.A, // lock / unlock, on press
  ShiftLeft: Button.C, // grab while held
  ShiftRight: Button.C,
};

export function buttonForKey(code: string): number {
  return KEY_BUTTONS[code] ?? 0;
}

// The on-screen legend, in the order shown; each row also works as a hold-to-press button.
export interface ControlRow {
  keys: string;
  action: MessageKey;
  mask: number;
}
export const CONTROL_ROWS: readonly ControlRow[] = [
  { keys: '↑ W', action: 'hns.key.up', mask: Button.Up },
  { keys: '↓ S', action: 'hns.key.down', mask: Button.Down },
  { keys: '← A', action: 'hns.key.left', mask: Button.Left },
  { keys: '→ D', action: 'hns.key.right', mask: Button.Right },
  { keys: 'Q', action: 'hns.key.aimLeft', mask: Button.B },
  { keys: 'E', action: 'hns.key.aimRight', mask: Button.Select },
  { keys: 'Space', action: 'hns.key.lock', mask: Button.A },
  { keys: 'Shift', action: 'hns.key.grab', mask: Button.C },
];

// Held keys and held on-screen buttons; mask() is their union.
export class HnsKeys {
  private readonly keys = new Set<string>();
  private readonly pointer = new Map<number, number>(); // pointer id → mask of the button it holds

  press(code: string): boolean {
    if (!buttonForKey(code)) return false;
    this.keys.add(code);
    return true;
  }

  release(code: string): boolean {
    return this.keys.delete(code);
  }

  pressPointer(pointerId: number, mask: number): void {
    this.pointer.set(pointerId, mask);
  }

  releasePointer(pointerId: number): void {
    this.pointer.delete(pointerId);
  }

  releaseAll(): void {
    this.keys.clear();
    this.pointer.clear();
  }

  mask(): number {
    let mask = 0;
    for (const code of this.keys) mask |= buttonForKey(code);
    for (const held of this.pointer.values()) mask |= held;
    return mask;
  }
}

// Sends the mask only when it changed since the last send (and again after a reconnect via reset()).
export class MaskSender {
  private last: number | null = null;

  constructor(private readonly send: (mask: number) => boolean) {}

  update(mask: number): void {
    if (mask === this.last) return;
    if (this.send(mask)) this.last = mask;
  }

  reset(): void {
    this.last = null;
  }
}
