// What the hide-and-seek watch page receives in headless Chromium (issue 31), counted as the issue
// measured it: every WebSocket byte the page gets, through the DevTools protocol. For the compact
// stream (the page's default) and the contract's Sprite v1 stream (?stream=sprite), each on a fresh
// default match with six server bots: bytes in the page's first 5 s, then bytes, messages and the
// compact frames the page applied per second over a steady window, and the match's own tick rate.
//
// Starts the server itself (loopback, fresh --data, the built client/dist).
// Usage: node bench/hns_watch_browser.mjs --server PATH [--seconds S] [--json]
import { launch, newPage } from '../tests/e2e/support/browser.mjs';
import { LOOPBACK, sleep, startServer, waitFor } from './server_process.mjs';

const FIRST_WINDOW_MS = 5_000;
const DEFAULT_STEADY_SECONDS = 30;
const PAGE_LIVE_TIMEOUT_MS = 30_000;
const WS_BINARY_OPCODE = 2;

function parseArgs(argv) {
  const args = { server: null, seconds: DEFAULT_STEADY_SECONDS, json: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--server') args.server = argv[++i];
    else if (flag === '--seconds') args.seconds = Number(argv[++i]);
    else if (flag === '--json') args.json = true;
    else throw new Error(`unknown argument ${flag}`);
  }
  if (!args.server) throw new Error('usage: node bench/hns_watch_browser.mjs --server PATH [--seconds S] [--json]');
  if (!(args.seconds > 0)) throw new Error('--seconds must be positive');
  return args;
}

async function rest(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

// One watch page on a fresh match; what its WebSockets brought, by the DevTools clock.
async function measure(browser, base, stream, steadySeconds) {
  const created = await rest(base, 'POST', '/api/hns/matches', { variant: 'default', bots: 6 });
  if (created.status !== 201) throw new Error(`POST /api/hns/matches: ${created.status}`);
  const id = created.body.id;
  const { page, context } = await newPage(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const frames = []; // [seconds, bytes]
  cdp.on('Network.webSocketFrameReceived', ({ timestamp, response }) => {
    const bytes = response.opcode === WS_BINARY_OPCODE ? Buffer.from(response.payloadData, 'base64').length : Buffer.byteLength(response.payloadData);
    frames.push([timestamp, bytes]);
  });
  const query = stream === 'sprite' ? '?stream=sprite' : '';
  await page.goto(`${base}/${query}#/hns/watch/${id}`);
  await waitFor(() => frames.length > 0, PAGE_LIVE_TIMEOUT_MS, `the ${stream} page's first frame`);
  await sleep(FIRST_WINDOW_MS);
  const state = () => page.evaluate(() => window.__hns);
  const s0 = await state();
  const t0 = frames.length ? frames[frames.length - 1][0] : 0;
  const tick0 = (await rest(base, 'GET', `/api/hns/matches/${id}`)).body.tick;
  const wall0 = Date.now();
  await sleep(steadySeconds * 1000);
  const s1 = await state();
  const tick1 = (await rest(base, 'GET', `/api/hns/matches/${id}`)).body.tick;
  const wall = (Date.now() - wall0) / 1000;
  const start = frames[0][0];
  let first = 0;
  let steadyBytes = 0;
  let steadyMessages = 0;
  for (const [t, bytes] of frames) {
    if (t - start < FIRST_WINDOW_MS / 1000) first += bytes;
    if (t > t0 && t <= t0 + wall) {
      steadyBytes += bytes;
      steadyMessages++;
    }
  }
  const result = {
    stream,
    match: id,
    first_5s_bytes: first,
    steady_bytes_per_s: steadyBytes / wall,
    steady_messages_per_s: steadyMessages / wall,
    page_frames_per_s: (s1.framesReceived - s0.framesReceived) / wall,
    match_ticks_per_s: (tick1 - tick0) / wall,
    resyncs: s1.resyncs,
    behind_shown: s1.behind,
  };
  await context.close();
  await rest(base, 'DELETE', `/api/hns/matches/${id}`);
  return result;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const server = await startServer(args.server, 'hns-watch');
  let session = null;
  try {
    session = await launch();
    const base = `http://${LOOPBACK}:${server.port}`;
    const compact = await measure(session.browser, base, 'compact', args.seconds);
    const contract = await measure(session.browser, base, 'sprite', args.seconds);
    const summary = { compact, contract, contract_over_compact: contract.steady_bytes_per_s / compact.steady_bytes_per_s };
    if (args.json) {
      console.log(JSON.stringify(summary));
      return;
    }
    for (const r of [compact, contract]) {
      console.log(`${r.stream.padEnd(8)} first 5 s ${String(r.first_5s_bytes).padStart(9)} B | steady ${r.steady_bytes_per_s.toFixed(0).padStart(9)} B/s, ` +
        `${r.steady_messages_per_s.toFixed(1)} messages/s, page frames ${r.page_frames_per_s.toFixed(1)}/s, match ${r.match_ticks_per_s.toFixed(1)} ticks/s, resyncs ${r.resyncs}`);
    }
    console.log(`contract / compact: ${summary.contract_over_compact.toFixed(1)}x`);
  } finally {
    await session?.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
