// Who may stop or delete what, as pure decisions: the server's mode (from /health), the credential
// this browser would present, the header or socket parameter that carries it, and a refusal in words.
import type { Problem } from '../api/problems';
import type { MessageKey } from '../i18n/i18n';

// Below, a mode of null means /health has not answered yet.
export type AccessMode = 'open' | 'owners';

// `access` is absent on servers older than owners mode: they are open.
export function parseAccessMode(health: unknown): AccessMode {
  const o = typeof health === 'object' && health !== null ? (health as Record<string, unknown>) : {};
  return o.access === 'owners' ? 'owners' : 'open';
}

export type Credential = { kind: 'none' } | { kind: 'owner' | 'operator'; token: string };

const NONE: Credential = { kind: 'none' };

// The owner's token first (it names this thing exactly), else the operator's. Open mode needs
// neither, and sends neither, as before owners mode existed.
export function credentialFor(mode: AccessMode | null, ownerToken: string | null, operatorToken: string | null): Credential {
  if (mode !== 'owners') return NONE;
  if (ownerToken) return { kind: 'owner', token: ownerToken };
  if (operatorToken) return { kind: 'operator', token: operatorToken };
  return NONE;
}

// Whether to offer Stop/Delete (and live speed keys): always when open; in owners mode only with a
// credential; never before the mode is known, so a stranger never sees a button flash.
export function mayManage(mode: AccessMode | null, credential: Credential): boolean {
  if (mode === null) return false;
  return mode === 'open' || credential.kind !== 'none';
}

export function authorizationHeaders(credential: Credential): Record<string, string> {
  return credential.kind === 'none' ? {} : { Authorization: `Bearer ${credential.token}` };
}

// The /global socket cannot carry headers: the token rides in its own query parameter (never in
// name, slot or token, which viewer sockets refuse).
export function watchSocketParams(matchId: string, credential: Credential): Record<string, string> {
  return credential.kind === 'none' ? { match: matchId } : { match: matchId, ownerToken: credential.token };
}

export type Subject = 'school' | 'match' | 'league';

// A refusal of a credential, worded by what was sent: nothing (401), the operator's token or an
// owner's (403). null for every other problem, which keeps its usual message.
export function accessProblemKey(problem: Problem, sent: Credential['kind'], subject: Subject): MessageKey | null {
  if (problem.code === 'forbidden-origin') return 'access.forbiddenOrigin';
  if (problem.status === 401 || problem.code === 'unauthorized') return `access.unauthorized.${subject}`;
  if (problem.status === 403 || problem.code === 'forbidden') {
    if (sent === 'operator') return 'access.operatorWrong';
    return `access.notOwner.${subject}`;
  }
  return null;
}

// What a /health answer says about the mode, or 'retry' when it says nothing yet (no answer at all
// is status 0). Only a server that answered without the field is taken as open.
export function modeFromHealth(status: number, body: unknown): AccessMode | 'retry' {
  const o = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (o.access === 'open' || o.access === 'owners') return o.access;
  if (status === 0 || status >= 500) return 'retry';
  return parseAccessMode(body);
}

// The schools socket (/ws/game, v4) cannot carry headers either: in owners mode the server obeys
// SetRunning/SetSpeed for a school only when the socket was opened with `?ownerToken=t1,t2,…` holding
// that school's token or the operator's. It refuses the whole upgrade (400) for more than 16 tokens
// or one over 128 characters, and splits the list at commas.
export const MAX_SCHOOL_SOCKET_TOKENS = 16;
export const MAX_SCHOOL_SOCKET_TOKEN_CHARS = 128;

// Whether a token can ride in that list at all: a longer one would cost the whole socket, and one
// with a comma would arrive cut in two (our tokens are hex; a hand-made operator token might not be).
export function fitsSchoolSocket(token: string | null): token is string {
  return token !== null && token.length > 0 && token.length <= MAX_SCHOOL_SOCKET_TOKEN_CHARS && !token.includes(',');
}

// The tokens the schools socket is opened with: none unless the mode is owners; else the school the
// socket is for (if any) first, the operator's next (it opens every school), then the other schools
// this browser owns in the order given (newest first), without repeats, at most 16.
export function schoolSocketTokens(
  mode: AccessMode | null,
  schoolId: string | number | null,
  owned: ReadonlyArray<{ id: string; token: string }>,
  operatorToken: string | null,
): string[] {
  if (mode !== 'owners') return [];
  const own = schoolId === null ? undefined : owned.find((entry) => entry.id === String(schoolId));
  const ordered = [own?.token ?? null, operatorToken, ...owned.map((entry) => entry.token)];
  const list: string[] = [];
  for (const token of ordered) {
    if (list.length === MAX_SCHOOL_SOCKET_TOKENS) break;
    if (fitsSchoolSocket(token) && !list.includes(token)) list.push(token);
  }
  return list;
}

// Whether the school view offers play/pause and the speeds: always when open; in owners mode only
// with a token for this school or the operator's that the socket can carry (schoolSocketTokens always
// keeps both); never before the mode is known.
export function mayControlSchool(mode: AccessMode | null, ownToken: string | null, operatorToken: string | null): boolean {
  if (mode === null) return false;
  return mode === 'open' || fitsSchoolSocket(ownToken) || fitsSchoolSocket(operatorToken);
}
