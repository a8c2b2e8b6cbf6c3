// The page's access state: the server's mode, learned from /health once at start-up, and the
// credentials in this browser's localStorage. Views ask it what to offer and re-render on changes.
import { REQUEST_TIMEOUT_MS } from '../api/http';
import { updateDebug } from '../app/debugState';
import { backoffDelay } from '../net/backoff';
import { authorizationHeaders, credentialFor, mayControlSchool, mayManage, modeFromHealth, schoolSocketTokens, watchSocketParams } from './permissions';
import type { AccessMode, Credential } from './permissions';
import { MemoryStorage, OPERATOR_KEY, OWNER_KEY_PREFIX, TokenStore } from './tokens';
import type { KeyValueStorage, OwnedKind } from './tokens';

export type { AccessMode, Credential, OwnedKind };

type Listener = () => void;
const listeners = new Set<Listener>();
let mode: AccessMode | null = null;
let loading: Promise<void> | null = null;

function browserStorage(): KeyValueStorage {
  try {
    if (globalThis.localStorage) return globalThis.localStorage;
  } catch {
    // Disabled storage throws on access.
  }
  return new MemoryStorage();
}

export const tokens = new TokenStore(browserStorage());

export function accessMode(): AccessMode | null {
  return mode;
}

export function onAccessChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed(): void {
  updateDebug({ access: { mode, operatorToken: tokens.operatorToken() !== null } });
  for (const listener of [...listeners]) listener();
}

// Asks /health until it answers; a server down at start-up is asked again with the shared backoff.
export function loadAccessMode(): Promise<void> {
  if (loading) return loading;
  loading = (async () => {
    for (let attempt = 1; ; attempt++) {
      const answer = await askHealth();
      if (answer !== 'retry') {
        mode = answer;
        changed();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt)));
    }
  })();
  return loading;
}

async function askHealth(): Promise<AccessMode | 'retry'> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch('/health', { headers: { Accept: 'application/json' }, cache: 'no-store', signal: controller.signal });
    let body: unknown = null;
    try {
      body = JSON.parse(await response.text()) as unknown;
    } catch {
      // A body that is not JSON says nothing about the mode.
    }
    return modeFromHealth(response.status, body);
  } catch {
    return modeFromHealth(0, null);
  } finally {
    clearTimeout(timer);
  }
}

// The credential this browser would present for one school or match.
export function credential(kind: OwnedKind, id: string | number): Credential {
  return credentialFor(mode, tokens.ownerToken(kind, id), tokens.operatorToken());
}

export function canManage(kind: OwnedKind, id: string | number): boolean {
  return mayManage(mode, credential(kind, id));
}

export function authorizationFor(kind: OwnedKind, id: string | number): Record<string, string> {
  return authorizationHeaders(credential(kind, id));
}

export function watchParams(matchId: string): Record<string, string> {
  return watchSocketParams(matchId, credential('hns', matchId));
}

// The tokens the schools socket opened for `schoolId` carries (none in open mode); the view re-dials
// when this list changes, since the server reads it once, at the upgrade.
export function schoolSocketTokenList(schoolId: number | null): string[] {
  return schoolSocketTokens(mode, schoolId, tokens.ownedTokens('school'), tokens.operatorToken());
}

// Whether the school view offers play/pause and the speeds for this school.
export function canControlSchool(schoolId: number): boolean {
  return mayControlSchool(mode, tokens.ownerToken('school', schoolId), tokens.operatorToken());
}

// What a view's render signature needs so it redraws when the answer to canManage may change.
export function accessSignature(): string {
  return `${mode ?? 'unknown'}|${tokens.operatorToken() === null ? 'no-operator' : 'operator'}`;
}

// Kept before anything else happens with the answer: the server never shows this token again.
export function rememberOwner(kind: OwnedKind, id: string | number, token: unknown): void {
  if (tokens.rememberOwner(kind, id, token)) changed();
}

export function forgetOwner(kind: OwnedKind, id: string | number): void {
  if (tokens.ownerToken(kind, id) === null) return;
  tokens.forgetOwner(kind, id);
  changed();
}

export function pruneOwners(kind: OwnedKind, listedIds: ReadonlyArray<string | number>, listRequestedAt: number): void {
  if (tokens.pruneOwners(kind, listedIds, listRequestedAt).length > 0) changed();
}

export function setOperatorToken(raw: unknown): boolean {
  if (!tokens.setOperatorToken(raw)) return false;
  changed();
  return true;
}

export function clearOperatorToken(): void {
  tokens.clearOperatorToken();
  changed();
}

// Another tab of this browser created, deleted or pasted something: follow it.
export function followOtherTabs(target: Window): void {
  target.addEventListener('storage', (event: StorageEvent) => {
    if (event.key === null || event.key === OPERATOR_KEY || event.key.startsWith(OWNER_KEY_PREFIX)) changed();
  });
  changed();
}
