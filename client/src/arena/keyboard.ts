// Arrow keys and WASD to the v1 button mask; keys are tracked while held.
import { v1 } from '../net/protocol';

const KEY_BUTTONS: Record<string, number> = {
  ArrowUp: v1.Buttons.Up,
  KeyW: v1.Buttons.Up,
  ArrowDown: v1.Buttons.Down,
  KeyS: v1.Buttons.Down,
  ArrowLeft: v1.Buttons.Left,
  KeyA: v1.Buttons.Left,
  ArrowRight: v1.Buttons.Right,
  KeyD: v1.Buttons.Right,
};

export function buttonForKey(code: string): number {
  return KEY_BUTTONS[code] ?? 0;
}

export class HeldKeys {
  private readonly held = new Set<string>();

  press(code: string): boolean {
    if (!buttonForKey(code)) return false;
    this.held.add(code);
    return true;
  }

  release(code: string): boolean {
    return this.held.delete(code);
  }

  releaseAll(): void {
    this.held.clear();
  }

  mask(): number {
    let mask = 0;
    for (const code of this.held) mask |= buttonForKey(code);
    return mask;
  }
}
