import { describe, expect, it } from 'vitest';
import { parseLeagueDetail, parseResultRow } from './decode';
import { DETAIL } from './fixtures.testing';
import { eloDiff, elo, score, scoreRange } from './format';
import { trios, winningTrio } from './results';

describe('a match in a line', () => {
  it('names each trio and its score', () => {
    const first = parseLeagueDetail(DETAIL)!.table.results[0]!;
    expect(trios(first)).toEqual([{ names: 'burrow', score: 0.501 }, { names: 'random', score: -0.501 }]);
    expect(winningTrio(first)).toBe(0);
  });

  it('says draw for level scores and nothing for missing ones', () => {
    const level = parseResultRow({ id: 'r', seats: ['a', 'b', 'a', 'b', 'a', 'b'], scores: [0.0002, -0.0002, 0.0002, -0.0002, 0.0002, -0.0002] })!;
    expect(winningTrio(level)).toBeNull();
    const missing = parseResultRow({ id: 'r', seats: ['a', 'b'] })!;
    expect(trios(missing)).toEqual([{ names: 'a', score: null }, { names: 'b', score: null }]);
    expect(winningTrio(missing)).toBeNull();
  });

  it('shows seats that disagree instead of hiding one', () => {
    const odd = parseResultRow({ id: 'r', seats: ['a', 'b', 'c', 'b', 'a', 'b'], scores: [1, -1, 1, -1, 1, -1] })!;
    expect(trios(odd)[0].names).toBe('a / c');
    expect(winningTrio(parseResultRow({ id: 'r', seats: ['a', 'b', 'a', 'b', 'a', 'b'], scores: [-0.5, 0.5, -0.5, 0.5, -0.5, 0.5] })!)).toBe(1);
  });
});

describe('numbers', () => {
  it('writes ratings, differences and scores', () => {
    expect(elo(1317.6)).toBe('1318');
    expect(elo(null)).toBe('—');
    expect(eloDiff(182.4)).toBe('+182');
    expect(eloDiff(-182.4)).toBe('−182');
    expect(eloDiff(0.2)).toBe('0');
    expect(eloDiff(-0.2)).toBe('0');
    expect(score(1.2213)).toBe('+1.22');
    expect(score(-0.004)).toBe('0.00');
    expect(scoreRange(-2, 0.7603)).toBe('−2.00…+0.76');
    expect(scoreRange(null, 1)).toBe('—');
  });
});
