import { describe, expect, it } from 'vitest';
import { mapLayer, object, packet, solid } from '../sprite/fixtures.testing';
import { SpriteStream } from '../sprite/stream';
import { bradsToDegrees, parseCogLabel, parseReplayChrome, readBoard, readOwnCog, readReplayChrome } from './labels';

const RGBA = [10, 20, 30, 255];

function streamOf(...packets: Uint8Array[]): SpriteStream {
  const stream = new SpriteStream();
  for (const p of packets) expect(stream.receive(p).ok).toBe(true);
  return stream;
}

describe('cog labels', () => {
  it.each([
    ['cog HIDER own aim 12', { side: 'hider', aim: 12 }],
    ['cog SEEKER own aim 128', { side: 'seeker', aim: 128 }],
    ['cog SEEKER', { side: 'seeker', aim: null }],
    ['  cog HIDER own aim 0 ', { side: 'hider', aim: 0 }],
  ])('reads %j', (label, expected) => {
    expect(parseCogLabel(label)).toEqual(expected);
  });

  it.each(['crate box1', 'vision cone 0 aim 12 deg 35 range 340 on', 'cog BOTH own aim 3', ''])('rejects %j', (label) => {
    expect(parseCogLabel(label)).toBeNull();
  });

  it('turns brads into degrees', () => {
    expect(bradsToDegrees(0)).toBe(0);
    expect(bradsToDegrees(64)).toBe(90);
    expect(bradsToDegrees(128)).toBe(180);
    expect(bradsToDegrees(-64)).toBe(270);
  });
});

describe('the own cog on the player stream (§4.1)', () => {
  it('finds the cog of slot 1 at its centre, with side and aim', () => {
    // The spec's derived lobby bytes: slot 1 (seeker, aim 128, sprite 124) at (368,152) → object at (332,116).
    const stream = streamOf(packet(...mapLayer(720, 400), solid(124, 72, 72, RGBA, 'cog SEEKER own aim 128'), object(1001, 332, 116, 152, 124)));
    expect(readOwnCog(stream.world, 1)).toEqual({ slot: 1, side: 'seeker', aim: 128, x: 368, y: 152 });
  });

  it('finds it by the "own aim" label when the slot is not known', () => {
    const stream = streamOf(packet(...mapLayer(720, 400), solid(100, 72, 72, RGBA, 'cog HIDER own aim 3'), object(1004, 44, 44, 80, 100)));
    expect(readOwnCog(stream.world, null)).toMatchObject({ slot: 4, x: 80, y: 80, aim: 3 });
    expect(readOwnCog(stream.world, 0)).toMatchObject({ slot: 4 });
  });

  it('follows a moved object and a redefined aim', () => {
    const stream = streamOf(
      packet(...mapLayer(720, 400), solid(100, 72, 72, RGBA, 'cog HIDER own aim 0'), object(1000, 44, 44, 80, 100)),
      packet(solid(101, 72, 72, RGBA, 'cog HIDER own aim 16'), object(1000, 54, 44, 80, 101)),
    );
    expect(readOwnCog(stream.world, 0)).toMatchObject({ x: 90, y: 80, aim: 16 });
  });

  it('has none before the cog is drawn', () => {
    expect(readOwnCog(streamOf(packet(...mapLayer(720, 400))).world, 0)).toBeNull();
  });
});

describe('the global board (§4.2, 2×)', () => {
  it('counts cogs by side, spotted rings and locked objects, at logical positions', () => {
    const stream = streamOf(packet(
      ...mapLayer(1440, 800),
      solid(100, 144, 144, RGBA, 'cog HIDER own aim 0'),
      solid(124, 144, 144, RGBA, 'cog SEEKER own aim 128'),
      solid(2000, 4, 4, RGBA, 'crate box1'),
      solid(2001, 4, 4, RGBA, 'locked panel pan1'),
      solid(2340, 84, 84, RGBA, 'spotted ring'),
      object(1000, 2 * (80 - 36), 2 * (80 - 36), 82, 100),
      object(1001, 2 * (368 - 36), 2 * (152 - 36), 154, 124),
      object(1002, 2 * (100 - 36), 2 * (300 - 36), 302, 100),
      object(2200, 1056, 80, 40, 2000),
      object(2201, 288, 464, 232, 2001),
      object(2352, 2 * (100 - 21), 2 * (300 - 21), 303, 2340),
    ));
    const board = readBoard(stream.world);
    expect(board.hiders).toBe(2);
    expect(board.seekers).toBe(1);
    expect(board.spotted).toEqual([2]);
    expect(board.objects).toBe(2);
    expect(board.locked).toBe(1);
    expect(board.cogs.map((c) => [c.slot, c.side, c.x, c.y])).toEqual([[0, 'hider', 80, 80], [1, 'seeker', 368, 152], [2, 'hider', 100, 300]]);
  });

  it('takes the side from the sprite id when a stripped sprite has no label', () => {
    const stream = streamOf(packet(...mapLayer(1440, 800), object(1003, 0, 0, 0, 100 + 16 + 5)));
    expect(readBoard(stream.world).cogs).toEqual([{ slot: 3, side: 'seeker', aim: null, x: 36, y: 36 }]);
  });
});

describe('the replay chrome (sprite 4090)', () => {
  const chrome = {
    t: 412, mt: 400, ph: 'playing', mp: 'hunt', game: 1, games: 2, turn: 4, turns: 12, phaseLeft: 120, room: 'warren',
    hidden: 40, seen: 3, paused: true, speed: 2, end: 949, mismatch: null,
  };

  it('reads tick, end, transport and score', () => {
    expect(parseReplayChrome(JSON.stringify(chrome))).toEqual({
      tick: 412, end: 949, paused: true, speed: 2, game: 1, games: 2, phase: 'playing', matchPhase: 'hunt',
      phaseLeft: 120, hidden: 40, seen: 3, room: 'warren', mismatch: null,
    });
  });

  it('reads a mismatch', () => {
    const parsed = parseReplayChrome(JSON.stringify({ ...chrome, mismatch: { tick: 77, expected: '2bf4c5d51a03475a', got: '0000000000000001' } }));
    expect(parsed!.mismatch).toEqual({ tick: 77, expected: '2bf4c5d51a03475a', got: '0000000000000001' });
  });

  it.each(['', 'not json', '[1]', '{"paused":true}', 'null'])('rejects %j', (label) => {
    expect(parseReplayChrome(label)).toBeNull();
  });

  it('is read from the sprite table, not from a placed object', () => {
    const stream = streamOf(packet(...mapLayer(1440, 800), solid(4090, 1, 1, [0, 0, 0, 0], JSON.stringify(chrome))));
    expect(readReplayChrome(stream.world)).toMatchObject({ tick: 412, end: 949 });
    expect(readReplayChrome(streamOf(packet(...mapLayer(1440, 800))).world)).toBeNull();
  });
});
