import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../api/http';
import { LEAGUE_POLL_MS, PollTimer, nextPollDelay } from './poll';

const ok = (running: boolean): ApiResult<{ running: boolean }> => ({ ok: true, data: { running } });
const fail = (status: number, retryAfter?: number): ApiResult<{ running: boolean }> =>
  ({ ok: false, problem: retryAfter === undefined ? { status, code: `http-${status}` } : { status, code: `http-${status}`, retryAfter } });
const running = (d: { running: boolean }) => d.running;
const half = () => 0.5; // no jitter

describe('when a league page asks again', () => {
  it('polls while running and stops once it is over', () => {
    expect(nextPollDelay(ok(true), running, 0, LEAGUE_POLL_MS)).toBe(LEAGUE_POLL_MS);
    expect(nextPollDelay(ok(false), running, 0, LEAGUE_POLL_MS)).toBeNull();
  });

  it('stops for a league that is gone', () => {
    expect(nextPollDelay(fail(404), running, 1, LEAGUE_POLL_MS)).toBeNull();
  });

  it('waits as long as Retry-After says, and backs off otherwise', () => {
    expect(nextPollDelay(fail(429, 7), running, 1, LEAGUE_POLL_MS)).toBe(7000);
    expect(nextPollDelay(fail(503, 0), running, 1, LEAGUE_POLL_MS)).toBe(LEAGUE_POLL_MS);
    const delays = [1, 2, 3, 4, 5, 6].map((n) => nextPollDelay(fail(500), running, n, LEAGUE_POLL_MS, half));
    expect(delays).toEqual([1000, 1000, 2000, 4000, 8000, 10000]);
  });
});

describe('the poll timer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires once per schedule, never after stop', () => {
    const tick = vi.fn();
    const timer = new PollTimer(tick);
    timer.schedule(1000);
    timer.schedule(1000); // replaces, does not add
    vi.advanceTimersByTime(1000);
    expect(tick).toHaveBeenCalledTimes(1);
    timer.schedule(null);
    vi.advanceTimersByTime(5000);
    expect(tick).toHaveBeenCalledTimes(1);
    timer.schedule(500);
    timer.stop();
    vi.advanceTimersByTime(5000);
    timer.schedule(10);
    vi.advanceTimersByTime(100);
    expect(tick).toHaveBeenCalledTimes(1);
    expect(timer.pending).toBe(false);
  });
});
