// Reconnect delays: exponential so a dead server is not hammered, capped so recovery stays quick.
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_FACTOR = 2;
export const BACKOFF_MAX_MS = 10_000;
export const BACKOFF_JITTER = 0.2; // ± share of the delay, so many tabs do not reconnect in lockstep

// attempt counts from 1; `random` is injectable so the schedule can be tested exactly.
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, attempt - 1);
  const raw = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * BACKOFF_FACTOR ** exponent);
  const jitter = (random() * 2 - 1) * BACKOFF_JITTER * raw;
  return Math.round(Math.min(BACKOFF_MAX_MS, Math.max(0, raw + jitter)));
}
