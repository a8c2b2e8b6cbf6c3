// The main menu's REST calls (protocol v4, "HTTP API").
import { requestJson } from './http';
import type { ApiResult } from './http';
import type { SchoolMap } from './catalog';
import type { Language } from '../i18n/i18n';

export interface SchoolSummary {
  id: number;
  name: string;
  gameTime: string; // ISO-8601 UTC
  running: boolean;
  speedIndex: number;
}

export interface SchoolList {
  maxSchools: number;
  defaultStartDate: string;
  gameMinutesPerRealSecond: number;
  schools: SchoolSummary[];
}

export interface ModInfo {
  id: string;
  required: boolean;
  title: string; // in the requested language; the id when the pack has none
}

export interface CreateSchoolRequest {
  name: string;
  startDate: string;
  modIds: string[]; // extras only; the server prepends core
  map: SchoolMap | null;
}

export const MAX_SCHOOL_NAME_CHARS = 40;

export const listSchools = () => requestJson<SchoolList>('GET', '/api/schools');

export async function randomSchoolName(lang: Language): Promise<ApiResult<string>> {
  const result = await requestJson<{ name?: unknown }>('GET', `/api/schools/random-name?lang=${lang}`);
  if (!result.ok) return result;
  const name = result.data?.name;
  return typeof name === 'string' ? { ok: true, data: name } : { ok: false, problem: { status: 200, code: 'bad-response' } };
}

export async function listMods(lang: Language): Promise<ApiResult<ModInfo[]>> {
  const result = await requestJson<{ mods?: unknown }>('GET', `/api/mods?lang=${lang}`);
  if (!result.ok) return result;
  const mods = Array.isArray(result.data?.mods) ? result.data.mods : [];
  return {
    ok: true,
    data: mods
      .filter((m): m is { id: string; required?: unknown; title?: unknown } => typeof m?.id === 'string')
      .map((m) => ({
        id: m.id,
        required: m.required === true || m.id === 'core',
        title: typeof m.title === 'string' && m.title.trim() !== '' ? m.title : m.id,
      })),
  };
}

// In owners mode the 201 body also carries `ownerToken`, given this once.
export type CreatedSchool = SchoolSummary & { ownerToken?: unknown };

export const createSchool = (request: CreateSchoolRequest) => requestJson<CreatedSchool>('POST', '/api/schools', request);

export const deleteSchool = (id: number, headers: Record<string, string> = {}) => requestJson<null>('DELETE', `/api/schools/${id}`, undefined, headers);
