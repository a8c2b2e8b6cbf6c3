// When a polling page asks again: soon while the thing runs, never once it is over or gone, after
// Retry-After when the server says so, else backing off on failures.
import type { ApiResult } from '../api/http';
import { backoffDelay } from '../net/backoff';

export const LEAGUE_POLL_MS = 1000;
export const LIST_POLL_MS = 2000;

// `attempt` counts the failures in a row so far (this one included); null: stop polling.
export function nextPollDelay<T>(result: ApiResult<T>, running: (data: T) => boolean, attempt: number, pollMs: number, random: () => number = Math.random): number | null {
  if (result.ok) return running(result.data) ? pollMs : null;
  const problem = result.problem;
  if (problem.status === 404 || problem.status === 410) return null;
  if (problem.retryAfter !== undefined) return Math.max(pollMs, problem.retryAfter * 1000);
  return Math.max(pollMs, backoffDelay(attempt, random));
}

// A timeout chain that one call can end for good (the page left).
export class PollTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(private readonly tick: () => void) {}

  schedule(delayMs: number | null): void {
    this.clear();
    if (this.stopped || delayMs === null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.tick();
    }, delayMs);
  }

  get pending(): boolean {
    return this.timer !== null;
  }

  clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }
}
