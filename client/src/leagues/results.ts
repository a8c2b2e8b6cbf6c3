// One match of a league in a line: who held each trio and the trio's score.
import type { ResultRow } from './decode';

export interface Trio {
  names: string; // the entrant (several joined with " / " if the seats disagree)
  score: number | null;
}

export const TRIO_SEATS: readonly [readonly number[], readonly number[]] = [[0, 2, 4], [1, 3, 5]];

function trio(result: ResultRow, seats: readonly number[]): Trio {
  const names = [...new Set(seats.map((s) => result.seats[s] ?? '').filter((n) => n !== ''))];
  const scores = seats.map((s) => result.scores[s] ?? null).filter((v): v is number => v !== null);
  return { names: names.join(' / '), score: scores.length ? scores[0]! : null };
}

export function trios(result: ResultRow): [Trio, Trio] {
  return [trio(result, TRIO_SEATS[0]), trio(result, TRIO_SEATS[1])];
}

// Which trio won: 0, 1, or null for a draw (a trio's |score| < 0.0005, as the league counts: the
// two scores sum to 0, so their difference is under 0.001) or a missing score.
export function winningTrio(result: ResultRow): 0 | 1 | null {
  const [a, b] = trios(result);
  if (a.score === null || b.score === null) return null;
  const d = a.score - b.score;
  return Math.abs(d) < 0.001 ? null : d > 0 ? 0 : 1;
}
