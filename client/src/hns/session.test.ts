import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket, lastFakeSocket as fake, restoreSockets, useFakeSockets } from '../net/fakeWebSocket.testing';
import type { ConnectionState } from '../net/reconnectingSocket';
import { mapLayer, object, packet, solid } from '../sprite/fixtures.testing';
import { decodeClient } from '../sprite/protocol';
import { FrameFlag } from '../sprite/compact';
import { compactPacket, frameMark, relabel, solidBlock, useBlock } from '../sprite/compactFixtures.testing';
import { MAX_QUEUED_MESSAGES, SpriteSession, endReasonForClose, hnsSocketUrl, spectatorSocketUrl } from './session';
import type { EndReason } from './session';

describe('hide-and-seek socket URLs', () => {
  it('builds ws and wss URLs with the query', () => {
    expect(hnsSocketUrl('/global', { match: 'm3' }, { protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/global?match=m3');
    expect(hnsSocketUrl('/player', { match: 'm3', slot: 0, name: 'Ann Lee' }, { protocol: 'https:', host: 'h' })).toBe('wss://h/player?match=m3&slot=0&name=Ann+Lee');
  });

  it('ends on match over, gone and refused, and retries anything else', () => {
    expect([1000, 1001, 1007, 1008].map((code) => endReasonForClose(code))).toEqual(['over', 'gone', 'refused', 'refused']);
    expect([1006, 1011, 1013].map((code) => endReasonForClose(code))).toEqual([null, null, null]);
    expect(endReasonForClose(1008, false)).toBeNull();
  });
});

describe('SpriteSession', () => {
  let states: ConnectionState[];
  let ended: EndReason[];
  let applied: number;
  let session: SpriteSession;

  beforeEach(() => {
    useFakeSockets();
    states = [];
    ended = [];
    applied = 0;
    session = new SpriteSession('ws://h/player?match=m1&slot=0', {
      onConnection: (s) => states.push(s),
      onOpen: (sendText) => sendText('{"type":"register","mode":"manual"}'),
      onApplied: () => applied++,
      onEnd: (reason) => ended.push(reason),
    });
    session.start();
  });

  afterEach(() => {
    session.stop();
    restoreSockets();
  });

  const sent = () => fake().sent.map((frame) => {
    const decoded = decodeClient(frame);
    if (!decoded.ok) throw new Error(decoded.error);
    return decoded.messages;
  });

  it('registers on every connection and sends masks as 0x84', () => {
    fake().accept();
    expect(session.sendMask(0x09)).toBe(true);
    expect(sent()).toEqual([[{ type: 'InputText', text: '{"type":"register","mode":"manual"}' }], [{ type: 'PlayerInput', mask: 0x09 }]]);
    fake().drop(1006);
    expect(states.at(-1)).toMatchObject({ phase: 'waiting', closeCode: 1006 });
    expect(session.sendMask(1)).toBe(false);
    vi.advanceTimersByTime(20_000);
    fake().accept();
    expect(sent()).toEqual([[{ type: 'InputText', text: '{"type":"register","mode":"manual"}' }]]);
  });

  it('applies frames to the retained world, empty ones included', () => {
    fake().accept();
    fake().deliver(packet(...mapLayer(720, 400), solid(100, 72, 72, [1, 2, 3, 255], 'cog HIDER own aim 0'), object(1000, 44, 44, 80, 100)));
    fake().deliver(new Uint8Array(0));
    expect(applied).toBe(0); // waiting for the next display frame (here: the fallback timer)
    vi.advanceTimersByTime(0);
    expect(applied).toBe(1);
    expect(session.stream.messages).toBe(2);
    expect(session.received).toBe(2);
    expect(session.stream.world.objects.get(1000)).toMatchObject({ x: 44, y: 44 });
  });

  it('applies at once when many messages are waiting', () => {
    fake().accept();
    fake().deliver(packet(...mapLayer(720, 400)));
    for (let i = 1; i < MAX_QUEUED_MESSAGES; i++) fake().deliver(new Uint8Array(0));
    expect(session.stream.messages).toBe(MAX_QUEUED_MESSAGES);
  });

  it('keeps retrying a spectator dropped with 1008 when told to', async () => {
    const spectator = new SpriteSession('ws://h/global?match=m1', { onConnection: () => {}, onApplied: () => {}, onEnd: (r) => ended.push(r) }, { policyIsFinal: false });
    spectator.start();
    fake().accept();
    fake().drop(1008);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(20_000);
    expect(FakeWebSocket.instances.at(-1)!.readyState).toBe(FakeWebSocket.CONNECTING);
    spectator.stop();
  });

  it('re-dials another URL at once, closing the open socket, and keeps it for later retries', () => {
    const watcher = new SpriteSession('ws://h/global?match=m1', { onConnection: (s) => states.push(s), onApplied: () => {}, onEnd: (r) => ended.push(r) }, { policyIsFinal: false });
    watcher.start();
    const first = fake();
    first.accept();
    watcher.reconnectTo('ws://h/global?match=m1&ownerToken=abc');
    expect(first.readyState).toBe(FakeWebSocket.CLOSED);
    expect(fake().url).toBe('ws://h/global?match=m1&ownerToken=abc');
    fake().drop(1006); // refused before the upgrade: a browser sees only a failure
    vi.advanceTimersByTime(20_000);
    expect(fake().url).toBe('ws://h/global?match=m1&ownerToken=abc');
    watcher.reconnectTo('ws://h/global?match=m1');
    expect(fake().url).toBe('ws://h/global?match=m1');
    expect(ended).toEqual([]);
    watcher.stop();
    const count = FakeWebSocket.instances.length;
    watcher.reconnectTo('ws://h/global?match=m2'); // a stopped session stays stopped
    expect(FakeWebSocket.instances).toHaveLength(count);
  });

  it('stops for good when the match is over, without reconnecting', async () => {
    fake().accept();
    fake().drop(1000);
    expect(ended).toEqual(['over']);
    await Promise.resolve();
    expect(states.at(-1)).toEqual({ phase: 'closed' });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('stops with an error on a malformed message', async () => {
    fake().accept();
    fake().deliver(Uint8Array.of(0x7f));
    session.flush();
    expect(ended).toEqual(['malformed']);
    expect(session.isEnded).toBe(true);
    await Promise.resolve();
    expect(fake().readyState).toBe(FakeWebSocket.CLOSED);
  });
});

describe('SpriteSession with big sprites', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows a big sprite at once, holds back its redefinitions, and always lands the latest', async () => {
    FakeWebSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const session = new SpriteSession('ws://h/global?match=m1', { onConnection: () => {}, onApplied: () => {}, onEnd: () => {} });
    session.start();
    const socket = FakeWebSocket.instances.at(-1)!;
    socket.accept();
    const cone = (n: number) => solid(2400, 512, 512, [n, 0, 0, 255], `vision cone 0 aim ${n}`);
    socket.deliver(packet(...mapLayer(1440, 800), cone(1), object(2500, 0, 0, -900, 2400)));
    session.flush();
    expect(session.stream.world.sprites.get(2400)!.label).toBe('vision cone 0 aim 1');
    for (let n = 2; n <= 6; n++) {
      socket.deliver(packet(cone(n), object(2500, n, 0, -900, 2400)));
      session.flush();
    }
    expect(session.stream.world.objects.get(2500)!.x).toBe(6); // everything else is never held back
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(session.stream.world.sprites.get(2400)!.label).toBe('vision cone 0 aim 6');
    session.stop();
  });
});

describe('spectator socket URLs', () => {
  const location = { protocol: 'http:', host: 'h' };

  it('ask for the compact stream, credentials or not, and for nothing on the contract stream', () => {
    expect(spectatorSocketUrl('/global', { match: 'm3' }, 'compact', location)).toBe('ws://h/global?match=m3&stream=compact');
    expect(spectatorSocketUrl('/global', { match: 'm3', ownerToken: 't1' }, 'compact', location)).toBe('ws://h/global?match=m3&ownerToken=t1&stream=compact');
    expect(spectatorSocketUrl('/replay', { match: 'm3' }, 'compact', location)).toBe('ws://h/replay?match=m3&stream=compact');
    expect(spectatorSocketUrl('/global', { match: 'm3' }, 'sprite', location)).toBe('ws://h/global?match=m3');
  });
});

describe('SpriteSession on the compact stream', () => {
  let ended: Array<[EndReason, string]>;
  let behind: number;
  let applied: number;
  let session: SpriteSession;

  beforeEach(() => {
    useFakeSockets();
    ended = [];
    behind = 0;
    applied = 0;
    session = new SpriteSession('ws://h/global?match=m1&stream=compact', {
      onConnection: () => {},
      onApplied: () => applied++,
      onEnd: (reason, detail) => ended.push([reason, detail]),
      onBehind: () => behind++,
    }, { policyIsFinal: false, stream: 'compact' });
    session.start();
    fake().accept();
  });

  afterEach(() => {
    session.stop();
    restoreSockets();
  });

  const COG = [63, 124, 196, 255];
  const keyframe = (tick: number, flags: number = FrameFlag.Keyframe) =>
    compactPacket(frameMark(tick, flags), { type: 'ClearObjects' }, ...mapLayer(1440, 800), solidBlock(0, 8, 8, COG), useBlock(100, 0, 'cog aim 0'), object(1000, 4, 4, 1, 100));

  it('applies every frame whole and in order, and counts what came', () => {
    const packets = [keyframe(10)];
    for (let tick = 11; tick <= 20; tick++) packets.push(compactPacket(frameMark(tick), relabel(100, `cog aim ${tick}`), object(1000, tick, 4, 1, 100)));
    for (const bytes of packets) fake().deliver(bytes);
    expect(applied).toBe(0); // waiting for the next display frame (here: the fallback timer)
    vi.advanceTimersByTime(0);
    expect(applied).toBe(1);
    expect(session.kind).toBe('compact');
    expect([session.received, session.stream.messages, session.frames, session.frameTick]).toStrictEqual([11, 11, 11, 20]);
    expect(session.bytesReceived).toBe(packets.reduce((sum, p) => sum + p.length, 0));
    expect(session.stream.world.sprites.get(100)!.label).toBe('cog aim 20');
    expect(session.stream.world.objects.get(1000)).toMatchObject({ x: 20 });
    expect([session.resyncs, behind]).toStrictEqual([0, 0]);
  });

  it('says it is behind when a frame comes marked resync', () => {
    fake().deliver(keyframe(10));
    session.flush();
    expect(behind).toBe(0);
    fake().deliver(keyframe(90, FrameFlag.Keyframe | FrameFlag.Resync));
    fake().deliver(compactPacket(frameMark(91)));
    session.flush();
    expect([behind, session.resyncs, session.frameTick]).toStrictEqual([1, 1, 91]);
  });

  it('says it is behind when so many messages wait that it applies them at once, unless the tab is hidden', () => {
    const fill = (from: number) => {
      for (let tick = from; tick < from + MAX_QUEUED_MESSAGES; tick++) fake().deliver(compactPacket(frameMark(tick)));
    };
    fake().deliver(keyframe(1));
    session.flush();
    fill(2);
    expect([behind, session.frames]).toStrictEqual([1, 1 + MAX_QUEUED_MESSAGES]);
    vi.stubGlobal('document', { visibilityState: 'hidden' });
    fill(2 + MAX_QUEUED_MESSAGES);
    expect([behind, session.frames]).toStrictEqual([1, 1 + 2 * MAX_QUEUED_MESSAGES]);
  });

  it('ends as malformed on a message the compact decoder or receiver refuses, and closes the socket', async () => {
    fake().deliver(keyframe(1));
    fake().deliver(compactPacket(frameMark(2), useBlock(101, 7)));
    session.flush();
    expect(ended).toStrictEqual([['malformed', 'UnknownBlock']]);
    expect(session.isEnded).toBe(true);
    await Promise.resolve();
    expect(fake().readyState).toBe(FakeWebSocket.CLOSED);
    expect(session.stream.world.objects.has(1000)).toBe(true); // what came before the bad message stays drawn
  });

  it('refuses a bad Frame flag as malformed too', () => {
    fake().deliver(Uint8Array.of(0x10, 1, 0, 0, 0, 0x04));
    session.flush();
    expect(ended).toStrictEqual([['malformed', 'BadFlags']]);
  });
});
