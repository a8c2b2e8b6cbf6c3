import { describe, expect, it } from 'vitest';
import { MAX_SCHOOL_SOCKET_TOKENS, schoolSocketTokens } from '../access/permissions';
import { gameSocketUrl } from './reconnectingSocket';

const page = { protocol: 'http:', host: 'example.test:8080' };

// What the server does with the request target: take the parameter, percent-decode it, split at commas.
function tokensTheServerReads(url: string): string[] {
  const value = new URL(url).searchParams.get('ownerToken');
  return value === null ? [] : value.split(',').filter((token) => token !== '');
}

describe('the schools socket URL', () => {
  it('is exactly the one before owners mode when there are no tokens', () => {
    expect(gameSocketUrl(page)).toBe('ws://example.test:8080/ws/game');
    expect(gameSocketUrl(page, [])).toBe('ws://example.test:8080/ws/game');
    expect(gameSocketUrl({ protocol: 'https:', host: 'school.example' })).toBe('wss://school.example/ws/game');
  });

  it('carries the tokens as one comma-separated ownerToken parameter', () => {
    const a = 'a'.repeat(64);
    const b = '0123456789abcdef'.repeat(4);
    expect(gameSocketUrl(page, [a, b])).toBe(`ws://example.test:8080/ws/game?ownerToken=${a},${b}`);
    expect(gameSocketUrl({ protocol: 'https:', host: 'school.example' }, [a])).toBe(`wss://school.example/ws/game?ownerToken=${a}`);
  });

  it('percent-encodes a hand-made token so it arrives whole', () => {
    const odd = 'p+q&r=s#t%u/v?w';
    const url = gameSocketUrl(page, [odd, 'plain']);
    expect(url).not.toContain('#');
    expect(url).not.toContain('&r=');
    expect(tokensTheServerReads(url)).toEqual([odd, 'plain']);
  });

  it('hands the server at most 16 tokens, each the one kept', () => {
    const owned = Array.from({ length: 20 }, (_, i) => ({ id: String(i), token: `${i}`.padStart(64, 'e') }));
    const operator = 'f'.repeat(64);
    const tokens = schoolSocketTokens('owners', 19, owned, operator);
    const read = tokensTheServerReads(gameSocketUrl(page, tokens));
    expect(read).toHaveLength(MAX_SCHOOL_SOCKET_TOKENS);
    expect(read).toEqual(tokens);
    expect(read.slice(0, 2)).toEqual([owned[19]!.token, operator]);
  });
});
