// Two arena pages: keys held in one move that avatar in the other's view. Protocol v5 sends each
// page only the players near it (a 500-unit window), so A first walks over to B.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEFAULT_TIMEOUT_MS, debugState, launch, newPage, screenshot, serverUrl, waitUntil } from './support/browser.mjs';

const MIN_MOVE = 40; // world units: clearly more than interpolation noise

let session;
before(async () => {
  session = await launch();
});
after(async () => {
  await session?.close();
});

const entity = (state, id) => state?.arena?.entities.find((e) => e.id === id);

const NEAR = 60; // world units: well inside the 5 × 5-cell window of the other page

// Waits until the avatar stands still in its own page (commands still in flight have landed).
async function settle(page, id) {
  let last = null;
  return waitUntil(async () => {
    const at = entity(await debugState(page), id);
    const still = at && last && at.x === last.x && at.y === last.y;
    last = at;
    return still ? at : null;
  }, { what: `avatar ${id} to stand still` });
}

const KEY_AXES = {
  ArrowRight: ['x', 1], ArrowLeft: ['x', -1], ArrowDown: ['y', 1], ArrowUp: ['y', -1],
  KeyD: ['x', 1], KeyA: ['x', -1], KeyS: ['y', 1], KeyW: ['y', -1],
};
const SPEED = 240; // world units per second, the server's default
const MOVE = 2 * MIN_MOVE; // how far a test's press carries A: clearly more than MIN_MOVE, well inside B's window
const STUCK_MS = 3000; // a press that moved A nowhere for this long met an obstacle: the walk tries another way

// Holds a key until the page's own prediction (exact, no round trip) has carried the avatar
// `distance` that way, then releases it: how far it goes is set by what the page did, not by how
// fast a busy machine delivered the key. It also lets go when the avatar stops (an obstacle).
async function holdUntilMoved(page, key, distance) {
  const [axis, sign] = KEY_AXES[key];
  const start = (await debugState(page)).arena.predicted;
  await page.keyboard.down(key);
  try {
    await page.waitForFunction(({ axis, sign, from, distance, stuckMs }) => {
      const p = window.__hschool?.arena?.predicted;
      if (!p) return false;
      const now = performance.now();
      const w = (window.__e2eHold ??= { at: p[axis], since: now });
      if (p[axis] !== w.at) Object.assign(w, { at: p[axis], since: now });
      return (p[axis] - from) * sign >= distance || now - w.since > stuckMs;
    }, { axis, sign, from: start[axis], distance, stuckMs: STUCK_MS }, { polling: 20, timeout: 5 * (1000 * distance) / SPEED + DEFAULT_TIMEOUT_MS });
  } finally {
    await page.keyboard.up(key);
    await page.evaluate(() => { delete window.__e2eHold; });
  }
}

// Walks A's avatar towards B's (across, then along; again if it was off) until B's view has it.
async function meet(a, idA, b, idB) {
  const own = async (page, id) => entity(await debugState(page), id);
  for (let round = 0; round < 8; round++) {
    let near = true;
    for (const axis of ['x', 'y']) {
      const [from, to] = [await settle(a.page, idA), await own(b.page, idB)];
      const distance = Math.abs(to[axis] - from[axis]);
      if (distance <= NEAR) continue;
      near = false;
      const key = axis === 'x' ? (to.x > from.x ? 'ArrowRight' : 'ArrowLeft') : (to.y > from.y ? 'ArrowDown' : 'ArrowUp');
      await holdUntilMoved(a.page, key, distance - NEAR / 2);
    }
    if (near) break;
  }
  await settle(a.page, idA);
  return waitUntil(async () => entity(await debugState(b.page), idA), { what: 'B to see A' });
}

// Keys that move A towards B on each axis, so a test's moves keep A inside B's window.
function towards(from, to) {
  return { x: to.x >= from.x ? ['ArrowRight', 1] : ['ArrowLeft', -1], y: to.y >= from.y ? ['KeyS', 1] : ['KeyW', -1] };
}

test('keys pressed in one arena page move that avatar in the other', async () => {
  const a = await newPage(session.browser);
  const b = await newPage(session.browser);
  await a.page.goto(`${serverUrl()}/#/arena`);
  await b.page.goto(`${serverUrl()}/#/arena`);

  const idA = await waitUntil(async () => (await debugState(a.page))?.arena?.playerId, { what: 'page A to be welcomed' });
  const idB = await waitUntil(async () => (await debugState(b.page))?.arena?.playerId, { what: 'page B to be welcomed' });
  assert.notEqual(idA, idB);
  await waitUntil(async () => entity(await debugState(b.page), idB), { what: 'B to see itself' });
  await meet(a, idA, b, idB);
  const start = await waitUntil(async () => entity(await debugState(b.page), idA), { what: 'B to see A' });
  await waitUntil(async () => entity(await debugState(a.page), idB), { what: 'A to see B' });
  await a.page.getByTestId('arena-canvas').waitFor();
  await screenshot(a.page, 'arena-a');

  // Across (arrow keys), then along (WASD), towards B, as seen from the other page.
  const bAt = entity(await debugState(b.page), idB);
  const keys = towards(start, bAt);
  await holdUntilMoved(a.page, keys.x[0], MOVE);
  const movedRight = await waitUntil(async () => {
    const seen = entity(await debugState(b.page), idA);
    return seen && (seen.x - start.x) * keys.x[1] > MIN_MOVE ? seen : null;
  }, { what: 'A to move across in B' });
  await settle(a.page, idA);
  await holdUntilMoved(a.page, keys.y[0], MOVE);
  const movedDown = await waitUntil(async () => {
    const seen = entity(await debugState(b.page), idA);
    return seen && (seen.y - movedRight.y) * keys.y[1] > MIN_MOVE ? seen : null;
  }, { what: 'A to move along in B' });
  assert.ok((movedDown.y - start.y) * keys.y[1] > 0);

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

test('the arena speaks v5: the own avatar is predicted, measured key to screen, and agrees with the server', async () => {
  const a = await newPage(session.browser);
  const b = await newPage(session.browser);
  await a.page.goto(`${serverUrl()}/#/arena`);
  await b.page.goto(`${serverUrl()}/#/arena`);
  const idA = await waitUntil(async () => (await debugState(a.page))?.arena?.playerId, { what: 'page A to be welcomed' });
  const idB = await waitUntil(async () => (await debugState(b.page))?.arena?.playerId, { what: 'page B to be welcomed' });
  await waitUntil(async () => entity(await debugState(a.page), idA), { what: 'A to see itself' });
  await waitUntil(async () => entity(await debugState(b.page), idB), { what: 'B to see itself' });
  await meet(a, idA, b, idB);
  const before = await debugState(a.page);
  assert.equal(before.arena.protocol, 5);
  const ownBefore = entity(before, idA);
  assert.ok(ownBefore, 'A draws its own avatar');

  // A's own view moves it before any round trip could have: the key-to-screen figure is measured.
  const along = towards(ownBefore, entity(await debugState(b.page), idB)).y;
  await holdUntilMoved(a.page, along[0] === 'KeyS' ? 'ArrowDown' : 'ArrowUp', MOVE);
  const moved = await waitUntil(async () => {
    const state = await debugState(a.page);
    const own = entity(state, idA);
    return own && (own.y - ownBefore.y) * along[1] > MIN_MOVE && state.arena.inputLatencyMs !== null ? state : null;
  }, { what: 'A to move in its own view' });
  assert.ok(moved.arena.inputLatencyMs >= 0);
  assert.match(await a.page.getByTestId('arena-hud').textContent(), /key → screen \d+ ms/);

  // Standing still again, the prediction equals what the server sends B, to half a quantum.
  const settled = await waitUntil(async () => {
    const state = await debugState(a.page);
    const seen = entity(await debugState(b.page), idA);
    const p = state.arena.predicted;
    return p && seen && Math.abs(seen.x - p.x) <= 0.0625 && Math.abs(seen.y - p.y) <= 0.0625
      ? { state, seen } : null;
  }, { what: "A's prediction to agree with the server's position seen by B" });
  assert.ok((settled.state.arena.predicted.y - ownBefore.y) * along[1] > MIN_MOVE);

  assert.deepEqual(a.errors, [], 'no console errors in page A');
  assert.deepEqual(b.errors, [], 'no console errors in page B');
  await a.context.close();
  await b.context.close();
});
