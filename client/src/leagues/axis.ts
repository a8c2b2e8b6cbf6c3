// The ratings' common axis and each 95 % interval as a horizontal bar on it, in percent of the
// axis width: pure geometry, so the bars can be tested without a browser.
export interface Axis {
  min: number;
  max: number;
  ticks: number[];
}

export interface Interval {
  low: number | null;
  rating: number | null;
  high: number | null;
}

export interface BarGeometry {
  left: number; // % of the axis where the interval starts
  width: number; // % it spans (0 for a point)
  mark: number | null; // % where the rating sits
}

export const DEFAULT_CENTRE = 1500; // the scale's anchor: the mean of the entrants
export const MIN_SPAN = 40; // Elo: an axis never narrower, so equal ratings still read as a point
export const PAD_SHARE = 0.04; // room beyond the widest interval on each side
export const TARGET_TICKS = 5;
const MAX_TICKS = 50;

// 1, 2, 2.5 or 5 times a power of ten, the first at least `raw`.
export function niceStep(raw: number): number {
  if (!Number.isFinite(raw) || raw <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw - 1e-9 * power) return m * power;
  return 10 * power;
}

export function ratingAxis(rows: readonly Interval[], targetTicks = TARGET_TICKS): Axis {
  const values = rows.flatMap((r) => [r.low, r.rating, r.high]).filter((v): v is number => v !== null && Number.isFinite(v));
  let lo = values.length ? Math.min(...values) : DEFAULT_CENTRE;
  let hi = values.length ? Math.max(...values) : DEFAULT_CENTRE;
  if (hi - lo < MIN_SPAN) {
    const mid = (lo + hi) / 2;
    lo = mid - MIN_SPAN / 2;
    hi = mid + MIN_SPAN / 2;
  }
  const pad = (hi - lo) * PAD_SHARE;
  lo -= pad;
  hi += pad;
  const step = niceStep((hi - lo) / Math.max(1, targetTicks));
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let i = 0; ticks.length < MAX_TICKS; i++) {
    const v = min + i * step;
    if (v > max + step * 1e-9) break;
    ticks.push(Math.round(v * 1e6) / 1e6);
  }
  return { min, max, ticks };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

// Where `value` falls on the axis, 0..100 (clamped: a value off the axis sits at its edge).
export function axisPercent(axis: Axis, value: number): number {
  const span = axis.max - axis.min;
  if (!(span > 0)) return 50;
  return round2(Math.min(100, Math.max(0, ((value - axis.min) / span) * 100)));
}

// null when there is nothing to draw; a missing end of the interval collapses onto the rating.
export function intervalBar(axis: Axis, row: Interval): BarGeometry | null {
  const low = row.low ?? row.rating ?? row.high;
  const high = row.high ?? row.rating ?? row.low;
  if (low === null || high === null) return null;
  const left = axisPercent(axis, Math.min(low, high));
  const right = axisPercent(axis, Math.max(low, high));
  return { left, width: round2(right - left), mark: row.rating === null ? null : axisPercent(axis, row.rating) };
}

// Whether two intervals share a point (the "overlapping" versus "apart").
export function overlaps(a: Interval, b: Interval): boolean | null {
  if (a.low === null || a.high === null || b.low === null || b.high === null) return null;
  return a.low <= b.high && b.low <= a.high;
}
