// Input-to-screen latency of the own avatar in the arena page (issue 23, protocol v5), in headless
// Chromium on this machine, with nothing and with RTT added between the browser and the server.
//
// Starts the server itself (loopback, fresh --data, the built client/dist), and for each added RTT
// opens /#/arena (for RTT > 0 page and WebSocket both through a Node TCP proxy that delays every
// chunk by RTT/2 each way, in order), presses and releases arrow keys N times with the avatar
// standing still before each press, and per press takes two figures:
//   page  - the page's own inputLatencyMs (client/src/arena/keyToScreen.ts: the keydown's
//           event.timeStamp to the end of Pixi's render of the first frame drawing the own avatar
//           moved in the pressed direction), read in the frame that first draws the move, and
//           only when the page's inputLatencyCount grew since the key (else null: not measured);
//   probe - this script's probe in the page: the same keydown's event.timeStamp to the end of the
//           first animation frame whose drawn avatar (window.__hschool) has moved.
// Also the median requestAnimationFrame interval of the arena page and of a blank page (what the
// headless display would give), the page's ping readout (rttMs) and which renderer Pixi chose
// (arena.renderer: 'canvas' where WebGL is software, see client/src/arena/rendererChoice.ts), and
// the page's count of mispredicted Frames over the run (arena.corrections).
//
// Usage: node bench/arena_latency.mjs --server PATH [--presses N] [--rtt-ms 0,100] [--json]
import { createServer, connect } from 'node:net';
import { launch, newPage } from '../tests/e2e/support/browser.mjs';
import { LOOPBACK, sleep, startServer, waitFor } from './server_process.mjs';

const DEFAULT_PRESSES = 30;
const DEFAULT_RTTS_MS = [0, 100];
const ARENA_LIVE_TIMEOUT_MS = 20_000;
const FIRST_PING_TIMEOUT_MS = 10_000;
const MOVE_TIMEOUT_MS = 2_000; // a press that moves nothing in this long (a wall, an obstacle) is a miss
const STILL_TIMEOUT_MS = 5_000;
const STILL_POLL_MS = 30;
const STILL_POLLS = 4; // consecutive equal polls (> 2 ticks at 20 Hz): the avatar has stopped
const HOLD_MS = 150; // ~36 world units at the default speed: a clear move, well inside the arena
const PAUSE_MIN_MS = 150; // a random pause after standing still, so presses land at any tick phase
const PAUSE_SPREAD_MS = 250;
const POLL_MS = 10;
const MAX_FRAME_DELTAS = 600;
const BLANK_FRAMES = 120;
const BLANK_FRAMES_TIMEOUT_MS = 10_000;
const STALE_MARGIN_MS = 2; // the page rounds to whole ms; more above the probe is an earlier start
const MIN_VALID_FRACTION = 0.5; // fewer measured presses than this share of N: the run failed
const PER_PRESS_BUDGET_MS = HOLD_MS + PAUSE_MIN_MS + PAUSE_SPREAD_MS + MOVE_TIMEOUT_MS + STILL_TIMEOUT_MS;
const FIXED_BUDGET_MS = 90_000; // server, browser, page loads
// Left and right, up and down: the avatar ends each round where it started.
const KEYS = ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp'];


function parseArgs(argv) {
  const args = { server: null, presses: DEFAULT_PRESSES, rtts: DEFAULT_RTTS_MS, json: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--server') args.server = argv[++i];
    else if (flag === '--presses') args.presses = Number(argv[++i]);
    else if (flag === '--rtt-ms') args.rtts = argv[++i].split(',').map(Number);
    else if (flag === '--json') args.json = true;
    else throw new Error(`unknown argument ${flag}`);
  }
  if (!args.server) throw new Error('usage: node bench/arena_latency.mjs --server PATH [--presses N] [--rtt-ms 0,100] [--json]');
  if (!Number.isInteger(args.presses) || args.presses < 1) throw new Error('--presses must be a positive integer');
  if (args.rtts.some((rtt) => !Number.isFinite(rtt) || rtt < 0)) throw new Error('--rtt-ms takes non-negative numbers');
  return args;
}


// Writes what arrives on `from` to `to` delayMs later, in arrival order, the end included.
function delayedPipe(from, to, delayMs) {
  const queue = [];
  let timer = null;
  const flush = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0].due <= now) {
      const { chunk } = queue.shift();
      if (to.destroyed) continue;
      if (chunk === null) to.end();
      else to.write(chunk);
    }
    if (queue.length > 0) timer = setTimeout(flush, queue[0].due - now);
  };
  const push = (chunk) => {
    queue.push({ chunk, due: performance.now() + delayMs });
    if (timer === null) timer = setTimeout(flush, delayMs);
  };
  from.on('data', push);
  from.on('end', () => push(null));
}

// A loopback TCP proxy to targetPort adding oneWayMs in each direction.
async function startDelayProxy(targetPort, oneWayMs) {
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(targetPort, LOOPBACK);
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    const destroyBoth = () => { client.destroy(); upstream.destroy(); };
    client.on('error', destroyBoth);
    upstream.on('error', destroyBoth);
    delayedPipe(client, upstream, oneWayMs);
    delayedPipe(upstream, client, oneWayMs);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, resolve);
  });
  const close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  };
  return { port: server.address().port, close };
}

// Runs in the page: records rAF intervals and, per keydown, the end of the first animation frame
// whose drawn own avatar differs from where it was at the key event.
function installProbe(maxFrameDeltas) {
  const ownAt = (arena) => {
    const own = arena?.entities.find((e) => e.id === arena.playerId);
    return own ? { x: own.x, y: own.y } : null;
  };
  const probe = { deltas: [], presses: [] };
  window.__latencyProbe = probe;
  // A message posted from rAF runs after every rAF callback of that frame, Pixi's included.
  const afterFrame = new MessageChannel();
  afterFrame.port1.onmessage = () => {
    const press = probe.presses.at(-1);
    if (!press || press.frameAt !== null || !press.from) return;
    const arena = window.__hschool.arena;
    const at = ownAt(arena);
    if (at && (at.x !== press.from.x || at.y !== press.from.y)) {
      press.frameAt = performance.now();
      press.page = arena.inputLatencyCount > press.count ? arena.inputLatencyMs : null;
    }
  };
  let last = null;
  const onFrame = (ts) => {
    if (last !== null) probe.deltas.push(ts - last);
    if (probe.deltas.length > maxFrameDeltas) probe.deltas.shift();
    last = ts;
    afterFrame.port2.postMessage(0);
    requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);
  // Capture phase on window: before the page's own keydown listener, with the same timeStamp.
  window.addEventListener('keydown', (event) => {
    if (event.repeat) return;
    const arena = window.__hschool.arena;
    probe.presses.push({ key: event.code, keyAt: event.timeStamp, from: ownAt(arena), count: arena?.inputLatencyCount ?? 0, frameAt: null, page: null });
  }, true);
}

const arenaState = (page) => page.evaluate(() => window.__hschool.arena);
const pressCount = (page) => page.evaluate(() => window.__latencyProbe.presses.length);
const pressAt = (page, index) => page.evaluate((i) => window.__latencyProbe.presses[i] ?? null, index);

async function waitLive(page) {
  await waitFor(async () => {
    const arena = await arenaState(page);
    return arena?.playerId && arena.predicted && arena.entities.some((e) => e.id === arena.playerId);
  }, ARENA_LIVE_TIMEOUT_MS, 'the arena to draw the own avatar');
  await waitFor(async () => (await arenaState(page)).rttMs !== null, FIRST_PING_TIMEOUT_MS, 'a ping round trip');
}

// Stopped: drawn exactly at the predicted position, unchanged over STILL_POLLS polls.
async function waitStill(page) {
  let last = null;
  let same = 0;
  await waitFor(async () => {
    const arena = await arenaState(page);
    const own = arena.entities.find((e) => e.id === arena.playerId);
    const still = own && arena.predicted && own.x === arena.predicted.x && own.y === arena.predicted.y
      && last && own.x === last.x && own.y === last.y;
    same = still ? same + 1 : 0;
    last = own;
    return same >= STILL_POLLS;
  }, STILL_TIMEOUT_MS, 'the own avatar to stand still', STILL_POLL_MS);
}

// One press: down, wait for the move to be drawn (bounded), hold, up. Null when nothing moved.
async function pressOnce(page, key) {
  const index = await pressCount(page);
  await page.keyboard.down(key);
  const downAt = Date.now();
  let press = null;
  try {
    press = await waitFor(async () => {
      const seen = await pressAt(page, index);
      return seen && seen.frameAt !== null ? seen : null;
    }, MOVE_TIMEOUT_MS, `${key} to move the avatar`).catch(() => null);
    await sleep(Math.max(0, HOLD_MS - (Date.now() - downAt)));
  } finally {
    await page.keyboard.up(key);
  }
  if (!press) return null;
  const arena = await arenaState(page);
  return { key, page: press.page, probe: press.frameAt - press.keyAt, rttMs: arena.rttMs };
}

// The rAF interval of an empty page: the display's frame, without the arena's drawing cost.
async function blankFrameInterval(browser) {
  const { page, context } = await newPage(browser);
  try {
    const deltas = await page.evaluate(({ frames, timeoutMs }) => new Promise((resolve, reject) => {
      const out = [];
      let last = null;
      setTimeout(() => reject(new Error('blank page: too few animation frames')), timeoutMs);
      const onFrame = (ts) => {
        if (last !== null) out.push(ts - last);
        last = ts;
        if (out.length < frames) requestAnimationFrame(onFrame);
        else resolve(out);
      };
      requestAnimationFrame(onFrame);
    }), { frames: BLANK_FRAMES, timeoutMs: BLANK_FRAMES_TIMEOUT_MS });
    return quantile(deltas, 0.5);
  } finally {
    await context.close();
  }
}

async function measureSetting(browser, serverPort, rttMs, presses) {
  const proxy = rttMs > 0 ? await startDelayProxy(serverPort, rttMs / 2) : null;
  const { page, context, errors } = await newPage(browser);
  try {
    await page.goto(`http://${LOOPBACK}:${proxy ? proxy.port : serverPort}/#/arena`);
    await page.evaluate(installProbe, MAX_FRAME_DELTAS);
    await waitLive(page);
    await page.getByTestId('arena-stage').focus();
    const samples = [];
    let misses = 0;
    for (let i = 0; i < presses; i++) {
      await waitStill(page);
      await sleep(PAUSE_MIN_MS + Math.random() * PAUSE_SPREAD_MS);
      const sample = await pressOnce(page, KEYS[i % KEYS.length]);
      if (sample) samples.push(sample);
      else misses++;
    }
    await waitStill(page);
    const deltas = await page.evaluate(() => window.__latencyProbe.deltas);
    const hud = await page.getByTestId('arena-hud').textContent();
    const { renderer, corrections } = await arenaState(page);
    return { rttMs, samples, misses, deltas, hud, renderer, corrections, errors: [...errors] };
  } finally {
    await context.close();
    await proxy?.close();
  }
}

function quantile(values, q) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const round1 = (value) => (value === null ? null : Math.round(value * 10) / 10);

function summarise(result, displayFrameMs) {
  const page = result.samples.map((s) => s.page).filter((v) => v !== null);
  const probe = result.samples.map((s) => s.probe);
  const rtts = result.samples.map((s) => s.rttMs).filter((v) => v !== null);
  const frameMs = quantile(result.deltas, 0.5);
  // The page's figure above the probe's (which ends later in the same frame): it started at an
  // earlier key event than this press.
  const stale = result.samples.filter((s) => s.page !== null && s.page > s.probe + STALE_MARGIN_MS).length;
  const figures = (values) => ({ p50: round1(quantile(values, 0.5)), p95: round1(quantile(values, 0.95)), max: round1(quantile(values, 1)) });
  return {
    rttAddedMs: result.rttMs,
    presses: result.samples.length,
    misses: result.misses,
    pageUnmeasured: result.samples.filter((s) => s.page === null).length,
    pageLatencyMs: figures(page),
    probeLatencyMs: figures(probe),
    pageAboveProbe: stale,
    frameIntervalMs: round1(frameMs),
    displayFrameMs: round1(displayFrameMs),
    measuredRttMs: round1(quantile(rtts, 0.5)),
    renderer: result.renderer,
    corrections: result.corrections, // mispredicted Frames over the whole run
    hudAfterRun: result.hud,
    consoleErrors: result.errors.length,
    pagePerPressMs: page,
    probePerPressMs: probe.map(round1),
  };
}

function printTable(rows) {
  const header = ['RTT added', 'presses', 'page p50/p95/max ms', 'probe p50/p95/max ms', 'page>probe', 'frame ms', 'blank frame ms', 'RTT seen ms', 'renderer', 'corrections'];
  const cells = rows.map((r) => [
    `${r.rttAddedMs} ms`, `${r.presses}${r.misses ? ` (+${r.misses} missed)` : ''}`,
    `${r.pageLatencyMs.p50} / ${r.pageLatencyMs.p95} / ${r.pageLatencyMs.max}${r.pageUnmeasured ? ` (${r.pageUnmeasured} unmeasured)` : ''}`,
    `${r.probeLatencyMs.p50} / ${r.probeLatencyMs.p95} / ${r.probeLatencyMs.max}`,
    String(r.pageAboveProbe), String(r.frameIntervalMs), String(r.displayFrameMs), String(r.measuredRttMs), String(r.renderer), String(r.corrections),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  for (const line of [header, ...cells]) console.log(line.map((c, i) => c.padEnd(widths[i])).join('  '));
}

function failures(rows, presses) {
  return rows.flatMap((r) => [
    ...(r.presses < presses * MIN_VALID_FRACTION ? [`RTT ${r.rttAddedMs}: only ${r.presses} of ${presses} presses measured`] : []),
    ...(r.frameIntervalMs === null ? [`RTT ${r.rttAddedMs}: no animation frames`] : []),
    ...(r.measuredRttMs === null ? [`RTT ${r.rttAddedMs}: no ping readout`] : []),
  ]);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const budgetMs = FIXED_BUDGET_MS + args.rtts.length * args.presses * PER_PRESS_BUDGET_MS;
  // Whatever hangs, the run ends: the server is a child and goes with us.
  let server = null;
  const watchdog = setTimeout(() => {
    console.error(`arena_latency: gave up after ${budgetMs} ms`);
    server?.stop();
    process.exit(3);
  }, budgetMs);
  watchdog.unref();
  let session = null;
  try {
    server = await startServer(args.server, 'arena-latency');
    session = await launch();
    const displayFrameMs = await blankFrameInterval(session.browser);
    const rows = [];
    for (const rtt of args.rtts) rows.push(summarise(await measureSetting(session.browser, server.port, rtt, args.presses), displayFrameMs));
    printTable(rows);
    if (args.json) console.log(JSON.stringify({ bench: 'arena_latency', rows }));
    const failed = failures(rows, args.presses);
    for (const line of failed) console.error(`arena_latency: ${line}`);
    return failed.length === 0 ? 0 : 1;
  } finally {
    await session?.close().catch(() => {});
    await server?.stop();
    clearTimeout(watchdog);
  }
}

main().then((code) => { process.exitCode = code; }, (error) => {
  console.error(`arena_latency: ${error.stack ?? error}`);
  process.exitCode = 2;
});
