import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../net/fakeWebSocket.testing';
import { FrameFlag } from '../sprite/compact';
import { compactPacket, frameMark } from '../sprite/compactFixtures.testing';
import { BEHIND_NOTICE_MS, BehindNotice } from './behind';
import { SpriteSession } from './session';
describe('the behind notice', () => {
  afterEach(() => vi.useRealTimers());

  it('shows at once, stays while it keeps happening, and hides a while after the last time', () => {
    vi.useFakeTimers();
    const changes: boolean[] = [];
    const notice = new BehindNotice((showing) => changes.push(showing));
    notice.note();
    expect([notice.showing, changes]).toStrictEqual([true, [true]]);
    vi.advanceTimersByTime(BEHIND_NOTICE_MS - 1);
    notice.note(); // a second resync before it hid: still one notice, held longer
    vi.advanceTimersByTime(BEHIND_NOTICE_MS - 1);
    expect([notice.showing, changes, notice.events]).toStrictEqual([true, [true], 2]);
    vi.advanceTimersByTime(1);
    expect([notice.showing, changes]).toStrictEqual([false, [true, false]]);
    notice.note();
    notice.destroy(); // a view that goes away leaves no timer behind
    vi.advanceTimersByTime(BEHIND_NOTICE_MS);
    expect(changes).toStrictEqual([true, false, true]);
  });

  it('follows a session’s resync frames', () => {
    vi.useFakeTimers();
    FakeWebSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeWebSocket);
    const notice = new BehindNotice(() => {});
    const session = new SpriteSession('ws://h/replay?match=m1&stream=compact', {
      onConnection: () => {}, onApplied: () => {}, onEnd: () => {}, onBehind: () => notice.note(),
    }, { stream: 'compact' });
    session.start();
    const socket = FakeWebSocket.instances.at(-1)!;
    socket.accept();
    socket.deliver(compactPacket(frameMark(5, FrameFlag.Keyframe | FrameFlag.Resync)));
    vi.advanceTimersByTime(0);
    expect(notice.showing).toBe(true);
    vi.advanceTimersByTime(BEHIND_NOTICE_MS);
    expect(notice.showing).toBe(false);
    session.stop();
    vi.unstubAllGlobals();
  });
});
