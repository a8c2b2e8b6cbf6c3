import { describe, expect, it } from 'vitest';
import { parseLeagueDetail, parseLeagueTable } from './decode';
import type { PairRow } from './decode';
import { DETAIL } from './fixtures.testing';
import { buildGrid, rankEntrants } from './grid';

const pair = (a: string, b: string, extra: Partial<PairRow> = {}): PairRow =>
  ({ a, b, matches: 5, aWins: 3, bWins: 1, draws: 1, meanMargin: 0.4, low: -0.1, high: 0.9, ...extra });

describe('the pairwise grid', () => {
  it('reads each pair from the row entrant\'s side', () => {
    const grid = buildGrid(['x', 'y'], [pair('x', 'y')]);
    expect(grid.cells[0]![1]).toEqual({ matches: 5, wins: 3, draws: 1, losses: 1, margin: 0.4, low: -0.1, high: 0.9 });
    expect(grid.cells[1]![0]).toEqual({ matches: 5, wins: 1, draws: 1, losses: 3, margin: -0.4, low: -0.9, high: 0.1 });
    expect(grid.cells[0]![0]).toBeNull();
    expect(grid.cells[1]![1]).toBeNull();
  });

  it('is antisymmetric over the whole sample league, in the ranked order', () => {
    const table = parseLeagueDetail(DETAIL)!.table;
    const names = rankEntrants(table.entrants).map((e) => e.name);
    expect(names).toEqual(['burrow', 'idle', 'random']);
    const grid = buildGrid(names, table.pairs);
    for (let r = 0; r < names.length; r++) {
      for (let c = 0; c < names.length; c++) {
        const cell = grid.cells[r]![c];
        if (r === c) {
          expect(cell).toBeNull();
          continue;
        }
        const mirror = grid.cells[c]![r]!;
        expect(cell!.wins).toBe(mirror.losses);
        expect(cell!.draws).toBe(mirror.draws);
        expect(cell!.matches).toBe(mirror.matches);
        expect(cell!.margin).toBe(-mirror.margin!);
        expect(cell!.low).toBe(-mirror.high!);
      }
    }
    // burrow swept random 3–0 with a mean margin of 1.2467.
    expect(grid.cells[0]![2]).toMatchObject({ wins: 3, draws: 0, losses: 0, margin: 1.2467 });
  });

  it('leaves a pair it was never sent empty, ignores strangers and repeats', () => {
    const grid = buildGrid(['x', 'y', 'z'], [pair('x', 'y'), pair('y', 'x', { aWins: 9 }), pair('q', 'x')]);
    expect(grid.cells[0]![1]!.wins).toBe(3); // the first row for a pair counts
    expect(grid.cells[0]![2]).toBeNull();
    expect(grid.cells[2]![1]).toBeNull();
  });

  it('keeps a missing margin missing, never -0', () => {
    const grid = buildGrid(['x', 'y'], [pair('x', 'y', { meanMargin: null, low: null, high: 0 })]);
    expect(grid.cells[1]![0]).toMatchObject({ margin: null, low: 0, high: null });
    expect(Object.is(grid.cells[1]![0]!.low, -0)).toBe(false);
  });
});

describe('ranking', () => {
  it('puts the best rating first, no rating last, and keeps ties in table order', () => {
    const table = parseLeagueTable({ entrants: [{ name: 'a', rating: 1500 }, { name: 'b' }, { name: 'c', rating: 1600 }, { name: 'd', rating: 1500 }, { name: 'e' }] });
    expect(rankEntrants(table.entrants).map((e) => e.name)).toEqual(['c', 'a', 'd', 'b', 'e']);
  });
});
