import { describe, expect, it } from 'vitest';
import { MIN_SPAN, axisPercent, intervalBar, niceStep, overlaps, ratingAxis } from './axis';
import { parseLeagueDetail } from './decode';
import { DETAIL } from './fixtures.testing';

describe('the common rating axis', () => {
  it('picks round steps', () => {
    expect([0.3, 1, 1.2, 2.2, 3, 7, 14, 160, 240, 900].map(niceStep)).toEqual([0.5, 1, 2, 2.5, 5, 10, 20, 200, 250, 1000]);
    expect(niceStep(0)).toBe(1);
    expect(niceStep(NaN)).toBe(1);
  });

  it('covers every interval with room to spare, on round ticks', () => {
    const rows = parseLeagueDetail(DETAIL)!.table.entrants; // 949.9 … 1892.8
    const axis = ratingAxis(rows);
    expect(axis.min).toBeLessThan(949.9);
    expect(axis.max).toBeGreaterThan(1892.8);
    expect(axis.ticks.length).toBeGreaterThan(2);
    for (const row of rows) {
      const bar = intervalBar(axis, row)!;
      expect(bar.left).toBeGreaterThan(0);
      expect(bar.left + bar.width).toBeLessThan(100);
      expect(bar.mark).toBeGreaterThanOrEqual(bar.left);
      expect(bar.mark).toBeLessThanOrEqual(bar.left + bar.width);
    }
  });

  it('draws each bar from low to high with the mark at the rating', () => {
    const axis = { min: 1000, max: 2000, ticks: [] };
    expect(intervalBar(axis, { low: 1250, rating: 1500, high: 1900 })).toEqual({ left: 25, width: 65, mark: 50 });
    expect(intervalBar(axis, { low: 1500, rating: 1500, high: 1500 })).toEqual({ left: 50, width: 0, mark: 50 });
  });

  it('draws what it can of a partial interval, and nothing for none', () => {
    const axis = { min: 1000, max: 2000, ticks: [] };
    expect(intervalBar(axis, { low: null, rating: 1500, high: null })).toEqual({ left: 50, width: 0, mark: 50 });
    expect(intervalBar(axis, { low: 1200, rating: null, high: 1400 })).toEqual({ left: 20, width: 20, mark: null });
    expect(intervalBar(axis, { low: null, rating: null, high: null })).toBeNull();
  });

  it('clamps values off the axis to its edges', () => {
    const axis = { min: 1000, max: 2000, ticks: [] };
    expect(intervalBar(axis, { low: -5e4, rating: 1500, high: 9e4 })).toEqual({ left: 0, width: 100, mark: 50 });
    expect(axisPercent({ min: 5, max: 5, ticks: [] }, 5)).toBe(50);
  });

  it('widens an axis of equal ratings, and centres an empty one on 1500', () => {
    const flat = ratingAxis([{ low: 1500, rating: 1500, high: 1500 }, { low: 1500, rating: 1500, high: 1500 }]);
    expect(flat.max - flat.min).toBeGreaterThanOrEqual(MIN_SPAN);
    expect(axisPercent(flat, 1500)).toBe(50);
    const empty = ratingAxis([]);
    expect(empty.min).toBeLessThan(1500);
    expect(empty.max).toBeGreaterThan(1500);
    expect(ratingAxis([{ low: null, rating: null, high: null }])).toEqual(empty);
  });

  it('stays bounded for extreme spans', () => {
    const axis = ratingAxis([{ low: -100_000, rating: 0, high: 100_000 }]);
    expect(axis.ticks.length).toBeGreaterThan(1);
    expect(axis.ticks.length).toBeLessThanOrEqual(50);
    expect(axis.ticks[0]).toBe(axis.min);
    expect(axis.ticks.at(-1)).toBe(axis.max);
  });

  it('tells overlapping intervals from ones apart', () => {
    expect(overlaps({ low: 1, rating: 2, high: 3 }, { low: 3, rating: 4, high: 5 })).toBe(true);
    expect(overlaps({ low: 1, rating: 2, high: 3 }, { low: 3.1, rating: 4, high: 5 })).toBe(false);
    expect(overlaps({ low: null, rating: 2, high: 3 }, { low: 3, rating: 4, high: 5 })).toBeNull();
  });
});
