// RFC 7807 problems from the REST API, turned into a localized message next to the right field.
import type { MessageKey } from '../i18n/i18n';

export interface Problem {
  status: number; // 0 when the request never reached the server
  code: string;
  title?: string;
  detail?: string;
  retryAfter?: number; // seconds, from a 429's or 503's Retry-After
}

export type ProblemField = 'name' | 'startDate' | 'mods' | 'map' | 'form';

const KNOWN: Record<string, { key: MessageKey; field: ProblemField }> = {
  'invalid-name': { key: 'problem.invalid-name', field: 'name' },
  'invalid-start-date': { key: 'problem.invalid-start-date', field: 'startDate' },
  'invalid-map': { key: 'problem.invalid-map', field: 'map' },
  'unknown-mod': { key: 'problem.unknown-mod', field: 'mods' },
  'invalid-catalog': { key: 'problem.invalid-catalog', field: 'mods' },
  'school-limit-reached': { key: 'problem.school-limit-reached', field: 'form' },
  'not-found': { key: 'problem.not-found', field: 'form' },
  'network-error': { key: 'problem.network-error', field: 'form' },
  unauthorized: { key: 'problem.unauthorized', field: 'form' },
  forbidden: { key: 'problem.forbidden', field: 'form' },
  'forbidden-origin': { key: 'problem.forbidden-origin', field: 'form' },
};

// A code the client does not know still gets a message chosen by its HTTP status.
export function describeProblem(problem: Problem): { key: MessageKey; field: ProblemField } {
  const known = KNOWN[problem.code];
  if (known) return known;
  if (problem.status === 404) return { key: 'problem.not-found', field: 'form' };
  if (problem.status === 401) return { key: 'problem.unauthorized', field: 'form' };
  if (problem.status === 403) return { key: 'problem.forbidden', field: 'form' };
  if (problem.status === 429) return { key: 'problem.too-many-requests', field: 'form' };
  if (problem.status === 503 && problem.retryAfter !== undefined) return { key: 'problem.busy', field: 'form' };
  if (problem.status >= 500) return { key: 'problem.server-error', field: 'form' };
  if (problem.status >= 400) return { key: 'problem.bad-request', field: 'form' };
  return { key: 'problem.unknown', field: 'form' };
}

const GENERIC_CODE_BY_STATUS: Record<number, string> = { 404: 'not-found' };

// Retry-After in seconds: delta-seconds, or an HTTP date turned into the seconds until it (at
// least 0); null for anything else. Capped at a day, so a wild value never reads as forever.
export const MAX_RETRY_AFTER_S = 86_400;
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  const text = (value ?? '').trim();
  if (text === '') return null;
  if (/^\d{1,12}$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_S);
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (!Number.isFinite(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_S);
}

// Reads a problem body defensively: a proxy or a crash may answer with HTML or nothing at all.
export function problemFromResponse(status: number, body: unknown, retryAfter: string | null = null): Problem {
  const object = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  const problem: Problem = {
    status,
    code: text(object.code) ?? GENERIC_CODE_BY_STATUS[status] ?? `http-${status}`,
  };
  const title = text(object.title);
  const detail = text(object.detail);
  if (title) problem.title = title;
  if (detail) problem.detail = detail;
  const wait = parseRetryAfter(retryAfter);
  if (wait !== null) problem.retryAfter = wait;
  return problem;
}
