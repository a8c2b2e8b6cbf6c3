import { describe, expect, it } from 'vitest';
import { Button } from '../sprite/protocol';
import { CONTROL_ROWS, HnsKeys, KEY_BUTTONS, MaskSender, buttonForKey } from './keyboard';

describe('keys to the Sprite v1 mask', () => {
  it('maps arrows and WASD to movement, Q/E to aim, Space to lock, Shift to grab', () => {
    expect(['ArrowUp', 'KeyW'].map(buttonForKey)).toEqual([0x01, 0x01]);
    expect(['ArrowDown', 'KeyS'].map(buttonForKey)).toEqual([0x02, 0x02]);
    expect(['ArrowLeft', 'KeyA'].map(buttonForKey)).toEqual([0x04, 0x04]);
    expect(['ArrowRight', 'KeyD'].map(buttonForKey)).toEqual([0x08, 0x08]);
    expect(buttonForKey('KeyQ')).toBe(0x40); // B: aim +
    expect(buttonForKey('KeyE')).toBe(0x10); // Select: aim −
    expect(buttonForKey('Space')).toBe(0x20); // A: lock
    expect(buttonForKey('ShiftLeft')).toBe(0x80); // C: grab
    expect(buttonForKey('ShiftRight')).toBe(0x80);
    expect(buttonForKey('KeyZ')).toBe(0);
  });

  it('unions held keys and releases them', () => {
    const keys = new HnsKeys();
    expect(keys.press('KeyW')).toBe(true);
    expect(keys.press('ArrowRight')).toBe(true);
    expect(keys.press('ShiftLeft')).toBe(true);
    expect(keys.press('KeyZ')).toBe(false);
    expect(keys.mask()).toBe(Button.Up | Button.Right | Button.C);
    // Two keys for one button: the button stays held until both are up.
    keys.press('ArrowUp');
    keys.release('KeyW');
    expect(keys.mask() & Button.Up).toBe(Button.Up);
    keys.release('ArrowUp');
    expect(keys.mask()).toBe(Button.Right | Button.C);
    keys.releaseAll();
    expect(keys.mask()).toBe(0);
  });

  it('adds held on-screen buttons per pointer', () => {
    const keys = new HnsKeys();
    keys.pressPointer(1, Button.A);
    keys.pressPointer(2, Button.Left);
    keys.press('KeyS');
    expect(keys.mask()).toBe(Button.A | Button.Left | Button.Down);
    keys.releasePointer(1);
    expect(keys.mask()).toBe(Button.Left | Button.Down);
  });

  it('documents every mapped button in the on-screen legend', () => {
    const legend = CONTROL_ROWS.reduce((mask, row) => mask | row.mask, 0);
    const mapped = Object.values(KEY_BUTTONS).reduce((mask, bit) => mask | bit, 0);
    expect(legend).toBe(mapped);
    expect(mapped).toBe(0xff);
  });

  it('sends the mask only when it changes, and again after a reset', () => {
    const sent: number[] = [];
    let open = true;
    const sender = new MaskSender((mask) => (open ? (sent.push(mask), true) : false));
    sender.update(0);
    sender.update(0);
    sender.update(Button.Up);
    sender.update(Button.Up);
    sender.update(0);
    expect(sent).toEqual([0, Button.Up, 0]);
    open = false;
    sender.update(Button.Down); // not sent: retried on the next change or reset
    open = true;
    sender.update(Button.Down);
    sender.reset();
    sender.update(Button.Down);
    expect(sent).toEqual([0, Button.Up, 0, Button.Down, Button.Down]);
  });
});
