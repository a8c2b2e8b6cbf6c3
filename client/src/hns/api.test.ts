import { describe, expect, it } from 'vitest';
import { freeSlots, parseCreated, parseDetail, parseMatchList, parseResults, parseSummary, parseVariants, sideOf } from './api';

const seat = (slot: number, kind: string, side: string, extra: Record<string, unknown> = {}) => ({
  slot, identity: kind === 'empty' ? '' : `Cog${slot + 1}`, kind, label: kind === 'scripted' ? 'burrow' : '', side, connected: kind !== 'empty', ...extra,
});

// The contract's example summary.
const summary = {
  id: 'm3', variant: 'certification', default: false, phase: 'playing', matchPhase: 'prep', game: 1, games: 2,
  tick: 412, gameTick: 120, phaseTicksLeft: 60, hiddenTicks: 40, seenTicks: 3, fastMode: true, spectators: 1,
  seats: [0, 1, 2, 3, 4, 5].map((s) => seat(s, s === 0 ? 'manual' : 'scripted', s % 2 === 0 ? 'hider' : 'seeker')),
  finishedAt: null,
};

// As written by `hschool-hns run --variant certification --results` (src/sim/hns/results.cpp).
const results = {
  names: ['Cog1', 'Cog2', 'Cog3', 'Cog4', 'Cog5', 'Cog6'],
  aliases: ['HIDER-alpha', 'SEEKER-alpha', 'HIDER-beta', 'SEEKER-beta', 'HIDER-gamma', 'SEEKER-gamma'],
  team: ['hiders', 'seekers', 'hiders', 'seekers', 'hiders', 'seekers'],
  scores: [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
  win: [false, false, false, false, false, false],
  reason: 'complete', endRule: 'full_time', games: 2,
  gameMargins: [269, 269], hiddenTicks: [172, 172], seenTicks: [99, 99], huntTicksPlayed: [271, 271],
  seatSeenTicks: [0, 0, 99, 99, 0, 0], sealedTicks: [0, 0, 0, 0, 0, 0],
  grabs: [1, 1, 0, 0, 1, 1], pushedPx: [109, 160, 0, 0, 157, 109], locks: [1, 0, 0, 0, 1, 1], vaults: [0, 0, 0, 0, 0, 0],
  shouts: [0, 1, 0, 0, 1, 0], room: 'warren', policyKinds: ['scripted', 'scripted', 'scripted', 'scripted', 'scripted', 'scripted'],
};

describe('hide-and-seek REST parsing', () => {
  it('reads a summary as the contract writes it', () => {
    const parsed = parseSummary(summary)!;
    expect(parsed).toMatchObject({
      id: 'm3', variant: 'certification', isDefault: false, phase: 'playing', matchPhase: 'prep', game: 1, games: 2,
      tick: 412, phaseTicksLeft: 60, hiddenTicks: 40, seenTicks: 3, fastMode: true, spectators: 1, finishedAt: null,
    });
    expect(parsed.seats).toHaveLength(6);
    expect(parsed.seats[0]).toEqual({ slot: 0, identity: 'Cog1', kind: 'manual', label: '', side: 'hider', connected: true });
    expect(parsed.seats[1]!.side).toBe('seeker');
  });

  it('survives missing and mistyped fields', () => {
    expect(parseSummary({})).toBeNull();
    expect(parseSummary(null)).toBeNull();
    const parsed = parseSummary({ id: 7, phase: 'exploded', seats: [null, { kind: 'robot' }], tick: '12' })!;
    expect(parsed.id).toBe('7');
    expect(parsed.phase).toBe('lobby');
    expect(parsed.tick).toBe(0);
    expect(parsed.phaseTicksLeft).toBeNull();
    expect(parsed.seats.map((s) => [s.slot, s.kind, s.side])).toEqual([[0, 'empty', null], [1, 'empty', null]]);
  });

  it('reads the list, dropping entries without an id, in the server order', () => {
    const list = parseMatchList({ matches: [summary, { nope: true }, { ...summary, id: 'm1', phase: 'finished', finishedAt: 1764590000000 }] });
    expect(list.map((m) => [m.id, m.phase, m.finishedAt])).toEqual([['m3', 'playing', null], ['m1', 'finished', 1764590000000]]);
    expect(parseMatchList({})).toEqual([]);
    expect(parseMatchList('<html>')).toEqual([]);
  });

  it('reads the variants', () => {
    expect(parseVariants({ variants: ['default', 'warren', 'long-hall', 'certification'] })).toEqual(['default', 'warren', 'long-hall', 'certification']);
    expect(parseVariants({ variants: ['a', 3, ''] })).toEqual(['a']);
    expect(parseVariants(null)).toEqual([]);
  });

  it('reads the results document per seat and per game, with sides swapping every game', () => {
    const parsed = parseResults(results)!;
    expect(parsed.room).toBe('warren');
    expect(parsed.endRule).toBe('full_time');
    expect(parsed.seats).toHaveLength(6);
    expect(parsed.seats[2]).toEqual({
      slot: 2, name: 'Cog3', alias: 'HIDER-beta', sides: ['hider', 'seeker'], score: 0, win: false,
      seenTicks: 99, sealedTicks: 0, grabs: 0, locks: 0, vaults: 0, policyKind: 'scripted',
    });
    expect(parsed.seats[1]!.sides).toEqual(['seeker', 'hider']);
    expect(parsed.seats[4]!.locks).toBe(1);
    expect(parsed.games).toEqual([
      { game: 1, hiddenTicks: 172, seenTicks: 99, margin: 269, huntTicks: 271 },
      { game: 2, hiddenTicks: 172, seenTicks: 99, margin: 269, huntTicks: 271 },
    ]);
  });

  it('has no results for null or a non-object, and tolerates short arrays', () => {
    expect(parseResults(null)).toBeNull();
    expect(parseResults([1, 2])).toBeNull();
    const parsed = parseResults({ names: ['A', 'B'], grabs: [3] })!;
    expect(parsed.seats.map((s) => [s.name, s.grabs, s.sides[0]])).toEqual([['A', 3, 'hider'], ['B', null, 'seeker']]);
    expect(parsed.games).toEqual([]);
  });

  it('reads a detail with and without results', () => {
    expect(parseDetail({ ...summary, results: null })!.results).toBeNull();
    expect(parseDetail({ ...summary, phase: 'finished', results })!.results!.seats).toHaveLength(6);
  });

  it('reads the owner token of a created match, and its absence in open mode', () => {
    const token = 'f'.repeat(64);
    expect(parseCreated({ ...summary, ownerToken: token })).toMatchObject({ id: 'm3', ownerToken: token });
    expect(parseCreated(summary)!.ownerToken).toBeNull();
    expect(parseCreated({ ...summary, ownerToken: 7 })!.ownerToken).toBeNull();
    expect(parseCreated({ ownerToken: token })).toBeNull(); // no id: not a match
  });

  it('offers only empty seats of a match in its lobby', () => {
    const lobby = parseSummary({ ...summary, phase: 'lobby', seats: [seat(0, 'empty', 'hider'), ...[1, 2, 3, 4, 5].map((s) => seat(s, 'scripted', 'x'))] })!;
    expect(freeSlots(lobby)).toEqual([0]);
    expect(freeSlots(parseSummary(summary)!)).toEqual([]);
  });

  it('knows which side a slot is on in each game', () => {
    expect([0, 1, 2, 3, 4, 5].map((s) => sideOf(s, 1))).toEqual(['hider', 'seeker', 'hider', 'seeker', 'hider', 'seeker']);
    expect([0, 1].map((s) => sideOf(s, 2))).toEqual(['seeker', 'hider']);
    expect(sideOf(0, 3)).toBe('hider');
  });
});
