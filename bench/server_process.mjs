// Our server for the browser benchmarks: loopback, a fresh --data folder, the built client/dist;
// resolves once it logs that it listens. `extra` adds options (later ones win).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LOOPBACK = '127.0.0.1';
const SERVER_START_TIMEOUT_MS = 10_000;
const SERVER_STOP_TIMEOUT_MS = 5_000;
const POLL_MS = 10;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Polls `probe` until it returns a truthy value; throws after timeoutMs naming what it waited for.
export async function waitFor(probe, timeoutMs, what, intervalMs = POLL_MS) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export async function startServer(binary, prefix, extra = []) {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const child = spawn(binary, [
    '--address', LOOPBACK, '--port', '0', '--data', join(dataDir, `${prefix}.db`),
    '--mods', join(ROOT, 'mods'), '--web-root', join(ROOT, 'client/dist'), ...extra,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  let spawnError = null;
  child.on('error', (error) => { spawnError = error; });
  const onOutput = (chunk) => { log += chunk; };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const stop = async () => {
    if (!spawnError && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (!(await Promise.race([exited.then(() => true), sleep(SERVER_STOP_TIMEOUT_MS).then(() => false)]))) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const port = await waitFor(() => {
      if (spawnError) throw new Error(`server did not start: ${spawnError.message}`);
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
      return Number(/event=listening address=\S+ port=(\d+)/.exec(log)?.[1] ?? 0);
    }, SERVER_START_TIMEOUT_MS, 'the server to listen');
    return { port, pid: child.pid, stop, log: () => log };
  } catch (error) {
    await stop();
    throw error;
  }
}
