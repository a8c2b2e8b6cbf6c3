// Two arena pages: keys held in one move that avatar in the other's view.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { debugState, launch, newPage, screenshot, serverUrl, waitUntil } from './support/browser.mjs';

const MIN_MOVE = 40; // world units: clearly more than interpolation noise

let session;
before(async () => {
  session = await launch();
});
after(async () => {
  await session?.close();
});

const entity = (state, id) => state?.arena?.entities.find((e) => e.id === id);

async function holdUntil(page, key, condition, what) {
  await page.keyboard.down(key);
  try {
    return await waitUntil(condition, { what });
  } finally {
    await page.keyboard.up(key);
  }
}

test('keys pressed in one arena page move that avatar in the other', async () => {
  const a = await newPage(session.browser);
  const b = await newPage(session.browser);
  await a.page.goto(`${serverUrl()}/#/arena`);
  await b.page.goto(`${serverUrl()}/#/arena`);

  const idA = await waitUntil(async () => (await debugState(a.page))?.arena?.playerId, { what: 'page A to be welcomed' });
  const idB = await waitUntil(async () => (await debugState(b.page))?.arena?.playerId, { what: 'page B to be welcomed' });
  assert.notEqual(idA, idB);
  const start = await waitUntil(async () => entity(await debugState(b.page), idA), { what: 'B to see A' });
  await waitUntil(async () => entity(await debugState(a.page), idB), { what: 'A to see B' });
  await a.page.getByTestId('arena-canvas').waitFor();
  await screenshot(a.page, 'arena-a');

  // Right (arrow key), then down (WASD), as seen from the other page.
  const movedRight = await holdUntil(a.page, 'ArrowRight', async () => {
    const seen = entity(await debugState(b.page), idA);
    return seen && seen.x - start.x > MIN_MOVE ? seen : null;
  }, 'A to move right in B');
  const movedDown = await holdUntil(a.page, 'KeyS', async () => {
    const seen = entity(await debugState(b.page), idA);
    return seen && seen.y - movedRight.y > MIN_MOVE ? seen : null;
  }, 'A to move down in B');
  assert.ok(movedDown.y > start.y);

  // B itself did not move: its own avatar stays where the server put it.
  const bInA = entity(await debugState(a.page), idB);
  const bInB = entity(await debugState(b.page), idB);
  assert.ok(Math.abs(bInA.x - bInB.x) < MIN_MOVE && Math.abs(bInA.y - bInB.y) < MIN_MOVE);

  const stateA = await debugState(a.page);
  assert.ok(stateA.arena.inputSequence > 10, 'inputs flow at ~30 Hz with an increasing sequence');
  await waitUntil(async () => (await debugState(a.page)).arena.rttMs !== null, { what: 'a ping round trip' });
  await screenshot(b.page, 'arena-b');

  // A leaving (its page closes, and with it the socket) despawns A in B's view.
  assert.deepEqual(a.errors, [], 'no console errors in page A');
  await a.context.close();
  await waitUntil(async () => !entity(await debugState(b.page), idA), { what: 'A to disappear from B' });

  assert.deepEqual(b.errors, [], 'no console errors in page B');
  await b.context.close();
});
