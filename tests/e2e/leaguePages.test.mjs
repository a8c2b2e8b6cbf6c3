// The league runner's browser pages (issue 20): /client/global opens the watch view of the default
// match and /client/player?slot= the play view of that seat, straight from the server's page (no
// hash, no redirect); no console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ownMatches } from './support/api.mjs';
import { launch, newPage, serverUrl, waitUntil } from './support/browser.mjs';

const VIEW_TIMEOUT_MS = 20_000;
let session;
const matches = ownMatches();

before(async () => {
  session = await launch();
});
after(async () => {
  await session?.close();
});

const hns = (page) => page.evaluate(() => window.__hns);

test('/client/global is the watch view of the default match', { timeout: 60_000 }, async () => {
  const { page, errors, context } = await newPage(session.browser);
  const response = await page.goto(`${serverUrl()}/client/global`);
  assert.equal(response.status(), 200);
  await page.getByTestId('hns-watch').waitFor({ timeout: VIEW_TIMEOUT_MS });
  await waitUntil(async () => (await hns(page)).view === 'watch', { timeoutMs: VIEW_TIMEOUT_MS, what: 'the watch view' });
  assert.match((await hns(page)).match ?? '', /^m\d+$/);
  assert.equal(new URL(page.url()).pathname, '/client/global', 'no redirect');
  assert.deepEqual(errors, []);
  await context.close();
});

test('/client/player?slot=5 is the play view of seat 5', { timeout: 60_000 }, async () => {
  // A match of this test's own, so seat 5 is free whatever other test files did with theirs.
  const { id } = await matches.create({ variant: 'certification' });
  const { page, errors, context } = await newPage(session.browser);
  const response = await page.goto(`${serverUrl()}/client/player?match=${id}&slot=5`);
  assert.equal(response.status(), 200);
  await waitUntil(async () => (await hns(page)).view === 'play', { timeoutMs: VIEW_TIMEOUT_MS, what: 'the play view' });
  assert.equal((await hns(page)).match, id);
  // The page asked for seat 5 of that match (the heading names both).
  await page.locator('#hns-play-heading').filter({ hasText: '5' }).waitFor({ timeout: VIEW_TIMEOUT_MS });
  assert.deepEqual(errors, []);
  await context.close();
});
