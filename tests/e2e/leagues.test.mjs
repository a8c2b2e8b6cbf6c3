// Leagues in the browser (issue 33, point 3): start a league of random against burrow from the
// leagues page, watch it finish, read the table (interval bars on one axis), the pairwise grid and the
// matches, open a match's replay and see it drawn; and Stop a bigger league, which keeps its table and
// ends the page's polling. No console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hnsState, rest } from './support/api.mjs';
import { launch, newPage, screenshot, serverUrl, waitUntil } from './support/browser.mjs';

const LEAGUE_TIMEOUT_MS = 120_000; // two certification matches take well under a second headless
const REPLAY_TIMEOUT_MS = 45_000; // a replay frame carries every cone: a slow page draws a few a second
const BIG_MATCHES = 400; // per pairing: long enough to be stopped while it runs

let session;
const created = [];

before(async () => {
  session = await launch();
});
after(async () => {
  await session?.close();
  for (const id of created) {
    const one = await rest('GET', `/api/hns/leagues/${id}`).catch(() => null);
    if (one?.body?.state === 'running') await rest('DELETE', `/api/hns/leagues/${id}`).catch(() => {});
  }
});

const leagueState = (page) => page.getByTestId('league-status').getAttribute('data-state');

// Fills the form's entrants (exactly these, in order), matches and seed, and starts the league; the
// page then opens the league's own page. Returns its id.
async function startLeague(page, entrants, matches, seed) {
  const rows = page.getByTestId('league-entrant-draft');
  await rows.first().waitFor();
  while ((await rows.count()) < entrants.length) await page.getByTestId('league-entrant-add').click();
  while ((await rows.count()) > entrants.length) await rows.last().getByTestId('league-entrant-remove').click();
  for (const [i, [name, kind]] of entrants.entries()) {
    await rows.nth(i).getByTestId('league-entrant-kind').selectOption(kind);
    await rows.nth(i).getByTestId('league-entrant-name').fill(name);
  }
  await page.getByTestId('league-matches').fill(String(matches));
  await page.getByTestId('league-seed').fill(String(seed));
  const variant = page.getByTestId('league-variant');
  if ((await variant.locator('option[value="certification"]').count()) > 0) await variant.selectOption('certification');
  await page.getByTestId('league-create').click();
  await page.getByTestId('hns-league').waitFor();
  const id = /#\/hns\/leagues\/([A-Za-z0-9_-]+)$/.exec(page.url())?.[1];
  assert.ok(id, `the league's page opened: ${page.url()}`);
  created.push(id);
  return id;
}

test('a league of random against burrow finishes: interval bars, the grid, and replays that draw', { timeout: 300_000 }, async () => {
  const { page, errors, context } = await newPage(session.browser);
  await page.goto(`${serverUrl()}/#/hns`);
  await page.getByTestId('hns-leagues-link').click();
  await page.getByTestId('hns-leagues').waitFor();
  // Add and remove an entrant on the way: the form keeps the two that stay.
  await page.getByTestId('league-entrant-add').click();
  assert.equal(await page.getByTestId('league-entrant-draft').count(), 3);
  const id = await startLeague(page, [['e2e-random', 'builtin:random'], ['e2e-burrow', 'builtin:burrow']], 2, 7);

  await waitUntil(async () => (await leagueState(page)) === 'finished', { timeoutMs: LEAGUE_TIMEOUT_MS, intervalMs: 250, what: `league ${id} to finish` });
  const progress = page.getByTestId('league-progress');
  assert.equal(await progress.getAttribute('data-played'), '2');
  assert.equal(await progress.getAttribute('data-planned'), '2');
  assert.equal(await page.getByTestId('league-stop').count(), 0, 'no Stop for a finished league');

  // The table: both entrants, each with an interval bar and a rating mark inside its track.
  const rows = page.getByTestId('league-entrant');
  await waitUntil(async () => (await rows.count()) === 2, { what: 'both entrants in the table' });
  assert.deepEqual((await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.name))).sort(), ['e2e-burrow', 'e2e-random']);
  for (let i = 0; i < 2; i++) {
    const row = rows.nth(i);
    const track = await row.locator('.league-track').boundingBox();
    const bar = await row.getByTestId('league-bar').boundingBox();
    const mark = await row.getByTestId('league-mark').boundingBox();
    assert.ok(track && bar && mark, 'a track, a bar and a mark');
    assert.ok(bar.width > 2, `the interval has a width (${bar.width} px)`);
    assert.ok(bar.x >= track.x - 1 && bar.x + bar.width <= track.x + track.width + 1, 'the bar stays on the axis');
    assert.ok(mark.x + mark.width / 2 >= bar.x - 2 && mark.x + mark.width / 2 <= bar.x + bar.width + 2, 'the rating sits inside its interval');
    assert.match(await row.locator('.league-rating').textContent(), /^\d+$/);
  }
  // The ratings are sorted best first.
  const ratings = await page.locator('[data-testid="league-entrant"] .league-rating').allTextContents();
  assert.ok(Number(ratings[0]) >= Number(ratings[1]), `sorted by rating: ${ratings}`);

  // The grid: one cell each way, the same two matches seen from both sides.
  const cells = page.getByTestId('league-grid-cell');
  assert.equal(await cells.count(), 2);
  const wdl = async (row, col) => {
    const text = await page.locator(`[data-testid="league-grid-cell"][data-row="${row}"][data-col="${col}"] .league-wdl`).textContent();
    return text.split('–').map(Number);
  };
  const [w, d, l] = await wdl('e2e-random', 'e2e-burrow');
  assert.deepEqual(await wdl('e2e-burrow', 'e2e-random'), [l, d, w]);
  assert.equal(w + d + l, 2);

  // Every match listed with a link to its replay view.
  assert.equal(await page.getByTestId('league-result').count(), 2);
  const links = page.getByTestId('league-replay-link');
  assert.equal(await links.count(), 2);
  const href = await links.first().getAttribute('href');
  const match = /^#\/hns\/replay\/([A-Za-z0-9_-]+)$/.exec(href)?.[1];
  assert.ok(match, `a replay route: ${href}`);
  await screenshot(page, 'league-finished');

  // The same page in Russian.
  await page.getByTestId('lang-ru').click();
  await page.getByText('Рейтинги (Эло)').waitFor();
  await page.getByTestId('lang-en').click();

  // The replay view of that match draws frames.
  await links.first().click();
  await page.getByTestId('hns-replay').waitFor();
  const drawn = await waitUntil(async () => {
    const s = await hnsState(page);
    return s.view === 'replay' && s.match === match && s.tick !== null && s.end > 10 && s.frames > 0 ? s : null;
  }, { timeoutMs: REPLAY_TIMEOUT_MS, what: `the replay of ${match} to draw a frame` });
  assert.equal(drawn.mismatch, null, 'the replay matches its hashes');
  await screenshot(page, 'league-replay');
  assert.deepEqual(errors, [], 'no console errors');
  await context.close();
});

test('Stop turns a running league to stopped, keeps its table and ends the polling', { timeout: 180_000 }, async () => {
  const { page, errors, context } = await newPage(session.browser);
  await page.goto(`${serverUrl()}/#/hns/leagues`);
  await page.getByTestId('hns-leagues').waitFor();
  const id = await startLeague(page, [['e2e-burrow', 'builtin:burrow'], ['e2e-scatter', 'builtin:scatter']], BIG_MATCHES, 3);
  await waitUntil(async () => Number(await page.getByTestId('league-progress').getAttribute('data-played')) >= 1,
    { timeoutMs: LEAGUE_TIMEOUT_MS, intervalMs: 200, what: 'a first match played' });
  assert.equal(await leagueState(page), 'running', `league ${id} still runs (${BIG_MATCHES} matches)`);

  await page.getByTestId('league-stop').click();
  await page.getByTestId('confirm-stop-league').getByTestId('confirm').click();
  await waitUntil(async () => (await leagueState(page)) === 'stopped', { timeoutMs: 30_000, intervalMs: 200, what: `league ${id} to stop` });
  assert.equal(await page.getByTestId('league-stop').count(), 0, 'no Stop once stopped');
  const played = Number(await page.getByTestId('league-progress').getAttribute('data-played'));
  assert.ok(played >= 1 && played < BIG_MATCHES, `stopped part-way (${played} of ${BIG_MATCHES})`);
  await waitUntil(async () => (await page.getByTestId('league-entrant').count()) === 2, { what: 'the table kept' });
  assert.equal(await page.getByTestId('league-bar').count(), 2);
  assert.equal((await rest('GET', `/api/hns/leagues/${id}`)).body.state, 'stopped');

  // A league that is over is not asked about again: once its table has caught up with the stop (the
  // server refits a moment later), the page has no request in flight and none scheduled.
  let asked = 0;
  page.on('request', (request) => {
    if (request.url().includes(`/api/hns/leagues/${id}`)) asked++;
  });
  await waitUntil(async () => (await hnsState(page)).polling === false, { timeoutMs: 30_000, intervalMs: 200, what: 'the page to stop asking about the league' });
  const quiet = asked;
  assert.equal((await rest('GET', `/api/hns/leagues/${id}`)).body.state, 'stopped');
  await page.getByTestId('league-entrant').first().waitFor();
  assert.equal((await hnsState(page)).polling, false, 'nothing scheduled once the league stopped');
  assert.equal(asked, quiet, 'no polling after the league stopped');

  // The list shows it stopped.
  await page.getByTestId('league-back').click();
  const row = page.locator(`[data-testid="leagues-row"][data-league-id="${id}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-state'), 'stopped');
  await screenshot(page, 'leagues-list');
  assert.deepEqual(errors, [], 'no console errors');
  await context.close();
});
