// Direct REST calls for test set-up and clean-up (never for the behaviour under test).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { serverUrl } from './browser.mjs';

export const E2E_NAME_PREFIX = 'e2e ';

// One REST call with a JSON body (when given); the status and the parsed answer.
export async function rest(method, path, body) {
  const response = await fetch(`${serverUrl()}${path}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

// What the hide-and-seek views publish for tests (client/src/hns/debug.ts).
export const hnsState = (page) => page.evaluate(() => window.__hns);

export async function listSchools() {
  const response = await fetch(`${serverUrl()}/api/schools`);
  if (!response.ok) throw new Error(`GET /api/schools: ${response.status}`);
  return response.json();
}

export async function deleteSchool(id) {
  await fetch(`${serverUrl()}/api/schools/${id}`, { method: 'DELETE' });
}

// Leftovers of earlier runs would eat into maxSchools.
export async function deleteLeftoverE2eSchools() {
  const list = await listSchools();
  for (const school of list.schools) if (school.name.startsWith(E2E_NAME_PREFIX)) await deleteSchool(school.id);
  return listSchools();
}

export async function createSchool(name) {
  const list = await listSchools();
  const response = await fetch(`${serverUrl()}/api/schools`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, startDate: list.defaultStartDate, modIds: [], map: null }),
  });
  if (response.status !== 201) throw new Error(`POST /api/schools: ${response.status} ${await response.text()}`);
  return response.json();
}

// Hooks for a file of school tests: clear leftovers, insist on a free slot, launch Chromium once.
// The returned object's `browser` is usable inside tests.
export function chromiumWithAFreeSchoolSlot(launch) {
  const holder = { session: null, get browser() { return this.session.browser; } };
  before(async () => {
    const list = await deleteLeftoverE2eSchools();
    assert.ok(list.schools.length < list.maxSchools, `the server is at its school limit (${list.maxSchools}); free a slot`);
    holder.session = await launch();
  });
  after(async () => {
    await holder.session?.close();
    await deleteLeftoverE2eSchools().catch(() => {});
  });
  return holder;
}

// The matches one test file makes for itself, so no test depends on a match (or a seat) another
// test file used; those still running when the file ends are stopped (finished ones stay archived).
export function ownMatches() {
  const ids = [];
  after(async () => {
    for (const id of ids) {
      const one = await rest('GET', `/api/hns/matches/${id}`).catch(() => null);
      if (one?.body && one.body.phase !== 'finished') await rest('DELETE', `/api/hns/matches/${id}`).catch(() => {});
    }
  });
  return {
    ids,
    // POST /api/hns/matches with `body`, or with `fallback` when the server refuses the first.
    async create(body, fallback = null) {
      let result = await rest('POST', '/api/hns/matches', body);
      if (result.status !== 201 && fallback) result = await rest('POST', '/api/hns/matches', fallback);
      assert.equal(result.status, 201, `POST /api/hns/matches ${JSON.stringify(body)}: ${JSON.stringify(result.body)}`);
      ids.push(result.body.id);
      return result.body;
    },
  };
}
