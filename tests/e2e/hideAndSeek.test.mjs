// Hide-and-seek in the browser: start a match of scripted seats and watch it move, take a seat by hand
// and move the own cog with a held key, open a finished match's replay and seek; no console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hnsState, ownMatches, rest } from './support/api.mjs';
import { launch, newPage, screenshot, serverUrl, waitUntil } from './support/browser.mjs';
import { countNear, decodePng } from './support/png.mjs';

const MATCH_TIMEOUT_MS = 60_000; // a certification game's prep is 10 s of 24 Hz ticks, plus the lobby
const MIN_MOVE = 8; // board pixels: more than rounding, less than one second of walking
// A replay frame carries every vision cone (1364² RGBA each); on a slow machine a page draws a few a
// second, so transport answers can take a while to show.
const REPLAY_STEP_MS = 45_000;
// A short match to replay: one game of one prep and one hunt turn of 24 ticks.
const SHORT_CONFIG = { maxGames: 1, turnTicks: 24, prepTurns: 1, huntTurns: 1, gameOverTicks: 24, startWaitTicks: 0 };
// The cogs' team colours as the server paints them (src/render/hns/art.hpp); nearest scaling keeps them.
const HIDER_BLUE = [63, 124, 196];
const SEEKER_RED = [224, 82, 58];
const COLOUR_TOLERANCE = 8;
const MIN_TEAM_PIXELS = 200; // a fraction of one cog at the e2e page size: none drawn gives 0

let session;
const matches = ownMatches();

before(async () => {
  session = await launch();
});
after(async () => {
  await session?.close();
});

test('a match of scripted seats started from the page can be watched: the tick and the cogs move', { timeout: 120_000 }, async () => {
  const { page, errors, context } = await newPage(session.browser);
  await page.goto(`${serverUrl()}/#/hns`);
  await page.getByTestId('hns-matches').waitFor();
  await page.getByTestId('hns-variant').selectOption('certification');
  await page.getByTestId('hns-bots').selectOption('6');
  const before = new Set((await rest('GET', '/api/hns/matches')).body.matches.map((m) => m.id));
  await page.getByTestId('hns-create').click();
  const row = await waitUntil(async () => {
    const ids = (await hnsState(page)).matches.map((m) => m.id).filter((id) => !before.has(id));
    return ids[0] ?? null;
  }, { what: 'the new match in the list' });
  matches.ids.push(row);
  await screenshot(page, 'hns-matches');
  await page.locator(`tr[data-match-id="${row}"]`).getByTestId('hns-watch-button').click();
  await page.getByTestId('hns-watch').waitFor();

  const first = await waitUntil(async () => {
    const s = await hnsState(page);
    return s.cogs.length === 6 && s.tick !== null ? s : null;
  }, { timeoutMs: MATCH_TIMEOUT_MS, what: 'six cogs and a tick on the watch page' });
  const moved = await waitUntil(async () => {
    const s = await hnsState(page);
    const movedCog = s.cogs.some((c) => {
      const was = first.cogs.find((f) => f.slot === c.slot);
      return was && Math.hypot(c.x - was.x, c.y - was.y) > MIN_MOVE;
    });
    return movedCog && s.tick > first.tick ? s : null;
  }, { timeoutMs: MATCH_TIMEOUT_MS, what: 'a cog to move while the tick advances' });
  assert.ok(moved.messages > 0);
  const shownTick = Number(await page.getByTestId('score-tick').textContent());
  assert.ok(shownTick >= first.tick, `the scoreboard shows the tick (${shownTick})`);
  await page.getByTestId('hns-canvas').waitFor();
  await screenshot(page, 'hns-watch');

  // Both PixiJS backends draw the board (the page picks Canvas 2D on software WebGL; ?renderer= forces
  // one): the canvas shows both teams' cogs, read from the screenshot's pixels.
  for (const kind of ['canvas', 'webgl']) {
    await page.goto(`${serverUrl()}/?renderer=${kind}#/hns/watch/${row}`);
    const drawn = await waitUntil(async () => {
      const s = await hnsState(page);
      return s.view === 'watch' && s.cogs.length === 6 && s.frames > 2 ? s : null;
    }, { timeoutMs: MATCH_TIMEOUT_MS, what: `the board drawn with ${kind}` });
    assert.equal(drawn.renderer, kind, `?renderer=${kind} is obeyed`);
    // The live board moves every frame, so the element never counts as "stable" for an element
    // screenshot on a busy machine: the page's pixels inside the canvas's box, taken once.
    const box = await page.getByTestId('hns-canvas').boundingBox();
    assert.ok(box, 'the canvas has a box on the page');
    const image = decodePng(await page.screenshot({ clip: box }));
    const blue = countNear(image, HIDER_BLUE, COLOUR_TOLERANCE);
    const red = countNear(image, SEEKER_RED, COLOUR_TOLERANCE);
    assert.ok(blue >= MIN_TEAM_PIXELS && red >= MIN_TEAM_PIXELS, `${kind} draws the cogs: ${blue} hider and ${red} seeker pixels`);
    await screenshot(page, `hns-watch-${kind}`);
  }
  assert.deepEqual(errors, [], 'no console errors while watching');
  await context.close();
});

test('a manual seat moves its own cog while a key is held', { timeout: 120_000 }, async () => {
  const match = await matches.create({ variant: 'certification', bots: 5 });
  const { page, errors, context } = await newPage(session.browser);
  await page.goto(`${serverUrl()}/#/hns`);
  const seatButton = page.locator(`tr[data-match-id="${match.id}"]`).getByTestId('hns-take-seat');
  await seatButton.first().waitFor();
  assert.equal(await seatButton.first().getAttribute('data-slot'), '0');
  await seatButton.first().click();
  await page.getByTestId('hns-play').waitFor();
  await page.getByTestId('hns-controls').waitFor();

  const start = await waitUntil(async () => (await hnsState(page)).own, { timeoutMs: MATCH_TIMEOUT_MS, what: 'the own cog' });
  assert.equal(start.slot, 0);
  assert.equal(start.side, 'hider', 'slot 0 hides in game 1');
  assert.match(await page.getByTestId('hns-side').textContent(), /Hider/);
  // Seat 0 hides, and hiders may walk from the prep on: hold right until the cog has gone right.
  await page.getByTestId('hns-stage').click();
  await page.keyboard.down('ArrowRight');
  let moved;
  try {
    moved = await waitUntil(async () => {
      const s = await hnsState(page);
      return s.own && s.own.x - start.x > MIN_MOVE ? s : null;
    }, { timeoutMs: MATCH_TIMEOUT_MS, what: 'the own cog to move right' });
    assert.equal(moved.mask & 0x08, 0x08, 'right is held in the mask');
  } finally {
    await page.keyboard.up('ArrowRight');
  }
  await waitUntil(async () => (await hnsState(page)).mask === 0, { what: 'the mask to clear on release' });
  assert.ok((await page.getByTestId('hns-aim').textContent()).includes('°'), 'the aim is read from the label');
  await screenshot(page, 'hns-play');
  assert.deepEqual(errors, [], 'no console errors while playing');
  await context.close();
});

test('a finished match replays, and seeking shows the tick sought', { timeout: 300_000 }, async () => {
  const { id } = await matches.create({ variant: 'certification', bots: 6, config: SHORT_CONFIG }, { variant: 'certification', bots: 6 });
  await waitUntil(async () => (await rest('GET', `/api/hns/matches/${id}`)).body?.phase === 'finished', {
    timeoutMs: 120_000,
    intervalMs: 500,
    what: `match ${id} to finish`,
  });

  const { page, errors, context } = await newPage(session.browser);
  await page.goto(`${serverUrl()}/#/hns`);
  const replayButton = page.locator(`tr[data-match-id="${id}"]`).getByTestId('hns-replay-link');
  await replayButton.waitFor();
  await replayButton.click();
  await page.getByTestId('hns-replay').waitFor();
  const chrome = await waitUntil(async () => {
    const s = await hnsState(page);
    return s.tick !== null && s.end !== null ? s : null;
  }, { timeoutMs: 30_000, what: 'the replay chrome' });
  assert.ok(chrome.end > 10, `the replay has ticks (end ${chrome.end})`);

  // Pause, then seek to a tick in the middle with the tick box, and see it.
  if (!(await hnsState(page)).paused) await page.getByTestId('replay-play-pause').click();
  await waitUntil(async () => (await hnsState(page)).paused === true, { timeoutMs: REPLAY_STEP_MS, what: 'the replay to pause' });
  const target = Math.floor(chrome.end / 2);
  await page.getByTestId('replay-seek-tick').fill(String(target));
  await page.getByTestId('replay-go').click();
  await waitUntil(async () => (await hnsState(page)).tick === target, { timeoutMs: REPLAY_STEP_MS, what: `the replay at tick ${target}` });
  await waitUntil(async () => (await page.getByTestId('replay-tick').textContent()).includes(String(target)), { what: 'the tick shown' });
  assert.equal(Number(await page.getByTestId('replay-seek').inputValue()), target, 'the seek bar follows');

  // Step one tick back, then seek with the bar itself.
  await page.getByTestId('replay-back').click();
  await waitUntil(async () => (await hnsState(page)).tick === target - 1, { timeoutMs: REPLAY_STEP_MS, what: 'one tick back' });
  await page.getByTestId('replay-seek').fill('5');
  await waitUntil(async () => (await hnsState(page)).tick === 5, { timeoutMs: REPLAY_STEP_MS, what: 'the seek bar to seek' });
  assert.equal((await hnsState(page)).mismatch, null, 'the replay matches its hashes');
  assert.equal(await page.getByTestId('hns-mismatch').isVisible(), false);
  await screenshot(page, 'hns-replay');

  await page.goto(`${serverUrl()}/#/hns/results/${id}`);
  await page.getByTestId('results-seats').waitFor();
  assert.equal(await page.getByTestId('results-seat').count(), 6);
  await screenshot(page, 'hns-results');
  assert.deepEqual(errors, [], 'no console errors in the replay');
  await context.close();
});
