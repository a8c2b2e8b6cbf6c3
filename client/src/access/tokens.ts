// The credentials this browser holds: owner tokens of the schools and matches it created (the server
// gives each one once, in the 201 body) and the operator's token pasted in the settings.
export type OwnedKind = 'school' | 'hns' | 'league';

// What the store needs of localStorage; a Map-backed one stands in when storage is disabled.
export interface KeyValueStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export const OWNER_KEY_PREFIX = 'hschool.owner.';
export const OPERATOR_KEY = 'hschool.operatorToken';
// A list answered this long after a token was stored must already hold its school or match.
export const PRUNE_GRACE_MS = 5_000;
// Visible ASCII only: a token goes into an Authorization header and a query parameter.
const TOKEN_PATTERN = /^[\x21-\x7e]{1,512}$/;

export const ownerKey = (kind: OwnedKind, id: string | number): string => `${OWNER_KEY_PREFIX}${kind}.${id}`;

// A pasted token loses surrounding blanks (a file read with cat ends in a newline); anything else
// that cannot travel in a header is refused rather than silently changed.
export function normaliseToken(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const token = raw.trim();
  return TOKEN_PATTERN.test(token) ? token : null;
}

interface StoredOwner {
  token: string;
  storedAt: number; // unix ms, so a list fetched before the create never prunes it
}

export interface OwnedToken extends StoredOwner {
  id: string;
}

function parseStoredOwner(value: string | null): StoredOwner | null {
  if (value === null) return null;
  try {
    const parsed = JSON.parse(value) as unknown;
    if (typeof parsed === 'object' && parsed !== null) {
      const o = parsed as Record<string, unknown>;
      const token = normaliseToken(o.token);
      if (token) return { token, storedAt: typeof o.storedAt === 'number' ? o.storedAt : 0 };
    }
  } catch {
    // Not JSON: a bare token written by hand is accepted as well.
  }
  const bare = normaliseToken(value);
  return bare ? { token: bare, storedAt: 0 } : null;
}

export class MemoryStorage implements KeyValueStorage {
  private readonly entries = new Map<string, string>();
  get length(): number {
    return this.entries.size;
  }
  key(index: number): string | null {
    return [...this.entries.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.entries.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.entries.set(key, value);
  }
  removeItem(key: string): void {
    this.entries.delete(key);
  }
}

export class TokenStore {
  constructor(private readonly storage: KeyValueStorage) {}

  ownerToken(kind: OwnedKind, id: string | number): string | null {
    return parseStoredOwner(this.read(ownerKey(kind, id)))?.token ?? null;
  }

  rememberOwner(kind: OwnedKind, id: string | number, token: unknown, now = Date.now()): boolean {
    const clean = normaliseToken(token);
    if (!clean) return false;
    return this.write(ownerKey(kind, id), JSON.stringify({ token: clean, storedAt: now } satisfies StoredOwner));
  }

  forgetOwner(kind: OwnedKind, id: string | number): void {
    this.remove(ownerKey(kind, id));
  }

  // Ids of this kind that have a token here.
  ownedIds(kind: OwnedKind): string[] {
    const prefix = `${OWNER_KEY_PREFIX}${kind}.`;
    const ids: string[] = [];
    for (const key of this.keys()) if (key.startsWith(prefix)) ids.push(key.slice(prefix.length));
    return ids;
  }

  // The tokens of this kind held here, newest first (the one just created leads).
  ownedTokens(kind: OwnedKind): OwnedToken[] {
    const owned: OwnedToken[] = [];
    for (const id of this.ownedIds(kind)) {
      const stored = parseStoredOwner(this.read(ownerKey(kind, id)));
      if (stored) owned.push({ id, ...stored });
    }
    return owned.sort((a, b) => b.storedAt - a.storedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  // Drops tokens of things the server no longer lists. `listRequestedAt` is when the list was asked
  // for: a token stored later (another tab's create racing the list) is kept.
  pruneOwners(kind: OwnedKind, listedIds: ReadonlyArray<string | number>, listRequestedAt: number): string[] {
    const listed = new Set(listedIds.map(String));
    const pruned: string[] = [];
    for (const id of this.ownedIds(kind)) {
      if (listed.has(id)) continue;
      const stored = parseStoredOwner(this.read(ownerKey(kind, id)));
      if (stored && stored.storedAt > listRequestedAt - PRUNE_GRACE_MS) continue;
      this.forgetOwner(kind, id);
      pruned.push(id);
    }
    return pruned;
  }

  operatorToken(): string | null {
    return normaliseToken(this.read(OPERATOR_KEY));
  }

  // false when the text is not a usable token (nothing is stored then).
  setOperatorToken(raw: unknown): boolean {
    const token = normaliseToken(raw);
    if (!token) return false;
    return this.write(OPERATOR_KEY, token);
  }

  clearOperatorToken(): void {
    this.remove(OPERATOR_KEY);
  }

  // Storage may be full or disabled (private windows): the credential then lasts for nothing, but
  // the page keeps working.
  private read(key: string): string | null {
    try {
      return this.storage.getItem(key);
    } catch {
      return null;
    }
  }

  private write(key: string, value: string): boolean {
    try {
      this.storage.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  }

  private remove(key: string): void {
    try {
      this.storage.removeItem(key);
    } catch {
      // Nothing to undo.
    }
  }

  private keys(): string[] {
    const keys: string[] = [];
    try {
      for (let i = 0; i < this.storage.length; i++) {
        const key = this.storage.key(i);
        if (key !== null) keys.push(key);
      }
    } catch {
      // Unreadable storage holds no tokens.
    }
    return keys;
  }
}
