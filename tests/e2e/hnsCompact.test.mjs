// The compact watch stream in the browser (issue 31): the watch page asks for it and draws frames
// marked with the match's ticks; and a replay paused at one tick looks the same, pixel for pixel, on
// the canvas drawn from the compact stream and on the one drawn from the contract's Sprite v1 stream.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hnsState, ownMatches, rest } from './support/api.mjs';
import { launch, newPage, screenshot, serverUrl, waitUntil } from './support/browser.mjs';
import { decodePng } from './support/png.mjs';

const MATCH_TIMEOUT_MS = 60_000;
const REPLAY_STEP_MS = 45_000; // a contract frame carries every cone: a slow page draws a few a second
// A short match to replay: one game of one prep and one hunt turn of 24 ticks.
const SHORT_CONFIG = { maxGames: 1, turnTicks: 24, prepTurns: 1, huntTurns: 1, gameOverTicks: 24, startWaitTicks: 0 };
const SETTLE_MS = 1500; // both pages have applied what they were sent: two equal screenshots this far apart

let session;
const matches = ownMatches();

before(async () => {
  session = await launch();
});
after(async () => {
  await session?.close();
});

test('the watch page reads the compact stream: frames marked with the ticks the match plays', { timeout: 120_000 }, async () => {
  const match = await matches.create({ variant: 'certification', bots: 6 });
  const { page, errors, context } = await newPage(session.browser);
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(`${serverUrl()}/#/hns/watch/${match.id}`);
  await page.getByTestId('hns-watch').waitFor();
  const first = await waitUntil(async () => {
    const s = await hnsState(page);
    return s.stream === 'compact' && s.frameTick > 0 && s.cogs.length === 6 ? s : null;
  }, { timeoutMs: MATCH_TIMEOUT_MS, what: 'compact frames with ticks and six cogs' });
  const later = await waitUntil(async () => {
    const s = await hnsState(page);
    return s.frameTick > first.frameTick + 24 && s.framesReceived > first.framesReceived + 24 ? s : null;
  }, { timeoutMs: MATCH_TIMEOUT_MS, what: 'the frames to follow the match' });
  assert.ok(later.bytesReceived > first.bytesReceived, 'bytes are counted');
  assert.ok(sockets.some((url) => url.includes('/global?') && url.includes('stream=compact')), `sockets: ${sockets.join(', ')}`);
  assert.equal(await page.getByTestId('hns-behind').isVisible(), false, 'a page that keeps up is not told it is behind');
  await screenshot(page, 'hns-watch-compact');
  assert.deepEqual(errors, [], 'no console errors while watching');
  await context.close();
});

// Opens the replay of `id` at `tick`, paused, reading `stream`; the canvas's pixels once they settle.
async function replayCanvasAt(id, tick, stream) {
  const { page, errors, context } = await newPage(session.browser);
  const query = stream === 'sprite' ? '?stream=sprite' : '';
  await page.goto(`${serverUrl()}/${query}#/hns/replay/${id}`);
  await page.getByTestId('hns-replay').waitFor();
  await waitUntil(async () => {
    const s = await hnsState(page);
    return s.stream === stream && s.tick !== null ? s : null;
  }, { timeoutMs: 30_000, what: `the ${stream} replay's chrome` });
  if (!(await hnsState(page)).paused) await page.getByTestId('replay-play-pause').click();
  await waitUntil(async () => (await hnsState(page)).paused === true, { timeoutMs: REPLAY_STEP_MS, what: 'the replay to pause' });
  await page.getByTestId('replay-seek-tick').fill(String(tick));
  await page.getByTestId('replay-go').click();
  await waitUntil(async () => (await hnsState(page)).tick === tick, { timeoutMs: REPLAY_STEP_MS, what: `the ${stream} replay at tick ${tick}` });
  const canvas = page.getByTestId('hns-canvas');
  const image = await waitUntil(async () => {
    const a = await canvas.screenshot();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const b = await canvas.screenshot();
    return a.equals(b) ? decodePng(b) : null;
  }, { timeoutMs: REPLAY_STEP_MS, what: `the ${stream} canvas to settle` });
  await screenshot(page, `hns-replay-${stream}`);
  assert.deepEqual(errors, [], `no console errors in the ${stream} replay`);
  await context.close();
  return image;
}

test('a replay paused at one tick draws the same pixels from the compact and the contract stream', { timeout: 300_000 }, async () => {
  const { id } = await matches.create({ variant: 'certification', bots: 6, config: SHORT_CONFIG }, { variant: 'certification', bots: 6 });
  const finished = await waitUntil(async () => {
    const one = (await rest('GET', `/api/hns/matches/${id}`)).body;
    return one?.phase === 'finished' ? one : null;
  }, { timeoutMs: 120_000, intervalMs: 500, what: `match ${id} to finish` });
  const tick = Math.max(1, Math.floor(finished.tick * 0.6)); // in the hunt: cones, cogs and objects on the board
  const compact = await replayCanvasAt(id, tick, 'compact');
  const contract = await replayCanvasAt(id, tick, 'sprite');
  assert.equal(compact.width, contract.width);
  assert.equal(compact.height, contract.height);
  let differing = 0;
  for (let i = 0; i < compact.rgba.length; i++) if (compact.rgba[i] !== contract.rgba[i]) differing++;
  assert.equal(differing, 0, `${differing} channel values differ between the two canvases at tick ${tick}`);
});
