// Menu → create (with a rejected name) → open → clock runs, pauses, speeds up → deleted elsewhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { debugState, launch, newPage, screenshot, serverUrl, waitUntil } from './support/browser.mjs';
import { E2E_NAME_PREFIX, chromiumWithAFreeSchoolSlot, createSchool, deleteLeftoverE2eSchools, listSchools } from './support/api.mjs';

const TOO_LONG_NAME = 'x'.repeat(41);
const RATE_WINDOW_MS = 2000; // long against a frame's landing jitter, timed between clock changes in the page
const PAUSE_WATCH_MS = 1200; // a paused clock must not move for this long

const session = chromiumWithAFreeSchoolSlot(launch);

async function gameTime(page) {
  const value = await page.getAttribute('[data-testid="clock"]', 'data-game-time-ms');
  return value === null ? null : Number(value);
}

// Game milliseconds per real millisecond, timed inside the page from one clock change to another at
// least RATE_WINDOW_MS later: both ends are the moments new clock frames landed, so neither a late
// poll nor a frame's age skews the rate (a busy machine only makes the window longer).
async function clockRate(page) {
  return page.evaluate(async (windowMs) => {
    const read = () => Number(document.querySelector('[data-testid="clock"]')?.getAttribute('data-game-time-ms'));
    const nextChange = () => new Promise((resolve) => {
      const from = read();
      const poll = () => (read() !== from ? resolve({ at: performance.now(), game: read() }) : setTimeout(poll, 5));
      poll();
    });
    const start = await nextChange();
    while (performance.now() - start.at < windowMs) await new Promise((resolve) => setTimeout(resolve, 20));
    const end = await nextChange();
    return (end.game - start.game) / (end.at - start.at);
  }, RATE_WINDOW_MS);
}

test('create, open, pause, speed up and lose a school to a delete elsewhere', async () => {
  const a = await newPage(session.browser);
  const { page } = a;
  // An operator token kept from an owners-mode server changes nothing on this open one: the schools
  // socket is dialled exactly as before owners mode, and every control is offered.
  await a.context.addInitScript(() => localStorage.setItem('hschool.operatorToken', 'e'.repeat(64)));
  const gameSockets = [];
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).pathname === '/ws/game') gameSockets.push(socket.url());
  });
  await page.goto(`${serverUrl()}/#/`);
  await page.getByTestId('school-count').waitFor();
  await screenshot(page, 'menu');

  // A 41-character name is refused by the server and the message appears next to the field.
  await page.getByTestId('create-school').click();
  const dialog = page.getByTestId('create-dialog');
  await dialog.waitFor();
  await dialog.getByTestId('map-editor').waitFor();
  await screenshot(page, 'create-dialog');
  await dialog.getByTestId('create-name').fill(TOO_LONG_NAME);
  a.allowConsoleError(/status of 400/);
  await dialog.getByTestId('create-submit').click();
  const nameProblem = dialog.getByTestId('problem-invalid-name');
  await nameProblem.waitFor();
  assert.match(await nameProblem.innerText(), /40 characters/);
  assert.equal(await dialog.getByTestId('create-name').getAttribute('aria-invalid'), 'true');
  await screenshot(page, 'create-dialog-invalid-name');

  // The random-name button fills a suggestion; then a name of our own is created.
  await dialog.getByTestId('random-name').click();
  const suggestion = await waitUntil(async () => {
    const value = (await dialog.getByTestId('create-name').inputValue()).trim();
    return value !== '' && value !== TOO_LONG_NAME ? value : null;
  }, { what: 'a random name' });
  assert.ok([...suggestion].length <= 40, 'a suggestion is a valid name');
  const name = `${E2E_NAME_PREFIX}${Date.now()}`;
  await dialog.getByTestId('create-name').fill(name);
  await dialog.getByTestId('create-submit').click();
  await dialog.waitFor({ state: 'detached' });
  const card = page.getByTestId('school-card').filter({ hasText: name });
  await card.waitFor();
  const created = (await listSchools()).schools.find((s) => s.name === name);
  assert.ok(created, 'the server lists the new school');

  // Open it: the clock arrives and the date advances.
  await card.getByTestId('open-school').click();
  await waitUntil(async () => (await page.evaluate(() => location.hash)) === `#/school/${created.id}`, { what: 'the school route' });
  const first = await waitUntil(() => gameTime(page), { what: 'the first clock' });
  await waitUntil(async () => (await gameTime(page)) > first, { what: 'the date to advance' });
  await page.getByTestId('tree-node').first().waitFor();
  assert.deepEqual(gameSockets, [`${serverUrl().replace(/^http/, 'ws')}/ws/game`], 'open mode: no ownerToken on the schools socket');
  assert.equal(await page.getByTestId('clock-readonly').isVisible(), false, 'open mode: the clock is not read-only');
  assert.ok(await page.getByTestId('people').isVisible());
  assert.ok(await page.getByTestId('activities').isVisible());
  await screenshot(page, 'school');

  // Pause: the server's clock reports paused and the time stops.
  if ((await page.getAttribute('[data-testid="clock"]', 'data-running')) !== 'true') {
    await page.getByTestId('play-pause').click();
    await page.waitForSelector('[data-testid="clock"][data-running="true"]');
  }
  await page.getByTestId('play-pause').click();
  await page.waitForSelector('[data-testid="clock"][data-running="false"]');
  const pausedAt = await gameTime(page);
  await page.waitForTimeout(PAUSE_WATCH_MS);
  assert.equal(await gameTime(page), pausedAt, 'a paused clock does not move');
  assert.match(await page.getByTestId('run-state').innerText(), /Paused/);
  await screenshot(page, 'school-paused');

  // Play at ×1, then ×4 runs clearly faster; the pressed button follows the server.
  await page.getByTestId('play-pause').click();
  await page.waitForSelector('[data-testid="clock"][data-running="true"]');
  await page.getByTestId('speed-1').click();
  await page.waitForSelector('[data-testid="clock"][data-speed-index="1"]');
  const rateAtOne = await clockRate(page);
  await page.getByTestId('speed-4').click();
  await page.waitForSelector('[data-testid="clock"][data-speed-index="4"]');
  assert.equal(await page.getByTestId('speed-4').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByTestId('speed-1').getAttribute('aria-pressed'), 'false');
  assert.equal((await debugState(page)).school.running, true, 'pressing a speed does not pause the school');
  const rateAtFour = await clockRate(page);
  assert.ok(rateAtOne > 0, `the clock runs at ×1 (rate ${rateAtOne})`);
  assert.ok(rateAtFour > rateAtOne * 2.5, `×4 (${rateAtFour}) runs faster than ×1 (${rateAtOne})`);
  await screenshot(page, 'school-x4');

  // Delete it from a second browser context: the first returns to the menu with a notice. The
  // server runs open (loopback), so a browser that did not create the school is offered Delete too.
  const b = await newPage(session.browser);
  await b.page.goto(`${serverUrl()}/#/`);
  await waitUntil(async () => (await debugState(b.page)).access.mode === 'open', { what: 'the page to learn open mode' });
  const otherCard = b.page.getByTestId('school-card').filter({ hasText: name });
  await otherCard.getByTestId('delete-school').click();
  await b.page.getByTestId('confirm-delete').waitFor();
  await screenshot(b.page, 'delete-confirm');
  await b.page.getByTestId('confirm').click();
  await otherCard.waitFor({ state: 'detached' });

  await waitUntil(async () => (await page.evaluate(() => location.hash)) === '#/', { what: 'the first page to return to the menu' });
  await page.getByTestId('notice').waitFor();
  await page.getByTestId('school-count').waitFor();
  assert.equal(await page.getByTestId('school-card').filter({ hasText: name }).count(), 0);
  await screenshot(page, 'menu-after-school-gone');

  assert.deepEqual(a.errors, [], 'no console errors in the first page');
  assert.deepEqual(b.errors, [], 'no console errors in the second page');
  await a.context.close();
  await b.context.close();
});

test('Esc closes the create dialog and the limit is shown as used / max', async () => {
  const a = await newPage(session.browser, { viewport: { width: 390, height: 800 } });
  const { page } = a;
  await page.goto(`${serverUrl()}/#/`);
  const list = await listSchools();
  await waitUntil(async () => (await page.getByTestId('school-count').innerText()) === `${list.schools.length} / ${list.maxSchools}`, {
    what: 'the used / max count',
  });
  await page.getByTestId('create-school').click();
  await page.getByTestId('create-dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('create-dialog').waitFor({ state: 'detached' });
  await screenshot(page, 'menu-phone');
  assert.deepEqual(a.errors, []);
  await a.context.close();
});

test('at the school limit, create is disabled with an explanation', async () => {
  const list = await listSchools();
  for (let i = list.schools.length; i < list.maxSchools; i++) await createSchool(`${E2E_NAME_PREFIX}limit ${i}`);
  const a = await newPage(session.browser);
  const { page } = a;
  await page.goto(`${serverUrl()}/#/`);
  await page.getByTestId('limit-note').waitFor();
  assert.equal(await page.getByTestId('school-count').innerText(), `${list.maxSchools} / ${list.maxSchools}`);
  assert.equal(await page.getByTestId('create-school').isDisabled(), true);
  assert.match(await page.getByTestId('limit-note').innerText(), new RegExp(`limit of ${list.maxSchools} schools`));
  await screenshot(page, 'menu-at-limit');

  // Freeing a slot enables it again on the next refresh, without a reload.
  await deleteLeftoverE2eSchools();
  await waitUntil(async () => !(await page.getByTestId('create-school').isDisabled()), { what: 'create to be enabled again' });
  assert.deepEqual(a.errors, []);
  await a.context.close();
});
