import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, backoffDelay } from './backoff';

const NO_JITTER = () => 0.5;

describe('backoffDelay', () => {
  it('doubles from half a second up to the cap', () => {
    const schedule = [1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => backoffDelay(attempt, NO_JITTER));
    expect(schedule).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it('jitters by at most a fifth and never past the cap', () => {
    expect(backoffDelay(2, () => 0)).toBe(800);
    expect(backoffDelay(2, () => 1)).toBe(1200);
    expect(backoffDelay(50, () => 1)).toBe(BACKOFF_MAX_MS);
  });

  it('treats a zero or negative attempt as the first', () => {
    expect(backoffDelay(0, NO_JITTER)).toBe(500);
  });
});
