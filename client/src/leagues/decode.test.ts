import { describe, expect, it } from 'vitest';
import {
  MAX_ENTRANTS, MAX_LEAGUES, MAX_RESULTS, MAX_TEXT, SEATS, parseCreatedLeague, parseLeagueDetail, parseLeagueList, parseLeagueSummary,
  needsPolling, parseLeagueTable, progressFraction,
} from './decode';
import { DETAIL, LEAGUE_JSON } from './fixtures.testing';

// Every value a decoded document holds, walked: no undefined, no NaN, no infinity anywhere.
function assertClean(value: unknown, path = '$'): void {
  expect(value, path).not.toBeUndefined();
  if (typeof value === 'number') expect(Number.isFinite(value), `${path} = ${value}`).toBe(true);
  if (Array.isArray(value)) value.forEach((v, i) => assertClean(v, `${path}[${i}]`));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) assertClean(v, `${path}.${k}`);
}

const HOSTILE: unknown[] = [
  undefined, null, 0, -1, NaN, Infinity, '', 'garbage', '{"id":"l1","sta', '<html>502</html>', true, [], [1, 2, 3], {},
  { id: {} }, { id: 'l 1' }, { id: 'x'.repeat(100) }, { id: 'l1', state: 42, progress: 'half', table: 'nope' },
  { id: 'l1', table: { entrants: 'all', pairs: {}, results: null } },
  { id: 'l1', table: { entrants: [null, 1, 'a', [], { name: 5 }], pairs: [null, { a: 'x' }, { a: 'x', b: 'x' }], results: [null, {}, { id: [] }] } },
];

describe('a league as the server writes it', () => {
  it('reads the table of league.json', () => {
    const detail = parseLeagueDetail(DETAIL)!;
    expect(detail).toMatchObject({ id: 'l1', state: 'finished', progress: { played: 9, planned: 9 }, variant: 'certification', matches: 3, seed: '1', error: '' });
    expect(detail.entrants[2]).toEqual({ name: 'idle', kind: 'builtin:idle', fallback: '' });
    const table = detail.table;
    expect(table.method).toEqual({ name: 'gaussian-margin-map', level: 0.95, provisionalWidth: 200, noiseSigma: 0.72, clearPairsRespected: true });
    expect(table.gameVersion).toBe('2');
    expect(table.matchesPerPairing).toBe(3);
    expect(table.seed).toBe('1');
    expect(table.entrants.map((e) => e.name)).toEqual(['burrow', 'random', 'idle']);
    expect(table.entrants[1]).toEqual({
      name: 'random', kind: 'builtin:random', fallback: '', rating: 1136.6, low: 949.9, high: 1323.3, matches: 6, wins: 0, draws: 0, losses: 6,
      meanScore: -0.5765, provisional: true, vor: { baseline: 'burrow', value: -569.4, low: -892.9, high: -246 }, promptTurns: null,
    });
    expect(table.pairs[0]).toEqual({ a: 'burrow', b: 'random', matches: 3, aWins: 3, bWins: 0, draws: 0, meanMargin: 1.2467, low: -0.407, high: 2 });
    expect(table.results).toHaveLength(9);
    expect(table.results[0]).toEqual({
      id: '0001', seed: '1216681718', variant: 'certification', gameVersion: '2',
      seats: ['burrow', 'random', 'burrow', 'random', 'burrow', 'random'], scores: [0.501, -0.501, 0.501, -0.501, 0.501, -0.501], replay: 'm40',
    });
    expect(table.resultsCapped).toBe(false);
    assertClean(detail);
  });

  it('reads the list and the 201 with its owner token', () => {
    const entry = {
      id: 'l2', state: 'running', progress: { played: 1, planned: 4 }, variant: 'default', matches: 4, seed: -3,
      entrants: [{ name: 'a', kind: 'builtin:burrow' }, { name: 'b', kind: 'prompt', fallback: 'no_credentials' }],
      createdAt: 1, endedAt: null, error: null,
    };
    expect(parseLeagueList({ leagues: [entry] })).toEqual([{
      id: 'l2', state: 'running', progress: { played: 1, planned: 4 }, variant: 'default', matches: 4, seed: '-3', error: '',
      entrants: [{ name: 'a', kind: 'builtin:burrow', fallback: '' }, { name: 'b', kind: 'prompt', fallback: 'no_credentials' }],
    }]);
    expect(parseLeagueSummary({ ...entry, state: 'stopped', error: 'match 0003 failed' })).toMatchObject({ state: 'stopped', error: 'match 0003 failed' });
    expect(parseCreatedLeague({ ...entry, ownerToken: 'abc' })?.ownerToken).toBe('abc');
    expect(parseCreatedLeague(entry)?.ownerToken).toBeNull();
    expect(parseCreatedLeague({ ...entry, ownerToken: 7 })?.ownerToken).toBeNull();
  });

  it('keeps a league.json headless replay file out of the replay links', () => {
    const table = parseLeagueTable({ results: [{ id: '0001', replay: '0001.cowldhns' }, { id: '0002', replay: 'm7' }, { id: '0003', replay: '../x' }] });
    expect(table.results.map((r) => r.replay)).toEqual([null, 'm7', null]);
  });
});

describe('hostile answers', () => {
  it.each(HOSTILE.map((v) => [v]))('never throw and never leave undefined or NaN: %j', (raw) => {
    expect(() => parseLeagueDetail(raw)).not.toThrow();
    expect(() => parseLeagueList(raw)).not.toThrow();
    expect(() => parseLeagueTable(raw)).not.toThrow();
    expect(() => parseCreatedLeague(raw)).not.toThrow();
    const detail = parseLeagueDetail(raw);
    if (detail) assertClean(detail);
    assertClean(parseLeagueTable(raw));
    assertClean(parseLeagueList(raw));
  });

  it('refuses a detail or summary without a usable id', () => {
    for (const raw of [null, 'garbage', {}, { id: '' }, { id: 'a b' }, { id: 'x'.repeat(65) }, { id: null }]) {
      expect(parseLeagueDetail(raw)).toBeNull();
      expect(parseLeagueSummary(raw)).toBeNull();
    }
    expect(parseLeagueDetail({ id: 3 })?.id).toBe('3');
  });

  it('reads a truncated table as far as it goes', () => {
    const table = structuredClone(LEAGUE_JSON) as Record<string, unknown>;
    delete table.pairs;
    delete table.method;
    table.results = (table.results as unknown[]).slice(0, 2);
    (table.entrants as Array<Record<string, unknown>>)[2] = { name: 'idle' }; // cut short
    const parsed = parseLeagueDetail({ id: 'l1', state: 'running', table })!;
    assertClean(parsed);
    expect(parsed.table.pairs).toEqual([]);
    expect(parsed.table.method).toBeNull();
    expect(parsed.table.results).toHaveLength(2);
    expect(parsed.table.entrants[2]).toMatchObject({ name: 'idle', rating: null, low: null, high: null, matches: 0, meanScore: null, provisional: true, vor: null });
    // No progress object: the table's own counts.
    expect(parsed.progress).toEqual({ played: 9, planned: 9 });
  });

  it('reads how a prompt entrant asked the model, and never a wrong count', () => {
    const table = parseLeagueTable({
      entrants: [
        { name: 'p', kind: 'prompt', modelTurns: 46, fallbackTurns: 2 },
        { name: 'q', kind: 'prompt', fallback: 'no_credentials', modelTurns: 0, fallbackTurns: 48 },
        { name: 'h', kind: 'prompt', modelTurns: -3, fallbackTurns: 'many' },
        { name: 'b', kind: 'builtin:burrow' },
      ],
    });
    expect(table.entrants.map((e) => e.promptTurns)).toEqual([{ model: 46, fallback: 2 }, { model: 0, fallback: 48 }, { model: 0, fallback: 0 }, null]);
  });

  it('turns wrong types and out-of-range numbers into nothing, never into a wrong number', () => {
    const table = parseLeagueTable({
      entrants: [{
        name: 'a', kind: 1, rating: 'high', low: 1e300, high: -Infinity, matches: -4, wins: 2.7, draws: '3', losses: 1e20, meanScore: NaN, provisional: 'no',
        vor: { baseline: 'b', value: 'x' },
      }],
      pairs: [{ a: 'a', b: 'b', matches: -1, aWins: null, bWins: 1, draws: 0, meanMargin: 5000, low: 'x', high: 2 }],
      results: [{ id: 'r1', seed: 1.5, seats: ['a', 7], scores: [0.5, 'x', NaN, 1e9], replay: 42 }],
      seed: 2 ** 60, // past 2^53: its digits are already wrong
    });
    expect(table.entrants[0]).toEqual({
      name: 'a', kind: '', fallback: '', rating: null, low: null, high: null, matches: 0, wins: 2, draws: 0, losses: 1_000_000_000, meanScore: null, provisional: true, vor: null,
      promptTurns: null,
    });
    expect(table.pairs[0]).toEqual({ a: 'a', b: 'b', matches: 0, aWins: 0, bWins: 1, draws: 0, meanMargin: null, low: null, high: 2 });
    expect(table.results[0]).toEqual({ id: 'r1', seed: '', variant: '', gameVersion: '', seats: ['a', '', '', '', '', ''], scores: [0.5, null, null, null, null, null], replay: '42' });
    expect(table.seed).toBe('');
  });

  it('puts an interval that runs backwards or misses its rating in order', () => {
    const [e] = parseLeagueTable({ entrants: [{ name: 'a', rating: 1600, low: 1700, high: 1650 }] }).entrants;
    expect([e!.low, e!.rating, e!.high]).toEqual([1600, 1600, 1700]);
    const [p] = parseLeagueTable({ pairs: [{ a: 'a', b: 'b', meanMargin: 0.5, low: 1, high: -1 }] }).pairs;
    expect([p!.low, p!.meanMargin, p!.high]).toEqual([-1, 0.5, 1]);
  });

  it('caps huge arrays and long strings', () => {
    const many: unknown[] = Array.from({ length: MAX_RESULTS + 500 }, (_, i) => ({ id: `r${i}` }));
    many[0] = { id: 'r0', seats: Array(100_000).fill('x'), scores: Array(100_000).fill(0) };
    const table = parseLeagueTable({
      entrants: Array.from({ length: 1000 }, (_, i) => ({ name: `e${i}` })),
      results: many,
    });
    expect(table.entrants).toHaveLength(MAX_ENTRANTS);
    expect(table.results).toHaveLength(MAX_RESULTS);
    expect(table.resultsCapped).toBe(true);
    expect(table.results[0]!.seats).toHaveLength(SEATS);
    expect(table.results[0]!.scores).toHaveLength(SEATS);
    const list = parseLeagueList({ leagues: Array.from({ length: MAX_LEAGUES * 3 }, (_, i) => ({ id: `l${i}` })) });
    expect(list).toHaveLength(MAX_LEAGUES);
    const long = parseLeagueTable({ entrants: [{ name: 'n'.repeat(10_000), kind: 'k'.repeat(10_000) }] }).entrants[0]!;
    expect(long.name).toHaveLength(MAX_TEXT);
    expect(long.kind).toHaveLength(MAX_TEXT);
  });

  it('keeps the first of two entrants with one name, and drops nameless ones', () => {
    const table = parseLeagueTable({ entrants: [{ name: 'a', rating: 1 }, { name: '' }, { name: 'a', rating: 2 }, { name: 'b' }] });
    expect(table.entrants.map((e) => [e.name, e.rating])).toEqual([['a', 1], ['b', null]]);
  });

  it('takes an unknown state as running only where the page must keep asking', () => {
    expect(parseLeagueDetail({ id: 'l1', state: 'exploded' })!.state).toBe('running');
    expect(parseLeagueDetail({ id: 'l1', table: { state: 'stopped' } })!.state).toBe('stopped');
  });
});

describe('when the page asks again', () => {
  const detail = (state: string, table: Record<string, unknown> | null, played = 3) => parseLeagueDetail({ id: 'l1', state, progress: { played, planned: 9 }, table })!;

  it('asks while the league runs, and until its table has caught up with the summary', () => {
    expect(needsPolling(detail('running', { state: 'running', played: 3 }))).toBe(true);
    expect(needsPolling(detail('stopped', { state: 'running', played: 3 }))).toBe(true);
    expect(needsPolling(detail('stopped', { state: 'stopped', played: 2 }))).toBe(true);
    expect(needsPolling(detail('stopped', { state: 'stopped', played: 3 }))).toBe(false);
    expect(needsPolling(detail('finished', null))).toBe(false);
    expect(needsPolling(detail('finished', { state: 'finished', played: 'x' }))).toBe(false);
  });
});

describe('progress', () => {
  it('is a share of the planned matches, clamped', () => {
    expect(progressFraction({ played: 3, planned: 12 }, 'running')).toBe(0.25);
    expect(progressFraction({ played: 30, planned: 12 }, 'running')).toBe(1);
    expect(progressFraction({ played: 0, planned: 0 }, 'running')).toBe(0);
    expect(progressFraction({ played: 0, planned: 0 }, 'stopped')).toBe(1);
  });
});

