#!/usr/bin/env node
// `npm test`: every check of the project, in order, stopping at the first stage that fails.
//   1 type-check   tsc --noEmit -p .
//   2 build        node esbuild.mjs --tests
//   3 unit         mocha over out/test/unit/**/*.test.js in plain Node
//   4 install      bash test/harness/install-vscode.sh (Chromium, Node 24, code-server; idempotent)
//   5 package      npm run package -> dist-vsix/modelgate.vsix
//   6 integration  the suites of test/integration inside a real VS Code 1.139 extension host
//   7 e2e          mocha over out/test/e2e/**/*.e2e.test.js, driving the web workbench in Chromium
// and last, alone on a line, `N passed, N failed` (`, N skipped` when some were), totalled over
// the three test layers. Exit code 0 only when every stage passed and at least one test ran.
//
// Knobs (for local iteration; the default is everything):
//   MODELGATE_SKIP=unit,e2e           skip stages by id (also MODELGATE_SKIP_E2E=1 and the like)
//   MODELGATE_KEEP_GOING=1            run the later test layers even when one failed
//   MODELGATE_TEST_GREP=<regex>       only matching integration tests
//   MODELGATE_KEEP_TMP=1              keep VS Code profiles and logs of passing runs too
// Timings of each stage are also written to test-results/timings.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const node = process.execPath;
const MIN = 60_000;

const skipList = new Set(
  (process.env.MODELGATE_SKIP ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean),
);
const skipped = (id) => skipList.has(id) || process.env[`MODELGATE_SKIP_${id.toUpperCase()}`] === '1';
const keepGoing = process.env.MODELGATE_KEEP_GOING === '1';

function findFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findFiles(p, suffix));
    else if (name.endsWith(suffix)) out.push(p);
  }
  return out;
}

const counts = { passed: 0, failed: 0, skipped: 0 };
const countsDir = mkdtempSync(join(tmpdir(), 'modelgate-test-counts-'));
let current; // the running child process, killed on Ctrl-C
let vscodeVersion;

/** Runs one command in its own process group with a hard timeout; resolves with the exit code. */
function run(command, args, { timeoutMs, env = {} }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], detached: true, env: { ...process.env, ...env } });
    current = child;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(`\n[test] TIMEOUT: '${[command, ...args].join(' ')}' still running after ${timeoutMs / MIN} min; stopping it`);
      killGroup(child.pid, 'SIGTERM');
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000).unref();
    }, timeoutMs);
    child.once('error', (err) => {
      console.error(`[test] cannot run ${command}: ${err.message}`);
      clearTimeout(timer);
      current = undefined;
      resolve('spawn error');
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      // Whatever the stage started and left behind in its group goes too.
      killGroup(child.pid, 'SIGKILL');
      resolve(timedOut ? 'timeout' : (code ?? (signal ? `signal ${signal}` : 1)));
    });
  });
}

function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Gone already.
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (current) killGroup(current.pid, 'SIGTERM');
    setTimeout(() => {
      if (current) killGroup(current.pid, 'SIGKILL');
      process.exit(130);
    }, 3000).unref();
  });
}

/** Runs a test layer that reports its counts as JSON to MODELGATE_COUNTS_FILE. */
async function runLayer(id, command, args, timeoutMs) {
  const file = join(countsDir, `${id}.json`);
  const code = await run(command, args, { timeoutMs, env: { MODELGATE_COUNTS_FILE: file } });
  let layer = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync(file)) layer = { ...layer, ...JSON.parse(readFileSync(file, 'utf8')) };
  // A layer that crashed before reporting (a suite that does not load, a timeout) is a failure
  // even though no single test was counted as failed.
  if (code !== 0 && layer.failed === 0) layer.failed = 1;
  if (code === 'timeout' && layer.running) console.error(`[test] ${id} was stopped while running: ${layer.running}`);
  counts.passed += layer.passed;
  counts.failed += layer.failed;
  counts.skipped += layer.skipped;
  if (layer.vscodeVersion) vscodeVersion = layer.vscodeVersion;
  const note = `${layer.passed} passed, ${layer.failed} failed${layer.skipped ? `, ${layer.skipped} skipped` : ''}`;
  return { ok: code === 0 && layer.failed === 0, note, testFailure: true };
}

/**
 * esbuild never deletes outputs, so the bundle of a deleted or renamed test would keep running
 * from out/. Removes every out/test/** and out/harness/** bundle whose source is gone (not all
 * of out/: other people may be running tests from it in the same working tree).
 */
function pruneStaleBundles() {
  let removed = 0;
  const check = (outDir, srcDir) => {
    for (const file of findFiles(join(root, outDir), '.js')) {
      const rel = file.slice(join(root, outDir).length + 1).replace(/\.js$/, '');
      if (!existsSync(join(root, srcDir, `${rel}.ts`))) {
        rmSync(file, { force: true });
        rmSync(`${file}.map`, { force: true });
        removed += 1;
      }
    }
  };
  check('out/test', 'test');
  check('out/harness', 'test/harness');
  return removed;
}

const mochaBin = join(root, 'node_modules/mocha/bin/mocha.js');
const reporter = join(root, 'test/harness/counting-reporter.cjs');

const stages = [
  {
    id: 'typecheck',
    title: 'Type-check: tsc --noEmit -p .',
    async run() {
      const code = await run(node, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.'], { timeoutMs: 10 * MIN });
      return { ok: code === 0 };
    },
  },
  {
    id: 'build',
    title: 'Build: node esbuild.mjs --tests',
    async run() {
      const code = await run(node, ['esbuild.mjs', '--tests'], { timeoutMs: 5 * MIN });
      const pruned = pruneStaleBundles();
      return { ok: code === 0, note: pruned ? `removed ${pruned} stale bundle(s)` : undefined };
    },
  },
  {
    id: 'unit',
    title: `Unit tests: mocha over out/test/unit/**/*.test.js (plain Node ${process.version})`,
    async run() {
      if (!findFiles(join(root, 'out/test/unit'), '.test.js').length) {
        console.log('[test] WARNING: no compiled unit tests in out/test/unit');
        return { ok: true, note: 'no unit tests found' };
      }
      return runLayer('unit', node, [mochaBin, '--config', 'test/unit/.mocharc.json', '--reporter', reporter], 15 * MIN);
    },
  },
  {
    id: 'install',
    title: 'Install the VS Code test tools: bash test/harness/install-vscode.sh',
    needed: () => !(skipped('integration') && skipped('e2e')),
    async run() {
      const code = await run('bash', ['test/harness/install-vscode.sh'], { timeoutMs: 30 * MIN });
      return { ok: code === 0 };
    },
  },
  {
    id: 'package',
    title: 'Package the extension: npm run package -> dist-vsix/modelgate.vsix',
    async run() {
      const vsix = join(root, 'dist-vsix/modelgate.vsix');
      rmSync(vsix, { force: true });
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      // Every stage runs with stdin closed: vsce must never wait on a y/N prompt.
      const code = await run(npm, ['run', '--silent', 'package'], { timeoutMs: 5 * MIN });
      if (code !== 0) return { ok: false };
      if (!existsSync(vsix)) {
        console.error(`[test] npm run package succeeded but ${vsix} does not exist`);
        return { ok: false };
      }
      return { ok: true, note: `${(statSync(vsix).size / 1024).toFixed(1)} KB` };
    },
  },
  {
    id: 'integration',
    title: 'Integration tests: mocha inside a real VS Code 1.139 extension host (code-server)',
    async run() {
      if (!existsSync(join(root, 'out/harness/integration.js'))) {
        console.error('[test] out/harness/integration.js is missing: the build did not produce the harness');
        return { ok: false, testFailure: true };
      }
      return runLayer('integration', node, ['out/harness/integration.js'], 35 * MIN);
    },
  },
  {
    id: 'e2e',
    title: 'End-to-end tests: the web workbench in headless Chromium (playwright-core)',
    async run() {
      if (!findFiles(join(root, 'out/test/e2e'), '.e2e.test.js').length) {
        console.log('[test] WARNING: no compiled e2e tests in out/test/e2e');
        return { ok: true, note: 'no e2e tests found' };
      }
      return runLayer('e2e', node, [mochaBin, '--config', 'test/e2e/.mocharc.json', '--reporter', reporter], 30 * MIN);
    },
  },
];

const fmt = (ms) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);
const results = [];
const started = Date.now();
console.log(`[test] Modelgate test run: Node ${process.version}, ${cpus().length} cores${process.env.CI ? ', CI' : ''}`);
let stoppedAt;
for (const [i, stage] of stages.entries()) {
  const label = `[${i + 1}/${stages.length}] ${stage.id}`;
  if (stoppedAt) {
    results.push({ id: stage.id, status: 'not run', ms: 0 });
    continue;
  }
  if (skipped(stage.id) || (stage.needed && !stage.needed())) {
    console.log(`\n==> ${label}: skipped${skipped(stage.id) ? ' (MODELGATE_SKIP)' : ' (not needed)'}`);
    results.push({ id: stage.id, status: 'skipped', ms: 0 });
    continue;
  }
  console.log(`\n==> ${label}: ${stage.title}`);
  const t0 = Date.now();
  let outcome;
  try {
    outcome = await stage.run();
  } catch (err) {
    console.error(`[test] ${stage.id} crashed: ${err.stack ?? err}`);
    outcome = { ok: false };
  }
  const ms = Date.now() - t0;
  results.push({ id: stage.id, status: outcome.ok ? 'ok' : 'FAILED', ms, note: outcome.note });
  console.log(`<== ${label}: ${outcome.ok ? 'ok' : 'FAILED'} in ${fmt(ms)}${outcome.note ? ` (${outcome.note})` : ''}`);
  if (!outcome.ok && !(keepGoing && outcome.testFailure)) stoppedAt = stage.id;
}
rmSync(countsDir, { recursive: true, force: true });

const total = Date.now() - started;
console.log('\n==> Summary');
for (const r of results)
  console.log(`  ${r.id.padEnd(12)} ${r.status.padEnd(8)} ${r.ms ? fmt(r.ms).padStart(12) : ''.padStart(12)}${r.note ? `  ${r.note}` : ''}`);
console.log(`  ${'total'.padEnd(12)} ${''.padEnd(8)} ${fmt(total).padStart(12)}`);
if (vscodeVersion) console.log(`  integration tests ran in VS Code ${vscodeVersion}`);
try {
  mkdirSync(join(root, 'test-results'), { recursive: true });
  writeFileSync(join(root, 'test-results/timings.json'), JSON.stringify({ totalMs: total, stages: results, counts, vscodeVersion }, null, 2));
} catch {
  // Timings are a convenience.
}
const failedStages = results.filter((r) => r.status === 'FAILED').map((r) => r.id);
const ran = counts.passed + counts.failed;
if (stoppedAt) console.log(`  stopped after '${stoppedAt}' failed`);
else if (failedStages.length) console.log(`  failed: ${failedStages.join(', ')}`);
if (ran === 0) console.log('  no tests ran');
// The last line: the total over the unit, integration and e2e layers.
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
process.exit(failedStages.length || counts.failed || ran === 0 ? 1 : 0);
