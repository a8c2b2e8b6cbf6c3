import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from './router';
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
    ];
    for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route);
  });
});
