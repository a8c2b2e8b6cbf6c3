import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { v5 } from '../net/protocol';
import { lastFakeSocket as fake, restoreSockets, useFakeSockets } from '../net/fakeWebSocket.testing';
import { V5Session } from './v5Session';

const welcome: v5.Welcome = {
  type: 'Welcome', version: 5, playerId: 7, selfSlot: 0, tickRate: 20, width: 1600, height: 900, playerSpeed: 240,
  playerRadius: 16, quantumExp: -3, cellSize: 100, gridCols: 16, gridRows: 9, windowCells: 5, farEvery: 10,
};
const world: v5.StaticWorld = { type: 'StaticWorld', firstId: 1, colour: 0x5b6472, obstacles: [] };
const frame = (tick: number, baseTick: number, ackSeq: number, selfX: number, extra: Partial<v5.Frame> = {}): v5.Frame => ({
  type: 'Frame', tick, baseTick, flags: baseTick === 0 ? v5.FrameFlags.Keyframe : 0, ackSeq, inputQueue: 0, mask: 0,
  selfX, selfY: 450, leaves: [], enters: [], updates: [], farCols: 0, farRows: 0, far: [], ...extra,
});

describe('V5Session', () => {
  let now: number;
  let buttons: number;
  let session: V5Session;
  let welcomed: number;

  beforeEach(() => {
    useFakeSockets({ protocol: 'http:', host: 'game.example' });
    now = 0;
    buttons = 0;
    welcomed = 0;
    session = new V5Session('Ann', () => buttons, { onConnection: () => {}, onWelcome: () => welcomed++, onPing: () => {} }, () => now);
    session.start();
  });

  afterEach(() => {
    session.stop();
    restoreSockets();
  });

  const deliver = (m: v5.ServerMessage) => fake().deliver(v5.encodeServer(m));
  const inputs = () => fake().sent.map((b) => v5.decodeClient(b)).flatMap((d) => (d.ok && d.message.type === 'Input' ? [d.message] : []));
  const advance = (ms: number) => {
    for (let left = ms; left > 0; left -= 5) {
      now += Math.min(5, left);
      vi.advanceTimersByTime(Math.min(5, left));
    }
  };
  const join = () => {
    fake().accept();
    deliver(welcome);
    deliver(world);
    deliver(frame(100, 0, 0, 800, { enters: [{ slot: 0, id: 7, qx: 6400, qy: 3600, colour: 1 }] }));
  };
  // Joined, command 1 sent at the tick, then the right key pressed `ms` later: it goes out at once as command 2.
  const pressRightAfterTheTick = (ms: number) => {
    join();
    advance(50);
    advance(ms);
    buttons = 8;
    session.inputChanged();
    expect(inputs().at(-1)).toStrictEqual({ type: 'Input', seq: 2, mask: 8 });
  };

  it('says Hello 5 and sends one command per tick only after the first Frame', () => {
    fake().accept();
    const hello = v5.decodeClient(fake().sent[0]!);
    expect(hello).toStrictEqual({ ok: true, message: { type: 'Hello', version: 5, name: 'Ann' } });
    advance(200);
    expect(inputs()).toHaveLength(0);
    deliver(welcome);
    deliver(world);
    deliver(frame(100, 0, 0, 800));
    expect(welcomed).toBe(1);
    advance(1000);
    const sent = inputs();
    expect(sent.length).toBeGreaterThanOrEqual(19);
    expect(sent.length).toBeLessThanOrEqual(21);
    expect(sent.every((m, i) => m.seq === i + 1)).toBe(true);
  });

  it('predicts its own steps at once and an exact echo changes nothing', () => {
    join();
    buttons = v5.Fields.Qx * 8; // right
    advance(150); // three commands
    expect(session.predictedPosition()).toStrictEqual({ x: 836, y: 450 });
    deliver(frame(101, 100, 2, 824)); // the server applied two of them
    expect(session.predictedPosition()).toStrictEqual({ x: 836, y: 450 });
    expect(session.corrections).toBe(0);
  });

  it('a misprediction moves the prediction but not the drawn avatar, and the difference decays', () => {
    join();
    buttons = 8;
    advance(100);
    const drawn = session.ownPosition()!;
    deliver(frame(101, 100, 2, 820)); // 4 units short: the server's FIFO starved once
    expect(session.corrections).toBe(1);
    expect(session.predictedPosition()!.x).toBe(820);
    expect(session.ownPosition()!.x).toBeCloseTo(drawn.x, 6);
    now += 1000;
    expect(session.ownPosition()!.x).toBeCloseTo(820, 2);
  });

  it('a late timer sends one command per tick it missed, a long sleep none', () => {
    join();
    now += 120; // the page was busy: two ticks went by
    session.pump();
    expect(inputs().map((m) => m.seq)).toStrictEqual([1, 2]);
    now += 10_000;
    session.pump();
    expect(inputs()).toHaveLength(7);
    session.pump();
    expect(inputs()).toHaveLength(7);
  });

  it('sits a tick out when the server says more than one command waits', () => {
    join();
    advance(50);
    expect(inputs()).toHaveLength(1);
    deliver(frame(101, 100, 0, 800, { inputQueue: 3 }));
    advance(50);
    expect(inputs()).toHaveLength(1);
    advance(50);
    expect(inputs()).toHaveLength(2);
  });

  it('a key change goes out at once when the last command is half a tick old', () => {
    pressRightAfterTheTick(30);
    expect(session.ownPosition()!.x).toBe(800); // moves from here over the next frames
    now += 16;
    expect(session.ownPosition()!.x).toBeGreaterThan(800);
    session.inputChanged(); // within half a tick: goes as this tick's one early command
    expect(inputs()).toHaveLength(3);
    now += 10;
    session.inputChanged(); // a second within the tick waits for it
    expect(inputs()).toHaveLength(3);
  });

  it('a key change within half a tick of the last command goes at once, once a tick', () => {
    pressRightAfterTheTick(10);
    advance(15);
    expect(session.ownPosition()!.x).toBeGreaterThan(800);
    buttons = 0;
    advance(5);
    session.inputChanged(); // 20 ms after an early one: waits for the tick
    expect(inputs()).toHaveLength(2);
    advance(30); // the tick, 50 ms after the early command
    expect(inputs().at(-1)).toMatchObject({ seq: 3, mask: 0 });
    buttons = 2;
    session.inputChanged(); // just after that tick, but a tick after the early one: early again
    expect(inputs().at(-1)).toMatchObject({ seq: 4, mask: 2 });
  });

  it('puts the others into the buffer in world units, never itself', () => {
    join();
    now = 1000;
    deliver(frame(101, 100, 0, 800, { enters: [{ slot: 4, id: 9, qx: 800, qy: 1600, colour: 2 }] }));
    const others = session.buffer.sample(2000);
    expect(others).toStrictEqual([{ id: 9, kind: 1, x: 100, y: 200, radius: 16, colour: 2 }]);
  });

  it('a broken chain reconnects for a keyframe and forgets the world', () => {
    join();
    deliver(frame(105, 99, 0, 800));
    expect(session.welcome).toBeNull();
    expect(session.replica.size).toBe(0);
  });
});
