import { describe, expect, it } from 'vitest';
import { parseRoute, routeHash } from './router';

describe('hash routes', () => {
  it.each([
    ['', { name: 'menu' }],
    ['#/', { name: 'menu' }],
    ['#/school/3', { name: 'school', id: 3 }],
    ['#/arena', { name: 'arena' }],
    ['#/nowhere', { name: 'menu' }],
    ['#/school/abc', { name: 'menu' }],
  ])('parses %j', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('round-trips every route', () => {
    for (const route of [{ name: 'menu' }, { name: 'school', id: 12 }, { name: 'arena' }] as const) {
      expect(parseRoute(routeHash(route))).toEqual(route);
    }
  });
});
