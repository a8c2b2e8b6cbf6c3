// Hide-and-seek match REST (/api/hns): every assumption about its JSON is here, read defensively so a
// field the server renames or drops shows as "—" instead of breaking the page.
import { requestJson } from '../api/http';
import type { ApiResult } from '../api/http';

export const SEATS = 6;
export const MAX_BOTS = SEATS;

export type Side = 'hider' | 'seeker';
export type MatchPhase = 'lobby' | 'playing' | 'game_over' | 'finished' | 'stopped';
export type SeatKind = 'scripted' | 'external' | 'prompt' | 'manual' | 'empty';

export interface Seat {
  slot: number;
  identity: string;
  kind: SeatKind;
  label: string;
  side: Side | null;
  connected: boolean;
}

export interface MatchSummary {
  id: string;
  variant: string;
  gameVersion: string; // the rules it plays by: '2' today, '1' for a match from before GameVersion 2
  isDefault: boolean;
  phase: MatchPhase;
  matchPhase: 'prep' | 'hunt' | null; // inside a game
  game: number;
  games: number;
  tick: number;
  gameTick: number;
  phaseTicksLeft: number | null;
  hiddenTicks: number;
  seenTicks: number;
  fastMode: boolean;
  spectators: number;
  seats: Seat[];
  finishedAt: number | null; // unix ms
  endReason: string; // the results' reason once finished
}

// The results document (src/sim/hns/results.cpp): per-seat arrays, per-game arrays, a few scalars.
export interface SeatResult {
  slot: number;
  name: string;
  alias: string;
  sides: Side[]; // one per game: sides swap every game
  score: number | null;
  win: boolean | null;
  seenTicks: number | null; // this seat's ticks seen as a hider
  sealedTicks: number | null;
  grabs: number | null;
  locks: number | null;
  vaults: number | null;
  policyKind: string;
}
export interface GameResult {
  game: number;
  hiddenTicks: number | null;
  seenTicks: number | null;
  margin: number | null;
  huntTicks: number | null;
}
export interface MatchResults {
  room: string;
  reason: string;
  endRule: string;
  seats: SeatResult[];
  games: GameResult[];
}

export interface MatchDetail extends MatchSummary {
  results: MatchResults | null;
}

// The defensive readers, shared with the other /api/hns documents (leagues/decode.ts).
export type Json = Record<string, unknown>;
export const asObject = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
export const num = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);
export const numOrNull = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
export const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
export const oneOf = <T extends string>(value: unknown, options: readonly T[], fallback: T): T =>
  (options as readonly unknown[]).includes(value) ? (value as T) : fallback;

const PHASES = ['lobby', 'playing', 'game_over', 'finished', 'stopped'] as const;
const KINDS = ['scripted', 'external', 'prompt', 'manual', 'empty'] as const;

// Slot s hides in game 1 iff s is even (team Red hides); sides swap every game.
export function sideOf(slot: number, game: number): Side {
  const redHides = game % 2 === 1 || game <= 0;
  return (slot % 2 === 0) === redHides ? 'hider' : 'seeker';
}

export function parseSide(value: unknown): Side | null {
  if (value === 'hider' || value === 'hiders' || value === 'red') return 'hider';
  if (value === 'seeker' || value === 'seekers' || value === 'blue') return 'seeker';
  return null;
}

export function parseSeat(raw: unknown, index: number): Seat {
  const o = asObject(raw);
  return {
    slot: num(o.slot, index),
    identity: str(o.identity),
    kind: oneOf(o.kind, KINDS, 'empty'),
    label: str(o.label),
    side: parseSide(o.side),
    connected: o.connected === true,
  };
}

export function parseSummary(raw: unknown): MatchSummary | null {
  const o = asObject(raw);
  const id = typeof o.id === 'number' ? String(o.id) : str(o.id);
  if (id === '') return null;
  const seats = Array.isArray(o.seats) ? o.seats.map(parseSeat) : [];
  const matchPhase = o.matchPhase === 'prep' || o.matchPhase === 'hunt' ? o.matchPhase : null;
  return {
    id,
    variant: str(o.variant, '—'),
    // A summary that names no version is older than GameVersion 2: every match then played 1.
    gameVersion: str(o.gameVersion, '1'),
    isDefault: o.default === true,
    phase: oneOf(o.phase, PHASES, 'lobby'),
    matchPhase,
    game: num(o.game, 0),
    games: num(o.games, 0),
    tick: num(o.tick, 0),
    gameTick: num(o.gameTick, 0),
    phaseTicksLeft: numOrNull(o.phaseTicksLeft),
    hiddenTicks: num(o.hiddenTicks, 0),
    seenTicks: num(o.seenTicks, 0),
    fastMode: o.fastMode === true,
    spectators: num(o.spectators, 0),
    seats,
    finishedAt: numOrNull(o.finishedAt),
    endReason: str(o.endReason),
  };
}

export function parseMatchList(raw: unknown): MatchSummary[] {
  const list = asObject(raw).matches;
  if (!Array.isArray(list)) return [];
  return list.map(parseSummary).filter((m): m is MatchSummary => m !== null);
}

export function parseVariants(raw: unknown): string[] {
  const list = asObject(raw).variants;
  return Array.isArray(list) ? list.filter((v): v is string => typeof v === 'string' && v !== '') : [];
}

export const at = (value: unknown, index: number): unknown => (Array.isArray(value) ? value[index] : undefined);

export function parseResults(raw: unknown): MatchResults | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const o = raw as Json;
  const names = Array.isArray(o.names) ? o.names : [];
  const scores = Array.isArray(o.scores) ? o.scores : [];
  const seatCount = Math.max(names.length, scores.length, Array.isArray(o.team) ? o.team.length : 0);
  const gameCount = Math.max(num(o.games, 0), Array.isArray(o.hiddenTicks) ? o.hiddenTicks.length : 0);
  const seats: SeatResult[] = [];
  for (let slot = 0; slot < seatCount; slot++) {
    // `team` is the side in game 1; later games alternate.
    const first = parseSide(at(o.team, slot)) ?? sideOf(slot, 1);
    const sides: Side[] = [];
    for (let g = 1; g <= Math.max(1, gameCount); g++) sides.push(g % 2 === 1 ? first : first === 'hider' ? 'seeker' : 'hider');
    const win = at(o.win, slot);
    seats.push({
      slot,
      name: str(at(o.names, slot), `#${slot}`),
      alias: str(at(o.aliases, slot)),
      sides,
      score: numOrNull(at(o.scores, slot)),
      win: typeof win === 'boolean' ? win : null,
      seenTicks: numOrNull(at(o.seatSeenTicks, slot)),
      sealedTicks: numOrNull(at(o.sealedTicks, slot)),
      grabs: numOrNull(at(o.grabs, slot)),
      locks: numOrNull(at(o.locks, slot)),
      vaults: numOrNull(at(o.vaults, slot)),
      policyKind: str(at(o.policyKinds, slot)),
    });
  }
  const games: GameResult[] = [];
  for (let g = 0; g < gameCount; g++) {
    games.push({
      game: g + 1,
      hiddenTicks: numOrNull(at(o.hiddenTicks, g)),
      seenTicks: numOrNull(at(o.seenTicks, g)),
      margin: numOrNull(at(o.gameMargins, g)),
      huntTicks: numOrNull(at(o.huntTicksPlayed, g)),
    });
  }
  return { room: str(o.room), reason: str(o.reason), endRule: str(o.endRule), seats, games };
}

export function parseDetail(raw: unknown): MatchDetail | null {
  const summary = parseSummary(raw);
  if (!summary) return null;
  return { ...summary, results: parseResults(asObject(raw).results) };
}

// The seats a visitor may take: empty in the lobby (the server seats joins only then, §2.2).
export function freeSlots(match: MatchSummary): number[] {
  if (match.phase !== 'lobby') return [];
  return match.seats.filter((seat) => seat.kind === 'empty' && !seat.connected).map((seat) => seat.slot);
}

export const isLive = (match: MatchSummary): boolean => match.phase !== 'finished' && match.phase !== 'stopped';

export interface CreateMatchRequest {
  variant: string;
  bots: number;
  config?: Record<string, unknown>;
}

export const bad = (status: number): ApiResult<never> => ({ ok: false, problem: { status, code: 'bad-response' } });

export async function listVariants(): Promise<ApiResult<string[]>> {
  const result = await requestJson<unknown>('GET', '/api/hns/variants');
  return result.ok ? { ok: true, data: parseVariants(result.data) } : result;
}

export async function listMatches(): Promise<ApiResult<MatchSummary[]>> {
  const result = await requestJson<unknown>('GET', '/api/hns/matches');
  return result.ok ? { ok: true, data: parseMatchList(result.data) } : result;
}

export async function getMatch(id: string): Promise<ApiResult<MatchDetail>> {
  const result = await requestJson<unknown>('GET', `/api/hns/matches/${encodeURIComponent(id)}`);
  if (!result.ok) return result;
  const detail = parseDetail(result.data);
  return detail ? { ok: true, data: detail } : bad(200);
}

// In owners mode the 201 body also carries `ownerToken`, given this once (null otherwise).
export type CreatedMatch = MatchSummary & { ownerToken: string | null };

export function parseCreated(raw: unknown): CreatedMatch | null {
  const summary = parseSummary(raw);
  if (!summary) return null;
  const token = asObject(raw).ownerToken;
  return { ...summary, ownerToken: typeof token === 'string' && token !== '' ? token : null };
}

export async function createMatch(request: CreateMatchRequest): Promise<ApiResult<CreatedMatch>> {
  const result = await requestJson<unknown>('POST', '/api/hns/matches', request);
  if (!result.ok) return result;
  const created = parseCreated(result.data);
  return created ? { ok: true, data: created } : bad(201);
}

export const deleteMatch = (id: string, headers: Record<string, string> = {}) =>
  requestJson<null>('DELETE', `/api/hns/matches/${encodeURIComponent(id)}`, undefined, headers);

export const replayFileUrl = (id: string) => `/api/hns/matches/${encodeURIComponent(id)}/replay`;
