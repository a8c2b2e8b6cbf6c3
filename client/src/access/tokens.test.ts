import { describe, expect, it } from 'vitest';
import { MemoryStorage, OPERATOR_KEY, PRUNE_GRACE_MS, TokenStore, normaliseToken, ownerKey } from './tokens';
import type { KeyValueStorage } from './tokens';

const TOKEN_A = 'a'.repeat(64);
const TOKEN_B = '0123456789abcdef'.repeat(4);

// Storage that refuses everything, as a browser with storage disabled does.
class BrokenStorage implements KeyValueStorage {
  get length(): number {
    throw new Error('denied');
  }
  key(): string | null {
    throw new Error('denied');
  }
  getItem(): string | null {
    throw new Error('denied');
  }
  setItem(): void {
    throw new Error('denied');
  }
  removeItem(): void {
    throw new Error('denied');
  }
}

describe('owner keys and token text', () => {
  it('keys a token by kind and id', () => {
    expect(ownerKey('school', 7)).toBe('hschool.owner.school.7');
    expect(ownerKey('hns', 'm3')).toBe('hschool.owner.hns.m3');
  });

  it('trims a pasted token and refuses what cannot travel in a header', () => {
    expect(normaliseToken(`  ${TOKEN_A}\n`)).toBe(TOKEN_A);
    expect(normaliseToken('')).toBeNull();
    expect(normaliseToken('   ')).toBeNull();
    expect(normaliseToken('two words')).toBeNull();
    expect(normaliseToken('ключ')).toBeNull();
    expect(normaliseToken('x'.repeat(513))).toBeNull();
    expect(normaliseToken(42)).toBeNull();
  });
});

describe('TokenStore', () => {
  it('remembers, reads and forgets owner tokens per kind and id', () => {
    const storage = new MemoryStorage();
    const store = new TokenStore(storage);
    expect(store.rememberOwner('school', 3, TOKEN_A, 1000)).toBe(true);
    expect(store.rememberOwner('hns', 'm3', TOKEN_B, 1000)).toBe(true);
    expect(store.ownerToken('school', 3)).toBe(TOKEN_A);
    expect(store.ownerToken('school', '3')).toBe(TOKEN_A);
    expect(store.ownerToken('hns', 'm3')).toBe(TOKEN_B);
    expect(store.ownerToken('hns', 3)).toBeNull(); // kinds do not mix
    expect(store.ownedIds('school')).toEqual(['3']);
    store.forgetOwner('school', 3);
    expect(store.ownerToken('school', 3)).toBeNull();
    expect(storage.getItem(ownerKey('school', 3))).toBeNull();
    expect(store.ownerToken('hns', 'm3')).toBe(TOKEN_B);
  });

  it('lists the owned tokens of one kind, newest first', () => {
    const store = new TokenStore(new MemoryStorage());
    store.rememberOwner('school', 1, TOKEN_A, 1000);
    store.rememberOwner('school', 2, TOKEN_B, 3000);
    store.rememberOwner('school', 3, TOKEN_A, 2000);
    store.rememberOwner('hns', 'm1', TOKEN_B, 9000);
    expect(store.ownedTokens('school')).toEqual([
      { id: '2', token: TOKEN_B, storedAt: 3000 },
      { id: '3', token: TOKEN_A, storedAt: 2000 },
      { id: '1', token: TOKEN_A, storedAt: 1000 },
    ]);
    expect(store.ownedTokens('hns').map((entry) => entry.id)).toEqual(['m1']);
  });

  it('stores nothing for a create answered without a token (open mode)', () => {
    const storage = new MemoryStorage();
    const store = new TokenStore(storage);
    expect(store.rememberOwner('school', 1, undefined)).toBe(false);
    expect(store.rememberOwner('hns', 'm1', null)).toBe(false);
    expect(storage.length).toBe(0);
  });

  it('reads a bare token written by hand and ignores garbage', () => {
    const storage = new MemoryStorage();
    storage.setItem(ownerKey('school', 1), TOKEN_A);
    storage.setItem(ownerKey('school', 2), '{"token":"has space"}');
    const store = new TokenStore(storage);
    expect(store.ownerToken('school', 1)).toBe(TOKEN_A);
    expect(store.ownerToken('school', 2)).toBeNull();
  });

  it('prunes tokens of things no longer listed, but not one stored while the list was on its way', () => {
    const store = new TokenStore(new MemoryStorage());
    store.rememberOwner('school', 1, TOKEN_A, 10_000);
    store.rememberOwner('school', 2, TOKEN_A, 10_000);
    store.rememberOwner('school', 9, TOKEN_B, 50_000); // created after the list below was asked for
    store.rememberOwner('hns', 'm1', TOKEN_B, 10_000);
    const listedAt = 40_000;
    expect(store.pruneOwners('school', [1], listedAt)).toEqual(['2']);
    expect(store.ownedIds('school').sort()).toEqual(['1', '9']);
    expect(store.ownerToken('hns', 'm1')).toBe(TOKEN_B); // another kind is untouched
    // Within the grace a token is kept too; past it, it goes.
    expect(store.pruneOwners('school', [1], 50_000 + PRUNE_GRACE_MS - 1)).toEqual([]);
    expect(store.pruneOwners('school', [1], 50_000 + PRUNE_GRACE_MS + 1)).toEqual(['9']);
  });

  it('sets, validates and clears the operator token', () => {
    const storage = new MemoryStorage();
    const store = new TokenStore(storage);
    expect(store.operatorToken()).toBeNull();
    expect(store.setOperatorToken('not a token')).toBe(false);
    expect(storage.getItem(OPERATOR_KEY)).toBeNull();
    expect(store.setOperatorToken(`${TOKEN_B}\n`)).toBe(true);
    expect(store.operatorToken()).toBe(TOKEN_B);
    expect(store.ownedIds('school')).toEqual([]); // the operator token is not an owner's
    store.clearOperatorToken();
    expect(store.operatorToken()).toBeNull();
  });

  it('keeps working when storage throws', () => {
    const store = new TokenStore(new BrokenStorage());
    expect(store.rememberOwner('school', 1, TOKEN_A)).toBe(false);
    expect(store.ownerToken('school', 1)).toBeNull();
    expect(store.setOperatorToken(TOKEN_A)).toBe(false);
    expect(store.operatorToken()).toBeNull();
    expect(store.pruneOwners('school', [], Date.now())).toEqual([]);
    expect(() => store.clearOperatorToken()).not.toThrow();
  });
});
