// Owners mode in the browser, against a server of its own started with --access owners: the creator
// of a school and of a match is offered Delete/Stop (and a school's pause/speed, a match's live speed
// keys), another browser profile is not, the operator token pasted in Settings offers them, and
// refusals are shown as words.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { debugState, launch, newPage, screenshot, waitUntil } from './support/browser.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_BIN = process.env.HSCHOOL_SERVER_BIN ?? join(ROOT, 'build/release/hschool-server');
const START_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 10_000;
const WRONG_TOKEN = 'f'.repeat(64);
const FRAMES_AT_SPEED = 24; // frames counted at 8×
const MIN_TICKS_PER_FRAME_AT_8 = 4; // eight a frame but where a turn ends a frame early; one at 1×

let server; // { process, url, log, adminToken, dir }
let session;

// Starts hschool-server on a free loopback port in owners mode and reads the port from its log.
async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), 'hschool-owners-e2e-'));
  const tokenFile = join(dir, 'admin.token');
  const child = spawn(SERVER_BIN, [
    '--address', '127.0.0.1', '--port', '0', '--access', 'owners',
    '--admin-token-file', tokenFile, '--data', join(dir, 'e2e.db'),
    '--mods', join(ROOT, 'mods'), '--web-root', join(ROOT, 'client/dist'),
  ], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = [];
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not report listening within ${START_TIMEOUT_MS} ms:\n${log.join('')}`)), START_TIMEOUT_MS);
    const onData = (chunk) => {
      log.push(chunk.toString());
      const found = /event=listening\b.*\bport=(\d+)/.exec(log.join(''));
      if (found) {
        clearTimeout(timer);
        resolve(Number(found[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => log.push(chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${log.join('')}`));
    });
  });
  const adminToken = readFileSync(tokenFile, 'utf8').trim();
  assert.match(adminToken, /^[0-9a-f]{64}$/, 'the server wrote a 256-bit operator token');
  return { process: child, url: `http://127.0.0.1:${port}`, log, adminToken, dir };
}

async function stopServer(running) {
  if (!running) return;
  const { process: child } = running;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
  rmSync(running.dir, { recursive: true, force: true });
}

async function api(method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

// A page of a fresh browser profile (own localStorage) that has learned the server's mode.
async function openProfile(hash, { initScript } = {}) {
  const profile = await newPage(session.browser);
  if (initScript) await profile.context.addInitScript(initScript.fn, initScript.arg);
  await profile.page.goto(`${server.url}/${hash}`);
  await waitUntil(async () => (await profile.page.evaluate(() => window.__hschool.access.mode)) === 'owners', { what: 'the page to learn owners mode' });
  return profile;
}

async function pasteOperatorToken(page, token) {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.waitFor();
  assert.equal(await dialog.getByTestId('access-mode').getAttribute('data-mode'), 'owners');
  await dialog.getByTestId('operator-token').fill(`${token}\n`); // as copied from the file, newline included
  await dialog.getByTestId('operator-save').click();
  await dialog.locator('[data-testid="operator-status"][data-set="true"]').waitFor();
  return dialog;
}

async function clearOperatorToken(page) {
  await page.getByTestId('open-settings').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByTestId('operator-clear').click();
  await dialog.locator('[data-testid="operator-status"][data-set="false"]').waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

const schoolListed = async (id) => (await api('GET', '/api/schools')).body.schools.some((s) => s.id === id);

const ownerTokenIn = (page, kind, id) => page.evaluate((key) => localStorage.getItem(key), `hschool.owner.${kind}.${id}`);

before(async () => {
  server = await startServer();
  session = await launch();
});
after(async () => {
  await session?.close();
  await stopServer(server);
});

test('a school: its creator may delete it, a stranger may not, the operator token and refusals in words', { timeout: 120_000 }, async () => {
  assert.equal((await api('GET', '/health')).body.access, 'owners');

  // The creator makes a school in the page: Delete is offered, the owner token is kept.
  const creator = await openProfile('#/');
  await creator.page.getByTestId('create-school').click();
  const dialog = creator.page.getByTestId('create-dialog');
  await dialog.getByTestId('map-editor').waitFor();
  const name = `owners ${Date.now()}`;
  await dialog.getByTestId('create-name').fill(name);
  await dialog.getByTestId('create-submit').click();
  await dialog.waitFor({ state: 'detached' });
  const school = (await api('GET', '/api/schools')).body.schools.find((s) => s.name === name);
  assert.ok(school, 'the server lists the new school');
  const creatorCard = creator.page.locator(`[data-school-id="${school.id}"]`);
  await creatorCard.getByTestId('delete-school').waitFor();
  assert.match(JSON.parse(await ownerTokenIn(creator.page, 'school', school.id)).token, /^[0-9a-f]{64}$/);
  await screenshot(creator.page, 'owners-school-creator');

  // A second profile sees the school but is offered no Delete.
  const stranger = await openProfile('#/');
  const strangerCard = stranger.page.locator(`[data-school-id="${school.id}"]`);
  await strangerCard.getByTestId('open-school').waitFor();
  assert.equal(await strangerCard.getByTestId('delete-school').count(), 0, 'a stranger is not offered Delete');
  await screenshot(stranger.page, 'owners-school-stranger');

  // A wrong operator token offers Delete, and the refusal is shown in words, in both languages.
  const settings = await pasteOperatorToken(stranger.page, WRONG_TOKEN);
  await screenshot(stranger.page, 'owners-settings');
  await stranger.page.keyboard.press('Escape');
  await settings.waitFor({ state: 'detached' });
  stranger.allowConsoleError(/status of 403/);
  await strangerCard.getByTestId('delete-school').click();
  await stranger.page.getByTestId('confirm').click();
  const notice = stranger.page.getByTestId('notice');
  await notice.filter({ hasText: 'The operator token is wrong' }).waitFor();
  await screenshot(stranger.page, 'owners-operator-wrong');
  await stranger.page.getByTestId('lang-ru').click();
  await notice.filter({ hasText: 'Ключ оператора неверен' }).waitFor();
  await stranger.page.getByTestId('lang-en').click();
  assert.ok(await schoolListed(school.id), 'the school is still there');

  // Cleared, Delete goes away again; the real operator token brings it back.
  await clearOperatorToken(stranger.page);
  await strangerCard.getByTestId('delete-school').waitFor({ state: 'detached' });
  await pasteOperatorToken(stranger.page, server.adminToken);
  await stranger.page.keyboard.press('Escape');
  await strangerCard.getByTestId('delete-school').waitFor();
  await screenshot(stranger.page, 'owners-school-operator');

  // A browser holding a token that is not this school's is told it is not the owner.
  const impostor = await openProfile('#/', {
    initScript: { fn: ([key, token]) => localStorage.setItem(key, token), arg: [`hschool.owner.school.${school.id}`, WRONG_TOKEN] },
  });
  const impostorCard = impostor.page.locator(`[data-school-id="${school.id}"]`);
  impostor.allowConsoleError(/status of 403/);
  await impostorCard.getByTestId('delete-school').click();
  await impostor.page.getByTestId('confirm').click();
  await impostor.page.getByTestId('notice').filter({ hasText: 'You are not the owner of this school' }).waitFor();
  await screenshot(impostor.page, 'owners-not-owner');

  // The creator deletes it; the token goes with it.
  await creatorCard.getByTestId('delete-school').click();
  await creator.page.getByTestId('confirm').click();
  await creator.page.getByTestId('notice').filter({ hasText: `School “${name}” deleted.` }).waitFor();
  await creatorCard.waitFor({ state: 'detached' });
  assert.equal(await ownerTokenIn(creator.page, 'school', school.id), null, 'the owner token is forgotten');
  assert.equal(await schoolListed(school.id), false, 'the server no longer lists it');

  for (const profile of [creator, stranger, impostor]) {
    assert.deepEqual(profile.errors, [], 'no console errors');
    await profile.context.close();
  }
});

// The clock panel's state as the page last drew it from a server Clock frame.
async function clockOf(page) {
  return page.evaluate(() => {
    const panel = document.querySelector('[data-testid="clock"]');
    const value = panel?.getAttribute('data-game-time-ms');
    if (!panel || value === null || value === undefined) return null;
    return { gameTimeMs: Number(value), running: panel.getAttribute('data-running'), speedIndex: panel.getAttribute('data-speed-index') };
  });
}

const clockIs = (page, wanted, what) => waitUntil(async () => {
  const clock = await clockOf(page);
  return clock && Object.entries(wanted).every(([key, value]) => clock[key] === value) ? clock : null;
}, { what });

// Every /ws/game URL the page dials, in order.
function gameSockets(page) {
  const urls = [];
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).pathname === '/ws/game') urls.push(socket.url());
  });
  return urls;
}

const tokensIn = (url) => (new URL(url).searchParams.get('ownerToken') ?? '').split(',').filter(Boolean);

test('a school clock: its creator may pause it and change its speed, a stranger sees it read-only, the operator may', { timeout: 120_000 }, async () => {
  // The creator makes a school and opens it: the socket carries the owner token, the controls show.
  const creator = await openProfile('#/');
  const creatorSockets = gameSockets(creator.page);
  await creator.page.getByTestId('create-school').click();
  const dialog = creator.page.getByTestId('create-dialog');
  await dialog.getByTestId('map-editor').waitFor();
  const name = `clock ${Date.now()}`;
  await dialog.getByTestId('create-name').fill(name);
  await dialog.getByTestId('create-submit').click();
  await dialog.waitFor({ state: 'detached' });
  const school = (await api('GET', '/api/schools')).body.schools.find((s) => s.name === name);
  assert.ok(school, 'the server lists the new school');
  const ownerToken = JSON.parse(await ownerTokenIn(creator.page, 'school', school.id)).token;
  await creator.page.locator(`[data-school-id="${school.id}"]`).getByTestId('open-school').click();
  const first = await clockIs(creator.page, {}, 'the creator\'s first clock');
  await creator.page.getByTestId('play-pause').waitFor();
  assert.equal(await creator.page.getByTestId('clock-readonly').isVisible(), false, 'the creator\'s clock is not read-only');
  assert.equal((await debugState(creator.page)).school.controls, true);
  assert.equal(creatorSockets.length, 1, `one schools socket: ${creatorSockets}`);
  assert.deepEqual(tokensIn(creatorSockets[0]), [ownerToken], 'the schools socket carries the owner token');

  // Running, the clock advances; paused, the server's clock stops.
  if (first.running !== 'true') {
    await creator.page.getByTestId('play-pause').click();
    await clockIs(creator.page, { running: 'true' }, 'the clock to run');
  }
  const runningAt = (await clockOf(creator.page)).gameTimeMs;
  await waitUntil(async () => (await clockOf(creator.page)).gameTimeMs > runningAt, { what: 'the running clock to advance' });
  await creator.page.getByTestId('play-pause').click();
  const paused = await clockIs(creator.page, { running: 'false' }, 'the creator\'s pause to take effect');
  await screenshot(creator.page, 'owners-clock-creator');

  // A second profile: the same stopped time from a socket of its own, no controls, the reason in words.
  const stranger = await openProfile('#/');
  const strangerSockets = gameSockets(stranger.page);
  await stranger.page.evaluate((id) => (location.hash = `#/school/${id}`), school.id);
  const seen = await clockIs(stranger.page, { running: 'false' }, 'the stranger\'s first clock');
  assert.equal(seen.gameTimeMs, paused.gameTimeMs, 'the paused clock stands still: a new socket reports the same time');
  assert.equal((await clockOf(creator.page)).gameTimeMs, paused.gameTimeMs, 'the creator\'s clock stands still too');
  const readOnly = stranger.page.getByTestId('clock-readonly');
  await readOnly.filter({ hasText: 'Only the owner of this school or the operator can pause it or change its speed' }).waitFor();
  assert.equal(await stranger.page.getByTestId('play-pause').isVisible(), false, 'a stranger is not offered pause/run');
  assert.equal(await stranger.page.getByTestId('clock-controls').isVisible(), false, 'a stranger is not offered the speeds');
  assert.equal((await debugState(stranger.page)).school.controls, false);
  assert.deepEqual(strangerSockets, [`${server.url.replace('http:', 'ws:')}/ws/game`], 'a stranger\'s socket carries no token');
  await stranger.page.getByTestId('lang-ru').click();
  await stranger.page.getByTestId('clock-readonly').filter({ hasText: 'может только её владелец или оператор' }).waitFor();
  await stranger.page.getByTestId('lang-en').click();
  await readOnly.filter({ hasText: 'Only the owner' }).waitFor();
  await screenshot(stranger.page, 'owners-clock-stranger');

  // The creator changes the speed; the stranger's read-only clock follows.
  await creator.page.getByTestId('speed-3').click();
  await clockIs(creator.page, { speedIndex: '3' }, 'the creator\'s speed to take effect');
  await clockIs(stranger.page, { speedIndex: '3' }, 'the stranger to see the new speed');
  await stranger.page.getByTestId('speed-readout').filter({ hasText: 'Speed ×3' }).waitFor();

  // The operator token, pasted on this very page, re-dials the socket with it and offers the controls.
  // (Each language switch above dialled a new socket too: map labels come in the Hello locale.)
  const dialledBefore = strangerSockets.length;
  const settings = await pasteOperatorToken(stranger.page, server.adminToken);
  await stranger.page.keyboard.press('Escape');
  await settings.waitFor({ state: 'detached' });
  await stranger.page.getByTestId('play-pause').waitFor();
  assert.equal(await readOnly.isVisible(), false, 'no read-only hint with the operator token');
  assert.equal(strangerSockets.length, dialledBefore + 1, `the socket was re-dialled once: ${strangerSockets}`);
  assert.deepEqual(tokensIn(strangerSockets.at(-1)), [server.adminToken], 'the re-dialled socket carries the operator token');
  await clockIs(stranger.page, { running: 'false' }, 'the clock on the re-dialled socket');
  await stranger.page.getByTestId('play-pause').click();
  await clockIs(stranger.page, { running: 'true' }, 'the operator\'s run to take effect');
  await clockIs(creator.page, { running: 'true' }, 'the creator to see the clock run again');
  await waitUntil(async () => (await clockOf(creator.page)).gameTimeMs > paused.gameTimeMs, { what: 'the clock to advance after the operator\'s run' });
  await stranger.page.getByTestId('speed-1').click();
  await clockIs(creator.page, { speedIndex: '1' }, 'the operator\'s speed to take effect');
  await screenshot(stranger.page, 'owners-clock-operator');

  // Cleared, the controls go away again and the socket is dialled without a token.
  await clearOperatorToken(stranger.page);
  await readOnly.waitFor();
  assert.equal(await stranger.page.getByTestId('play-pause').isVisible(), false);
  assert.equal(strangerSockets.length, dialledBefore + 2, `the socket was re-dialled again: ${strangerSockets}`);
  assert.equal(strangerSockets.at(-1), strangerSockets[0], 'without a token the URL is the plain one again');
  await clockIs(stranger.page, { running: 'true', speedIndex: '1' }, 'the clock on the socket without a token');

  assert.equal(creatorSockets.length, 1, 'the creator\'s socket was never re-dialled');
  for (const profile of [creator, stranger]) {
    assert.deepEqual(profile.errors, [], 'no console errors');
    await profile.context.close();
  }
  assert.equal((await api('DELETE', `/api/schools/${school.id}`, { token: ownerToken })).status, 204);
});

test('a match: its creator may stop it and change its speed, a stranger may not, the operator may', { timeout: 180_000 }, async () => {
  const defaultMatch = (await api('GET', '/api/hns/matches')).body.matches.find((m) => m.default);
  assert.ok(defaultMatch, 'the server runs its default match');

  // The creator starts a match of no scripted seats (it waits in its lobby): Stop is offered.
  const creator = await openProfile('#/hns');
  await creator.page.getByTestId('hns-variant').selectOption('certification');
  await creator.page.getByTestId('hns-bots').selectOption('0');
  const known = new Set((await api('GET', '/api/hns/matches')).body.matches.map((m) => m.id));
  await creator.page.getByTestId('hns-create').click();
  const matchId = await waitUntil(async () => {
    const ids = (await creator.page.evaluate(() => window.__hns.matches)).map((m) => m.id).filter((id) => !known.has(id));
    return ids[0] ?? null;
  }, { what: 'the new match in the list' });
  const creatorRow = creator.page.locator(`tr[data-match-id="${matchId}"]`);
  await creatorRow.getByTestId('hns-delete').waitFor();
  assert.match(JSON.parse(await ownerTokenIn(creator.page, 'hns', matchId)).token, /^[0-9a-f]{64}$/);
  const creatorDefaultRow = creator.page.locator(`tr[data-match-id="${defaultMatch.id}"]`);
  await creatorDefaultRow.getByTestId('hns-watch-button').waitFor();
  assert.equal(await creatorDefaultRow.getByTestId('hns-delete').count(), 0, 'the default match is the operator\'s');
  await screenshot(creator.page, 'owners-hns-creator');

  // The creator's watch page dials with the owner token and offers the speed keys, which the server obeys.
  const sockets = [];
  creator.page.on('websocket', (socket) => sockets.push(socket.url()));
  await creatorRow.getByTestId('hns-watch-button').click();
  await creator.page.getByTestId('hns-watch').waitFor();
  await creator.page.getByTestId('hns-speeds').waitFor();
  await waitUntil(async () => (await creator.page.evaluate(() => window.__hns.connection)) === 'open', { what: 'the creator\'s watch socket' });
  assert.ok(sockets.some((url) => url.includes(`match=${matchId}`) && /ownerToken=[0-9a-f]{64}/.test(url)), `the watch socket carries the owner token: ${sockets}`);
  await creator.page.getByTestId('speed-8').click();
  // At 8× every frame steps eight ticks (fewer only where a turn ends): counted in frames, not in
  // seconds, so a busy machine changes how long it takes, never the ratio (1× gives one tick a frame).
  const hnsNow = () => creator.page.evaluate(() => window.__hns);
  let from = await hnsNow();
  let ticksPerFrame = 0;
  await waitUntil(async () => {  // windows of frames until one shows the key applied (it is applied as the server reads it)
    const now = await hnsNow();
    if (now.framesReceived < from.framesReceived + FRAMES_AT_SPEED) return false;
    if (now.resyncs !== from.resyncs || now.stream !== 'compact') {  // a skip forward is not a speed; frame ticks need compact
      from = now;
      return false;
    }
    ticksPerFrame = (now.frameTick - from.frameTick) / (now.framesReceived - from.framesReceived);
    from = now;
    return ticksPerFrame >= MIN_TICKS_PER_FRAME_AT_8;
  }, { timeoutMs: 60_000, what: `frames stepping at least ${MIN_TICKS_PER_FRAME_AT_8} ticks each at 8×` });
  await creator.page.getByTestId('speed-1').click();
  await screenshot(creator.page, 'owners-hns-watch-creator');

  // A second profile: no Stop on either match, and no speed keys on the watch page.
  const stranger = await openProfile('#/hns');
  const strangerRow = stranger.page.locator(`tr[data-match-id="${matchId}"]`);
  await strangerRow.getByTestId('hns-watch-button').waitFor();
  assert.equal(await strangerRow.getByTestId('hns-delete').count(), 0, 'a stranger is not offered Stop');
  assert.equal(await stranger.page.locator(`tr[data-match-id="${defaultMatch.id}"]`).getByTestId('hns-delete').count(), 0);
  await screenshot(stranger.page, 'owners-hns-stranger');
  await strangerRow.getByTestId('hns-watch-button').click();
  await waitUntil(async () => (await stranger.page.evaluate(() => window.__hns.connection)) === 'open', { what: 'the stranger\'s watch socket' });
  assert.equal(await stranger.page.getByTestId('hns-speeds').count(), 0, 'a stranger is offered no speed keys');

  // The operator token offers the speed keys here, and Stop on every match, the default one too.
  await pasteOperatorToken(stranger.page, server.adminToken);
  await stranger.page.keyboard.press('Escape');
  await stranger.page.getByTestId('hns-speeds').waitFor();
  await waitUntil(async () => (await stranger.page.evaluate(() => window.__hns.connection)) === 'open', { what: 'the re-dialled watch socket' });
  await screenshot(stranger.page, 'owners-hns-watch-operator');
  await stranger.page.goto(`${server.url}/#/hns`);
  await strangerRow.getByTestId('hns-delete').waitFor();
  await stranger.page.locator(`tr[data-match-id="${defaultMatch.id}"]`).getByTestId('hns-delete').waitFor();
  await screenshot(stranger.page, 'owners-hns-operator');

  // A wrong operator token: the watch page drops it and still shows the board; Stop is refused in words.
  const impostor = await openProfile('#/hns', {
    initScript: { fn: (token) => localStorage.setItem('hschool.operatorToken', token), arg: WRONG_TOKEN },
  });
  const impostorRow = impostor.page.locator(`tr[data-match-id="${matchId}"]`);
  impostor.allowConsoleError(/status of 403/);
  await impostorRow.getByTestId('hns-delete').click();
  await impostor.page.getByTestId('confirm').click();
  await impostor.page.getByTestId('notice').filter({ hasText: 'The operator token is wrong' }).waitFor();
  assert.equal((await api('GET', `/api/hns/matches/${matchId}`)).status, 200, 'the match still runs');
  // Chromium reports the refused handshake (403) as an error; a retry may race the fallback once.
  impostor.allowConsoleError(/WebSocket connection to .*failed/);
  impostor.allowConsoleError(/WebSocket connection to .*failed/);
  await impostorRow.getByTestId('hns-watch-button').click();
  await impostor.page.getByTestId('hns-watch-refused').waitFor({ timeout: 30_000 });
  await waitUntil(async () => (await impostor.page.evaluate(() => window.__hns.connection)) === 'open', { what: 'watching without the refused token' });
  assert.equal(await impostor.page.getByTestId('hns-speeds').count(), 0, 'no speed keys with a refused token');
  await screenshot(impostor.page, 'owners-hns-watch-refused');
  // Closed before the stop below, so their watch polls do not hear the 404 of a match that is gone.
  for (const profile of [stranger, impostor]) {
    assert.deepEqual(profile.errors, [], 'no console errors');
    await profile.context.close();
  }

  // The creator stops its match from the list; the token goes with it.
  await creator.page.goto(`${server.url}/#/hns`);
  await creatorRow.getByTestId('hns-delete').click();
  await creator.page.getByTestId('confirm').click();
  await creatorRow.waitFor({ state: 'detached' });
  assert.equal(await ownerTokenIn(creator.page, 'hns', matchId), null, 'the owner token is forgotten');
  assert.equal((await api('GET', `/api/hns/matches/${matchId}`)).status, 404, 'a stopped match is not archived');
  assert.deepEqual(creator.errors, [], 'no console errors');
  await creator.context.close();
});
