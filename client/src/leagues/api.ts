// The leagues REST (/api/hns/leagues): start, list, read one, stop. Failures are values (api/http.ts).
import { requestJson } from '../api/http';
import type { ApiResult } from '../api/http';
import { bad } from '../hns/api';
import { parseCreatedLeague, parseLeagueDetail, parseLeagueList } from './decode';
import type { CreatedLeague, LeagueDetail, LeagueSummary } from './decode';

export const ENTRANT_KINDS = ['builtin:burrow', 'builtin:scatter', 'builtin:idle', 'builtin:random', 'builtin:teacher', 'prompt'] as const;
export type EntrantKind = (typeof ENTRANT_KINDS)[number];

export type EntrantRequest = { name: string; kind: Exclude<EntrantKind, 'prompt'> } | { name: string; kind: 'prompt'; prompt: string };

export interface CreateLeagueRequest {
  entrants: EntrantRequest[];
  matches: number;
  variant: string;
  seed?: number;
}

const LEAGUES = '/api/hns/leagues';
const one = (id: string) => `${LEAGUES}/${encodeURIComponent(id)}`;

export async function listLeagues(): Promise<ApiResult<LeagueSummary[]>> {
  const result = await requestJson<unknown>('GET', LEAGUES);
  return result.ok ? { ok: true, data: parseLeagueList(result.data) } : result;
}

export async function getLeague(id: string): Promise<ApiResult<LeagueDetail>> {
  const result = await requestJson<unknown>('GET', one(id));
  if (!result.ok) return result;
  const detail = parseLeagueDetail(result.data);
  return detail ? { ok: true, data: detail } : bad(200);
}

export async function createLeague(request: CreateLeagueRequest): Promise<ApiResult<CreatedLeague>> {
  const result = await requestJson<unknown>('POST', LEAGUES, request);
  if (!result.ok) return result;
  const created = parseCreatedLeague(result.data);
  return created ? { ok: true, data: created } : bad(201);
}

// 204: a running league is stopped, its table stays.
export const stopLeague = (id: string, headers: Record<string, string> = {}) => requestJson<null>('DELETE', one(id), undefined, headers);
