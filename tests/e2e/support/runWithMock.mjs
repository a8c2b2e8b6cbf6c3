// Runs the e2e suite against the spec-built mock server (for working on the client before the
// C++ server exists). Build the client first: npm run build.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MOCK_PORT = process.env.HSCHOOL_MOCK_PORT ?? '18081';
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const mock = spawn(process.execPath, ['tests/e2e/support/mockServer.mjs', '--port', MOCK_PORT, '--web-root', 'client/dist'], {
  cwd: repoRoot,
  stdio: ['ignore', 'inherit', 'inherit'],
});

const url = `http://127.0.0.1:${MOCK_PORT}`;
const deadline = Date.now() + 10_000;
while (Date.now() < deadline) {
  try {
    if ((await fetch(`${url}/health`)).ok) break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const tests = spawn(process.execPath, ['--test', '--test-concurrency=1', 'tests/e2e/'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, HSCHOOL_URL: url },
});
tests.on('exit', (code) => {
  mock.kill();
  process.exit(code ?? 1);
});
