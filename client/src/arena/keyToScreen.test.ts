import { describe, expect, it } from 'vitest';
import { KeyToScreen } from './keyToScreen';
import { v1 } from '../net/protocol';

const { Up, Down, Left, Right } = v1.Buttons;

describe('KeyToScreen', () => {
  it('times a press from its event to the end of the first frame drawing the avatar moved that way', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 90);
    k.maskChanged(0, Right, 100.4);
    expect(k.frameDrawn({ x: 10, y: 10 }, 110)).toBeNull(); // not moved yet
    expect(k.frameDrawn({ x: 10.5, y: 10 }, 117)).toBe(17);
    expect(k.latencyMs).toBe(17);
    expect(k.measured).toBe(1);
    expect(k.measuring).toBe(false);
    expect(k.frameDrawn({ x: 11, y: 10 }, 134)).toBeNull(); // one figure per press
    expect(k.latencyMs).toBe(17);
    expect(k.measured).toBe(1);
  });

  it('never times a release', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 0);
    k.maskChanged(Left, 0, 5);
    expect(k.measuring).toBe(false);
    expect(k.frameDrawn({ x: 9, y: 10 }, 16)).toBeNull(); // the last step still drawn
    expect(k.latencyMs).toBeNull();
  });

  it('drops a press released before its move is drawn', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 0);
    k.maskChanged(0, Up, 5);
    k.maskChanged(Up, 0, 9);
    expect(k.measuring).toBe(false);
    expect(k.frameDrawn({ x: 10, y: 9 }, 16)).toBeNull();
    expect(k.latencyMs).toBeNull();
  });

  it('keeps a press when another key is released', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 0);
    k.maskChanged(Left, Left | Down, 5);
    k.maskChanged(Left | Down, Down, 8);
    expect(k.frameDrawn({ x: 10, y: 11 }, 16)).toBe(11);
  });

  it('ignores a move in another direction', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 0);
    k.maskChanged(Right, Right | Down, 5);
    expect(k.frameDrawn({ x: 11, y: 10 }, 16)).toBeNull(); // still only moving right
    expect(k.frameDrawn({ x: 12, y: 9.5 }, 33)).toBeNull(); // a correction fading upwards
    expect(k.frameDrawn({ x: 13, y: 10 }, 50)).toBe(45);
  });

  it('times out a press that never moves the avatar, and then ignores a later move', () => {
    const k = new KeyToScreen(1000);
    k.frameDrawn({ x: 0, y: 10 }, 0);
    k.maskChanged(0, Left, 10); // against the left wall
    expect(k.frameDrawn({ x: 0, y: 10 }, 500)).toBeNull();
    expect(k.measuring).toBe(true);
    expect(k.frameDrawn({ x: 0, y: 10 }, 1020)).toBeNull();
    expect(k.measuring).toBe(false);
    expect(k.frameDrawn({ x: 0, y: 11 }, 1040)).toBeNull();
    k.maskChanged(Left, Left | Down, 2000); // a new press still starts from its own event
    expect(k.frameDrawn({ x: 0, y: 12 }, 2016)).toBe(16);
  });

  it('a newer press replaces a pending one', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 0);
    k.maskChanged(0, Up, 5);
    k.maskChanged(Up, Up | Right, 12);
    expect(k.frameDrawn({ x: 10, y: 9 }, 16)).toBeNull(); // the first press's move
    expect(k.frameDrawn({ x: 11, y: 8 }, 33)).toBe(21);
  });

  it('does not time a press cancelling its opposite, nor keep an older start for it', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 0);
    k.maskChanged(0, Up, 5);
    k.maskChanged(Up, Up | Down, 7);
    expect(k.measuring).toBe(false);
    expect(k.frameDrawn({ x: 10, y: 9 }, 16)).toBeNull();
  });

  it('ignores a frame without the avatar and a jump after a reset', () => {
    const k = new KeyToScreen();
    k.frameDrawn({ x: 10, y: 10 }, 0);
    k.maskChanged(0, Right, 5);
    expect(k.frameDrawn(null, 16)).toBeNull();
    expect(k.frameDrawn({ x: 50, y: 10 }, 33)).toBeNull(); // no frame before to compare with
    k.reset();
    expect(k.measuring).toBe(false);
    expect(k.frameDrawn({ x: 60, y: 10 }, 50)).toBeNull();
  });
});
