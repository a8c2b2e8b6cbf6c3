// The pairwise results as a square grid: the row's entrant against the column's, wins, draws and
// losses from the row's side, and the row's mean margin with its interval (pairs[] holds each
// unordered pair once, as a against b).
import type { EntrantRow, PairRow } from './decode';

export interface GridCell {
  matches: number;
  wins: number;
  draws: number;
  losses: number;
  margin: number | null;
  low: number | null;
  high: number | null;
}

export interface Grid {
  names: string[];
  cells: Array<Array<GridCell | null>>; // cells[row][col]; null on the diagonal and for a pair never sent
}

const negate = (v: number | null): number | null => (v === null ? null : -v + 0); // + 0: no "-0"

export function cellFor(pair: PairRow, rowIsA: boolean): GridCell {
  if (rowIsA) return { matches: pair.matches, wins: pair.aWins, draws: pair.draws, losses: pair.bWins, margin: pair.meanMargin, low: pair.low, high: pair.high };
  return { matches: pair.matches, wins: pair.bWins, draws: pair.draws, losses: pair.aWins, margin: negate(pair.meanMargin), low: negate(pair.high), high: negate(pair.low) };
}

export function buildGrid(names: readonly string[], pairs: readonly PairRow[]): Grid {
  const byPair = new Map<string, PairRow>();
  const key = (a: string, b: string) => JSON.stringify([a, b]);
  for (const pair of pairs) {
    if (!byPair.has(key(pair.a, pair.b)) && !byPair.has(key(pair.b, pair.a))) byPair.set(key(pair.a, pair.b), pair);
  }
  const cells = names.map((row) => names.map((col) => {
    if (row === col) return null;
    const asA = byPair.get(key(row, col));
    if (asA) return cellFor(asA, true);
    const asB = byPair.get(key(col, row));
    return asB ? cellFor(asB, false) : null;
  }));
  return { names: [...names], cells };
}

// Best rating first; no rating last; equal ratings keep the table's order.
export function rankEntrants(entrants: readonly EntrantRow[]): EntrantRow[] {
  return entrants
    .map((entrant, index) => ({ entrant, index }))
    .sort((x, y) => {
      const a = x.entrant.rating;
      const b = y.entrant.rating;
      if (a === null || b === null) return a === b ? x.index - y.index : a === null ? 1 : -1;
      return b - a || x.index - y.index;
    })
    .map((x) => x.entrant);
}
