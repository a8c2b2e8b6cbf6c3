import { describe, expect, it } from 'vitest';
import { pageRoute, parseRoute, readPageHint, routeHash } from './router';
import type { Route } from './router';

describe('hash routes', () => {
  it.each([
    ['', { name: 'menu' }],
    ['#/', { name: 'menu' }],
    ['#/school/3', { name: 'school', id: 3 }],
    ['#/arena', { name: 'arena' }],
    ['#/nowhere', { name: 'menu' }],
    ['#/school/abc', { name: 'menu' }],
    ['#/hns', { name: 'hns' }],
    ['#/hns/', { name: 'hns' }],
    ['#/hns/watch/m3', { name: 'hnsWatch', match: 'm3' }],
    ['#/hns/play/m3/0', { name: 'hnsPlay', match: 'm3', slot: 0 }],
    ['#/hns/play/m3', { name: 'menu' }],
    ['#/hns/replay/m12', { name: 'hnsReplay', match: 'm12' }],
    ['#/hns/results/m12', { name: 'hnsResults', match: 'm12' }],
    ['#/hns/watch/m3%20x', { name: 'menu' }],
    ['#/hns/leagues', { name: 'hnsLeagues' }],
    ['#/hns/leagues/', { name: 'hnsLeagues' }],
    ['#/hns/leagues/l7', { name: 'hnsLeague', league: 'l7' }],
    ['#/hns/leagues/l7/x', { name: 'menu' }],
    ['#/hns/leagues/l%207', { name: 'menu' }],
  ])('parses %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('round-trips every route', () => {
    const routes: Route[] = [
      { name: 'menu' },
      { name: 'school', id: 12 },
      { name: 'arena' },
      { name: 'hns' },
      { name: 'hnsWatch', match: 'm1' },
      { name: 'hnsPlay', match: 'm1', slot: 5 },
      { name: 'hnsReplay', match: 'm1' },
      { name: 'hnsResults', match: 'm1' },
      { name: 'hnsLeagues' },
      { name: 'hnsLeague', league: 'l1' },
    ];
    for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route);
  });
});

describe('server pages (/client/...)', () => {
  it('opens a seat with its slot and token', () => {
    expect(pageRoute({ view: 'player', match: 'm1' }, '?slot=2&token=token-2')).toEqual({ name: 'hnsPlay', match: 'm1', slot: 2, token: 'token-2' });
    expect(pageRoute({ view: 'player', match: 'm1' }, '?slot=0')).toEqual({ name: 'hnsPlay', match: 'm1', slot: 0 });
  });

  it('refuses a seat page without a usable slot or match', () => {
    expect(pageRoute({ view: 'player', match: 'm1' }, '')).toBeNull();
    expect(pageRoute({ view: 'player', match: 'm1' }, '?slot=')).toBeNull();
    expect(pageRoute({ view: 'player', match: 'm1' }, '?slot=x')).toBeNull();
    expect(pageRoute({ view: 'player', match: 'm1' }, '?slot=40')).toBeNull();
    expect(pageRoute({ view: 'player', match: '' }, '?slot=1')).toBeNull();
    expect(pageRoute({ view: 'player', match: 'a b' }, '?slot=1')).toBeNull();
  });

  it('watches the named match, else lists the matches', () => {
    expect(pageRoute({ view: 'global', match: 'm4' }, '')).toEqual({ name: 'hnsWatch', match: 'm4' });
    expect(pageRoute({ view: 'global', match: '' }, '')).toEqual({ name: 'hns' });
  });

  it('replays the named match, or the replay server\'s own', () => {
    expect(pageRoute({ view: 'replay', match: 'm4' }, '')).toEqual({ name: 'hnsReplay', match: 'm4' });
    expect(pageRoute({ view: 'replay', match: '' }, '')).toEqual({ name: 'hnsReplay', match: '' });
  });

  it('ignores pages it does not know and plain pages', () => {
    expect(pageRoute({ view: 'other', match: 'm1' }, '')).toBeNull();
    expect(pageRoute(null, '?slot=1')).toBeNull();
  });

  it('reads the hint from the meta tag', () => {
    const meta = { getAttribute: (name: string) => (name === 'content' ? 'global' : 'm9') };
    expect(readPageHint({ querySelector: () => meta } as unknown as Document)).toEqual({ view: 'global', match: 'm9' });
    expect(readPageHint({ querySelector: () => null } as unknown as Document)).toBeNull();
  });

  it('keeps the token out of the hash', () => {
    expect(routeHash({ name: 'hnsPlay', match: 'm1', slot: 2, token: 'secret' })).toBe('#/hns/play/m1/2');
  });
});
