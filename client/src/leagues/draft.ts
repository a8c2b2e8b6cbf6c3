// The start-a-league form as data: entrants (name, kind, prompt), matches per pairing, variant and
// seed as typed; checked here against the server's limits before anything is sent.
import type { MessageKey } from '../i18n/i18n';
import { ENTRANT_KINDS } from './api';
import type { CreateLeagueRequest, EntrantKind, EntrantRequest } from './api';

export const MIN_ENTRANTS = 2;
export const MAX_FORM_ENTRANTS = 16;
export const MAX_MATCHES = 1000;
export const DEFAULT_MATCHES = 4;
export const NAME_PATTERN = /^[A-Za-z0-9._-]{1,32}$/;
const SEED_PATTERN = /^-?\d{1,15}$/; // a safe integer: JSON numbers past 2^53 would change on the way
export const MAX_PROMPT_BYTES = 4096; // the server's bound (UTF-8)
const utf8Bytes = (text: string): number => new TextEncoder().encode(text).length;

export interface EntrantDraft {
  key: number; // stable across edits, for focus and rendering
  name: string;
  kind: EntrantKind;
  prompt: string;
}

export interface LeagueDraft {
  entrants: EntrantDraft[];
  matches: string;
  variant: string;
  seed: string;
}

export type DraftField = 'entrants' | 'name' | 'prompt' | 'matches' | 'seed';

export interface DraftError {
  field: DraftField;
  index?: number; // the entrant, for name and prompt
  key: MessageKey;
  params?: Record<string, string | number>;
}

let nextKey = 1;

export const isEntrantKind = (value: unknown): value is EntrantKind => (ENTRANT_KINDS as readonly unknown[]).includes(value);

// "burrow", "burrow-2", …: a name not yet taken, from the kind.
export function suggestName(kind: EntrantKind, taken: readonly string[]): string {
  const base = kind.replace(/^builtin:/, '');
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}

export function newEntrant(kind: EntrantKind, taken: readonly string[]): EntrantDraft {
  return { key: nextKey++, name: suggestName(kind, taken), kind, prompt: '' };
}

export function defaultDraft(variant: string): LeagueDraft {
  const first = newEntrant('builtin:burrow', []);
  return { entrants: [first, newEntrant('builtin:random', [first.name])], matches: String(DEFAULT_MATCHES), variant, seed: '' };
}

export function addEntrant(draft: LeagueDraft): LeagueDraft {
  if (draft.entrants.length >= MAX_FORM_ENTRANTS) return draft;
  const used = new Set(draft.entrants.map((e) => e.kind));
  const kind = ENTRANT_KINDS.find((k) => k !== 'prompt' && !used.has(k)) ?? 'builtin:random';
  return { ...draft, entrants: [...draft.entrants, newEntrant(kind, draft.entrants.map((e) => e.name))] };
}

export function removeEntrant(draft: LeagueDraft, key: number): LeagueDraft {
  return { ...draft, entrants: draft.entrants.filter((e) => e.key !== key) };
}

export function updateEntrant(draft: LeagueDraft, key: number, patch: Partial<Omit<EntrantDraft, 'key'>>): LeagueDraft {
  return { ...draft, entrants: draft.entrants.map((e) => (e.key === key ? { ...e, ...patch } : e)) };
}

// Every unordered pair of entrants plays `matches` matches.
export function planned(entrants: number, matches: number): { pairings: number; total: number } {
  const pairings = entrants >= 2 ? (entrants * (entrants - 1)) / 2 : 0;
  return { pairings, total: pairings * Math.max(0, matches) };
}

export function parseMatches(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,4}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= 1 && n <= MAX_MATCHES ? n : null;
}

export function draftErrors(draft: LeagueDraft): DraftError[] {
  const errors: DraftError[] = [];
  const count = draft.entrants.length;
  if (count < MIN_ENTRANTS || count > MAX_FORM_ENTRANTS) errors.push({ field: 'entrants', key: 'leagues.error.count', params: { max: MAX_FORM_ENTRANTS } });
  const seen = new Set<string>();
  draft.entrants.forEach((entrant, index) => {
    const name = entrant.name.trim();
    if (!NAME_PATTERN.test(name)) errors.push({ field: 'name', index, key: 'leagues.error.name', params: { index: index + 1 } });
    else if (seen.has(name)) errors.push({ field: 'name', index, key: 'leagues.error.duplicate', params: { name } });
    seen.add(name);
    if (entrant.kind === 'prompt' && entrant.prompt.trim() === '') errors.push({ field: 'prompt', index, key: 'leagues.error.prompt', params: { name: name || String(index + 1) } });
    else if (entrant.kind === 'prompt' && utf8Bytes(entrant.prompt) > MAX_PROMPT_BYTES) {
      errors.push({ field: 'prompt', index, key: 'leagues.error.promptLong', params: { name: name || String(index + 1), max: MAX_PROMPT_BYTES } });
    }
  });
  if (parseMatches(draft.matches) === null) errors.push({ field: 'matches', key: 'leagues.error.matches', params: { max: MAX_MATCHES } });
  const seed = draft.seed.trim();
  if (seed !== '' && !SEED_PATTERN.test(seed)) errors.push({ field: 'seed', key: 'leagues.error.seed' });
  return errors;
}

export function toRequest(draft: LeagueDraft): { ok: true; request: CreateLeagueRequest } | { ok: false; errors: DraftError[] } {
  const errors = draftErrors(draft);
  if (errors.length > 0) return { ok: false, errors };
  const entrants = draft.entrants.map((e): EntrantRequest => {
    const name = e.name.trim();
    return e.kind === 'prompt' ? { name, kind: 'prompt', prompt: e.prompt } : { name, kind: e.kind };
  });
  const request: CreateLeagueRequest = { entrants, matches: parseMatches(draft.matches)!, variant: draft.variant };
  const seed = draft.seed.trim();
  if (seed !== '') request.seed = Number(seed);
  return { ok: true, request };
}
