// Headless Chromium for the e2e tests: Debian's binary, a fresh profile, every console error kept.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

// playwright-core is installed with the client; resolve it from there.
const require = createRequire(new URL('../../../client/package.json', import.meta.url));
const { chromium } = require('playwright-core');

export const CHROMIUM = process.env.HSCHOOL_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../build/e2e-screenshots/', import.meta.url));
// What a page action or a waitUntil may take: a quiet machine needs a second or two, and only a
// failing test waits this long. 15 s was met by a busy one only most of the time (a live board's
// boundingBox took longer beside a build, issue 38), so it is the C++ tests' kWait.
export const DEFAULT_TIMEOUT_MS = 60_000;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Two arena pages must both keep rendering although only one can be "in front".
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

export function serverUrl() {
  const url = process.env.HSCHOOL_URL;
  if (!url) throw new Error('Set HSCHOOL_URL to the server under test, e.g. HSCHOOL_URL=http://127.0.0.1:18080 npm run e2e');
  return url.replace(/\/+$/, '');
}

// One browser per test file (playwright gives it a fresh temporary profile); each newPage() gets
// its own context: own storage, own socket.
export async function launch() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return { browser, close: () => browser.close() };
}

export async function newPage(browser, { viewport = { width: 1280, height: 800 }, locale = 'en-US' } = {}) {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  page.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
  const errors = [];
  const allowed = []; // patterns of errors a test provoked on purpose, each consumed once
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = `${message.text()} @ ${message.location().url ?? ''}`;
    const index = allowed.findIndex((pattern) => pattern.test(text));
    if (index >= 0) allowed.splice(index, 1);
    else errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return {
    page,
    context,
    errors,
    // Chromium logs every 4xx fetch as a console error; a test that provokes one says so first.
    allowConsoleError(pattern) {
      allowed.push(pattern);
    },
  };
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

// Polls until `probe` returns a truthy value; bounded, and says what it waited for on failure.
export async function waitUntil(probe, { timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = 100, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function debugState(page) {
  return page.evaluate(() => window.__hschool);
}
