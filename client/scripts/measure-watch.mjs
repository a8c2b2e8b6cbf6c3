// Measures the hide-and-seek watch page in headless Chromium, relatively and in one run (client/README.md):
//  1. frame rate of the watch view of a full match (six scripted seats at 24 Hz) against the same view
//     of an empty board (a match in its lobby with no seats), in alternating windows on one page size:
//     board frames drawn per second (window.__hns.frames; the stage draws on demand, paced) and
//     animation frames per second, plus stream messages received and the share of time in JS;
//  2. the JS heap of the full-match watch view, after a forced GC, sampled over two minutes.
// Not part of `make test`. Usage (a server with hide-and-seek must be running):
//   HSCHOOL_URL=http://127.0.0.1:8080 node client/scripts/measure-watch.mjs [--windows 3] [--window-s 15] [--heap-s 120]
//     [--renderer webgl|canvas]   (default: the page's own choice; --heap-s 240 also reports the last 2 minutes)
//     [--heap-diff]               (what grew between the heap run's first and last sample, by node type and name)
import { createRequire } from 'node:module';

const require = createRequire(new URL('../package.json', import.meta.url));
const { chromium } = require('playwright-core');

const text = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const arg = (name, fallback) => Number(text(name, fallback));
const URL_BASE = (process.env.HSCHOOL_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const CHROMIUM = process.env.HSCHOOL_CHROMIUM ?? '/usr/bin/chromium';
const WINDOWS = arg('windows', 3); // alternating empty/full windows each
const WINDOW_S = arg('window-s', 15);
const WARMUP_S = 5;
const HEAP_S = arg('heap-s', 120);
const HEAP_EVERY_S = 10;
// '' lets the page choose (rendererChoice.ts: Canvas 2D on software WebGL); 'webgl' or 'canvas' forces one.
const RENDERER = text('renderer', '');
// --heap-diff: heap snapshots at the start and the end of the heap run, the biggest growths by kind.
const HEAP_DIFF = process.argv.includes('--heap-diff');
const HEAP_DIFF_ROWS = 12;
const VIEWPORT = { width: 1280, height: 800 };
// Long enough for warm-up, the fps windows and the heap run: many games of a long hunt.
const LONG_CONFIG = { maxGames: 16 };

async function api(method, path, body) {
  const response = await fetch(`${URL_BASE}${path}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Counts display frames (requestAnimationFrame) over `seconds` inside the page.
async function fps(page, seconds) {
  return page.evaluate((ms) => new Promise((resolve) => {
    let frames = 0;
    const start = performance.now();
    const step = (now) => {
      frames++;
      if (now - start < ms) requestAnimationFrame(step);
      else resolve((frames * 1000) / (now - start));
    };
    requestAnimationFrame(step);
  }), seconds * 1000);
}

async function heapAfterGc(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize;
}

async function watch(page, id, what) {
  await page.goto(`${URL_BASE}/${RENDERER ? `?renderer=${RENDERER}` : ''}#/hns/watch/${id}`);
  await page.getByTestId('hns-canvas').waitFor();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const s = await page.evaluate(() => window.__hns);
    if (s.messages > 5 && (what === 'empty' || s.cogs.length === 6)) return s;
    if (Date.now() > deadline) throw new Error(`${what} board never arrived: ${JSON.stringify(s)}`);
    await sleep(200);
  }
}

// A heap snapshot summed by node type and name: Map<'type:name', { count, bytes }> of self sizes.
async function heapSnapshot(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const chunks = [];
  const onChunk = (event) => chunks.push(event.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snapshot = JSON.parse(chunks.join(''));
  const fields = snapshot.snapshot.meta.node_fields;
  const typeNames = snapshot.snapshot.meta.node_types[0];
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const sums = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const key = `${typeNames[snapshot.nodes[i + type]]}:${String(snapshot.strings[snapshot.nodes[i + name]]).slice(0, 60)}`;
    const sum = sums.get(key) ?? { count: 0, bytes: 0 };
    sum.count++;
    sum.bytes += snapshot.nodes[i + size];
    sums.set(key, sum);
  }
  return sums;
}

function printHeapGrowth(before, after) {
  const rows = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key) ?? { count: 0, bytes: 0 };
    const b = after.get(key) ?? { count: 0, bytes: 0 };
    rows.push({ key, count: b.count - a.count, bytes: b.bytes - a.bytes });
  }
  rows.sort((x, y) => y.bytes - x.bytes);
  console.log(`heap snapshot growth: ${(rows.reduce((a, r) => a + r.bytes, 0) / 1024).toFixed(0)} KiB in all (native backing stores included)`);
  for (const r of rows.slice(0, HEAP_DIFF_ROWS)) console.log(`  ${(r.bytes / 1024).toFixed(1).padStart(9)} KiB ${String(r.count).padStart(6)} × ${r.key}`);
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(2);

// The JS heap of the full match's watch view on a fresh page, after a forced GC, every HEAP_EVERY_S.
async function measureHeap(context, full, errors) {
  const heapPage = await context.newPage();
  heapPage.on('pageerror', (e) => errors.push(e.message));
  const cdp = await context.newCDPSession(heapPage);
  await watch(heapPage, full.id, 'full');
  await sleep(WARMUP_S * 1000);
  const samples = [];
  const first = HEAP_DIFF ? await heapSnapshot(cdp) : null;
  const start = Date.now();
  for (let t = 0; t <= HEAP_S; t += HEAP_EVERY_S) {
    await sleep(Math.max(0, start + t * 1000 - Date.now()));
    const used = await heapAfterGc(cdp);
    const s = await heapPage.evaluate(() => window.__hns);
    samples.push({ t, used, messages: s.messages, tick: s.tick, ended: s.ended });
    console.log(`heap t=${String(t).padStart(3)} s ${mib(used)} MiB (messages ${s.messages}, tick ${s.tick}${s.ended ? `, ended ${s.ended}` : ''})`);
  }
  // Least-squares slope over the run and over its last two minutes, and the first vs last third.
  const slopeOf = (xs) => {
    const mt = mean(xs.map((s) => s.t));
    const mu = mean(xs.map((s) => s.used));
    return xs.reduce((a, s) => a + (s.t - mt) * (s.used - mu), 0) / xs.reduce((a, s) => a + (s.t - mt) ** 2, 0);
  };
  const n = samples.length;
  const third = Math.max(1, Math.floor(n / 3));
  const head = mean(samples.slice(0, third).map((s) => s.used));
  const tail = mean(samples.slice(-third).map((s) => s.used));
  console.log(`heap: first third ${mib(head)} MiB, last third ${mib(tail)} MiB, slope ${(slopeOf(samples) / 1024).toFixed(2)} KiB/s over ${HEAP_S} s`);
  const lastTwoMinutes = samples.filter((s) => s.t >= HEAP_S - 120);
  if (HEAP_S > 120) {
    const used = lastTwoMinutes.map((s) => s.used);
    console.log(`heap, last 120 s: ${mib(Math.min(...used))}–${mib(Math.max(...used))} MiB, slope ${(slopeOf(lastTwoMinutes) / 1024).toFixed(2)} KiB/s`);
  }
  if (first) printHeapGrowth(first, await heapSnapshot(cdp));
  if (samples.some((s) => s.ended)) console.log('warning: the match ended during the heap run');
}

async function main() {
  const full = await api('POST', '/api/hns/matches', { variant: 'default', bots: 6, config: LONG_CONFIG });
  const empty = await api('POST', '/api/hns/matches', { variant: 'default', bots: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless', '--no-first-run', '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
      '--enable-precise-memory-info'],
  });
  const results = { empty: [], full: [] }; // board frames drawn per second
  const rafs = { empty: [], full: [] }; // animation frames per second
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));

    for (let w = 0; w < WINDOWS; w++) {
      for (const [what, match] of [['empty', empty], ['full', full]]) {
        await watch(page, match.id, what);
        await sleep(WARMUP_S * 1000);
        const before = await page.evaluate(() => window.__hns);
        const raf = await fps(page, WINDOW_S);
        const after = await page.evaluate(() => window.__hns);
        const per = (key) => (after[key] - before[key]) / WINDOW_S;
        const drawn = per('frames');
        results[what].push(drawn);
        rafs[what].push(raf);
        console.log(`window ${w + 1} ${what.padEnd(5)} ${after.renderer} board ${drawn.toFixed(1)} frames/s (${(per('drawMs') / 10).toFixed(0)}% of the time in JS draw), ` +
          `animation frames ${raf.toFixed(1)}/s, received ${per('received').toFixed(1)} msg/s, apply ${(per('applyMs') / 10).toFixed(0)}% of the time, ` +
          `pixel blocks ${per('pixelHits').toFixed(1)} reused + ${per('pixelMisses').toFixed(1)} decoded/s, ` +
          `textures ${per('reused').toFixed(1)} reused + ${per('uploads').toFixed(1)} uploaded/s`);
      }
    }
    const emptyFps = mean(results.empty);
    const fullFps = mean(results.full);
    console.log(`board frame rate: empty ${emptyFps.toFixed(1)} fps, full ${fullFps.toFixed(1)} fps, ratio ${(fullFps / emptyFps).toFixed(3)} (target ≥ 0.9)`);
    const emptyRaf = mean(rafs.empty);
    const fullRaf = mean(rafs.full);
    console.log(`animation frames: empty ${emptyRaf.toFixed(1)}/s, full ${fullRaf.toFixed(1)}/s, ratio ${(fullRaf / emptyRaf).toFixed(3)}`);

    await page.close();
    if (HEAP_S > 0) await measureHeap(context, full, errors);
    if (errors.length) console.log(`console errors: ${errors.join(' | ')}`);
  } finally {
    await browser.close();
    await api('DELETE', `/api/hns/matches/${full.id}`).catch(() => {});
    await api('DELETE', `/api/hns/matches/${empty.id}`).catch(() => {});
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
