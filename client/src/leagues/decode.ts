// Every assumption about the leagues REST and its league.json table (docs/hide-and-seek.md,
// "league.json") is here, read defensively like hns/api.ts: garbage, missing fields, wrong types,
// NaN or absurd numbers become null, 0 or '' (shown as "—"), huge arrays are capped, and nothing
// here throws.
import { asObject, at, numOrNull, oneOf, str } from '../hns/api';
import { isRouteId } from '../app/router';

export const SEATS = 6;
// Far above the server's limits (16 entrants, 20,000 matches a league): only a broken or hostile
// answer reaches them, and the page stays responsive when one does.
export const MAX_ENTRANTS = 64;
export const MAX_PAIRS = (MAX_ENTRANTS * (MAX_ENTRANTS - 1)) / 2;
export const MAX_RESULTS = 20_000;
export const MAX_LEAGUES = 500;
export const MAX_TEXT = 200; // names, kinds, ids: longer text is cut
const MAX_ELO = 100_000; // |rating| beyond this is no rating
const MAX_SCORE = 1_000; // |score|, |margin| beyond this is no score
const MAX_COUNT = 1_000_000_000;

export type LeagueState = 'running' | 'finished' | 'stopped';
export const LEAGUE_STATES = ['running', 'finished', 'stopped'] as const;

export interface Progress {
  played: number;
  planned: number;
}

export interface EntrantRef {
  name: string;
  kind: string;
  fallback: string; // a prompt entrant's fallback cause ("no_credentials": it plays as the scripted seat), else ''
}

export interface LeagueSummary {
  id: string;
  state: LeagueState;
  progress: Progress;
  entrants: EntrantRef[];
  variant: string;
  matches: number | null; // per pairing
  seed: string;
  error: string; // why the league stopped by itself, else ''
}

export interface CreatedLeague extends LeagueSummary {
  ownerToken: string | null; // owners mode only, given once
}

export interface Vor {
  baseline: string;
  value: number;
  low: number | null;
  high: number | null;
}

export interface EntrantRow extends EntrantRef {
  rating: number | null;
  low: number | null; // low ≤ rating ≤ high whenever all three are numbers
  high: number | null;
  matches: number;
  wins: number;
  draws: number;
  losses: number;
  meanScore: number | null;
  provisional: boolean;
  vor: Vor | null;
  promptTurns: PromptTurns | null; // a prompt entrant's decision turns over its matches, else null
}

export interface PromptTurns {
  model: number; // answered by the language model
  fallback: number; // played as burrow instead (no model, or its answer was not usable)
}

export interface PairRow {
  a: string;
  b: string;
  matches: number;
  aWins: number;
  bWins: number;
  draws: number;
  meanMargin: number | null; // a's trio score minus b's
  low: number | null;
  high: number | null;
}

export interface ResultRow {
  id: string;
  seed: string;
  variant: string;
  gameVersion: string; // the rules it was played by
  seats: string[]; // SEATS names, '' where unknown
  scores: Array<number | null>; // SEATS
  replay: string | null; // an archived match id the replay view opens; null when it is none
}

export interface Method {
  name: string;
  level: number | null;
  provisionalWidth: number | null;
  noiseSigma: number | null; // the margin model's residual sd
  clearPairsRespected: boolean | null;
}

export interface LeagueTable {
  state: LeagueState | null;
  variant: string;
  gameVersion: string; // every match of a league plays by one version
  seed: string;
  matchesPerPairing: number | null;
  played: number | null;
  planned: number | null;
  method: Method | null;
  entrants: EntrantRow[];
  pairs: PairRow[];
  results: ResultRow[];
  resultsCapped: boolean; // more rows were sent than MAX_RESULTS
}

export interface LeagueDetail extends LeagueSummary {
  table: LeagueTable;
}

const text = (value: unknown): string => str(value).slice(0, MAX_TEXT);
const idText = (value: unknown): string => (typeof value === 'number' && Number.isFinite(value) ? String(value) : text(value));
const bounded = (value: unknown, limit: number): number | null => {
  const n = numOrNull(value);
  return n !== null && Math.abs(n) <= limit ? n : null;
};
const count = (value: unknown): number => {
  const n = numOrNull(value);
  return n !== null && n >= 0 ? Math.min(Math.floor(n), MAX_COUNT) : 0;
};
const countOrNull = (value: unknown): number | null => (numOrNull(value) === null ? null : count(value));
const list = (value: unknown, cap: number): unknown[] => (Array.isArray(value) ? value.slice(0, cap) : []);
const state = (value: unknown): LeagueState | null => oneOf<LeagueState | ''>(value, LEAGUE_STATES, '') || null;

// A seed is a 64-bit integer on the server: kept as text (a JSON number past 2^53 has already lost
// digits, so only safe integers are believed).
function seedText(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return value;
  return '';
}

export function parseProgress(raw: unknown): Progress {
  const o = asObject(raw);
  return { played: count(o.played), planned: count(o.planned) };
}

// Entrants with a name, the first of each name only (the grid is keyed by name).
function uniqueByName<T extends { name: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => row.name !== '' && !seen.has(row.name) && (seen.add(row.name), true));
}

export function parseEntrantRef(raw: unknown): EntrantRef {
  const o = asObject(raw);
  return { name: text(o.name), kind: text(o.kind), fallback: text(o.fallback) };
}

export function parseLeagueSummary(raw: unknown): LeagueSummary | null {
  const o = asObject(raw);
  const id = idText(o.id);
  if (!isRouteId(id)) return null;
  return {
    id,
    state: state(o.state) ?? 'running',
    progress: parseProgress(o.progress),
    entrants: uniqueByName(list(o.entrants, MAX_ENTRANTS).map(parseEntrantRef)),
    variant: text(o.variant),
    matches: countOrNull(o.matches),
    seed: seedText(o.seed),
    error: text(o.error),
  };
}

export function parseLeagueList(raw: unknown): LeagueSummary[] {
  return list(asObject(raw).leagues, MAX_LEAGUES).map(parseLeagueSummary).filter((l): l is LeagueSummary => l !== null);
}

export function parseCreatedLeague(raw: unknown): CreatedLeague | null {
  const summary = parseLeagueSummary(raw);
  if (!summary) return null;
  const token = asObject(raw).ownerToken;
  return { ...summary, ownerToken: typeof token === 'string' && token !== '' ? token : null };
}

// Puts three optional numbers in order, so a bar never runs backwards.
function ordered(low: number | null, mid: number | null, high: number | null): [number | null, number | null, number | null] {
  if (low !== null && high !== null && low > high) [low, high] = [high, low];
  if (mid !== null) {
    if (low !== null && mid < low) low = mid;
    if (high !== null && mid > high) high = mid;
  }
  return [low, mid, high];
}

function parseVor(raw: unknown): Vor | null {
  const o = asObject(raw);
  const value = bounded(o.value, MAX_ELO);
  if (value === null) return null;
  const [low, , high] = ordered(bounded(o.low, MAX_ELO), value, bounded(o.high, MAX_ELO));
  return { baseline: text(o.baseline), value, low, high };
}

export function parseEntrantRow(raw: unknown): EntrantRow {
  const o = asObject(raw);
  const [low, rating, high] = ordered(bounded(o.low, MAX_ELO), bounded(o.rating, MAX_ELO), bounded(o.high, MAX_ELO));
  return {
    ...parseEntrantRef(o),
    rating,
    low,
    high,
    matches: count(o.matches),
    wins: count(o.wins),
    draws: count(o.draws),
    losses: count(o.losses),
    meanScore: bounded(o.meanScore, MAX_SCORE),
    provisional: o.provisional !== false, // only an explicit false settles an entrant
    vor: parseVor(o.vor),
    promptTurns: o.modelTurns === undefined && o.fallbackTurns === undefined ? null : { model: count(o.modelTurns), fallback: count(o.fallbackTurns) },
  };
}

export function parsePairRow(raw: unknown): PairRow | null {
  const o = asObject(raw);
  const a = text(o.a);
  const b = text(o.b);
  if (a === '' || b === '' || a === b) return null;
  const [low, meanMargin, high] = ordered(bounded(o.low, MAX_SCORE), bounded(o.meanMargin, MAX_SCORE), bounded(o.high, MAX_SCORE));
  return { a, b, matches: count(o.matches), aWins: count(o.aWins), bWins: count(o.bWins), draws: count(o.draws), meanMargin, low, high };
}

export function parseResultRow(raw: unknown): ResultRow | null {
  const o = asObject(raw);
  const id = idText(o.id);
  if (id === '') return null;
  const replay = idText(o.replay);
  return {
    id,
    seed: seedText(o.seed),
    variant: text(o.variant),
    gameVersion: text(o.gameVersion),
    seats: Array.from({ length: SEATS }, (_, slot) => text(at(o.seats, slot))),
    scores: Array.from({ length: SEATS }, (_, slot) => bounded(at(o.scores, slot), MAX_SCORE)),
    replay: isRouteId(replay) ? replay : null,
  };
}

function parseMethod(raw: unknown): Method | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const o = asObject(raw);
  return {
    name: text(o.name),
    level: bounded(o.level, 1),
    provisionalWidth: bounded(o.provisionalWidth, MAX_ELO),
    noiseSigma: bounded(o.noiseSigma, MAX_SCORE),
    clearPairsRespected: typeof o.clearPairsRespected === 'boolean' ? o.clearPairsRespected : null,
  };
}

export function parseLeagueTable(raw: unknown): LeagueTable {
  const o = asObject(raw);
  const results = Array.isArray(o.results) ? o.results : [];
  return {
    state: state(o.state),
    variant: text(o.variant),
    gameVersion: text(o.gameVersion),
    seed: seedText(o.seed),
    matchesPerPairing: countOrNull(o.matchesPerPairing),
    played: countOrNull(o.played),
    planned: countOrNull(o.planned),
    method: parseMethod(o.method),
    entrants: uniqueByName(list(o.entrants, MAX_ENTRANTS).map(parseEntrantRow)),
    pairs: list(o.pairs, MAX_PAIRS).map(parsePairRow).filter((p): p is PairRow => p !== null),
    results: results.slice(0, MAX_RESULTS).map(parseResultRow).filter((r): r is ResultRow => r !== null),
    resultsCapped: results.length > MAX_RESULTS,
  };
}

// The summary with "table": what the summary lacks is taken from the table.
export function parseLeagueDetail(raw: unknown): LeagueDetail | null {
  const summary = parseLeagueSummary(raw);
  if (!summary) return null;
  const o = asObject(raw);
  const table = parseLeagueTable(o.table);
  const progress = typeof o.progress === 'object' && o.progress !== null
    ? summary.progress
    : { played: table.played ?? table.results.length, planned: table.planned ?? 0 };
  return {
    ...summary,
    state: state(o.state) ?? table.state ?? 'running',
    progress,
    variant: summary.variant || table.variant,
    matches: summary.matches ?? table.matchesPerPairing,
    seed: summary.seed || table.seed,
    entrants: summary.entrants.length ? summary.entrants : table.entrants.map(({ name, kind }) => ({ name, kind, fallback: '' })),
    table,
  };
}

// 0..1 of the planned matches played; a league that is over is full even if it planned none.
export function progressFraction(progress: Progress, leagueState: LeagueState): number {
  if (progress.planned <= 0) return leagueState === 'running' ? 0 : 1;
  return Math.min(1, Math.max(0, progress.played / progress.planned));
}

export const isRunning = (league: { state: LeagueState }): boolean => league.state === 'running';

// Whether a league page must ask again: while the league runs, and while its table, refitted after
// the summary moves on, still lags behind the summary's state or count.
export function needsPolling(league: LeagueDetail): boolean {
  if (isRunning(league)) return true;
  const table = league.table;
  return (table.state !== null && table.state !== league.state) || (table.played !== null && table.played < league.progress.played);
}
