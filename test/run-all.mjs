#!/usr/bin/env node
// `npm test`: every check of the project. The stages and what each waits for:
//   typecheck    tsc -b test/typecheck/all.json (TypeScript 7): tsconfig.json (host), src/platform/tsconfig.web.json
//                (web seams), src/webview/tsconfig.json (webview), test/tsconfig.json (tests)  (from the start)
//   lint         npm run lint: eslint (layer zones), dependency-cruiser (cycles), oxfmt --check
//                                                                    (from the start)
//   build        node esbuild.mjs --tests-only: the tests, the harness, the simulator (from the start)
//   install      bash test/harness/install-vscode.sh (Chromium, Node 24, code-server; idempotent)
//                                                                    (from the start)
//   package      npm run package -> dist/ (production) and dist-vsix/modelgate.vsix  (from the start)
//   unit         mocha over out/test/unit/**/*.test.js in plain Node (after build and package:
//                a unit suite checks what the package ships from dist/)
//   integration  the suites of test/integration inside a real VS Code 1.139 extension host; its
//                trusted and Restricted Mode sessions run side by side (after build, install, package)
//   e2e          out/test/e2e/**/*.e2e.test.js, driving the web workbench in Chromium, in
//                MODELGATE_E2E_WORKERS (default 2) worker processes (test/harness/e2e-worker.mjs)
//                that take the e2e files longest first and run them with mocha, the files of a
//                worker sharing one workbench (test/e2e/sharedWorkbench.ts)
//                (after build, install, package; one worker beside integration, the others after it)
// Stages that run at the same time have each line of their output prefixed with their name.
// A stage that fails stops the run: nothing new starts, and what is running is stopped (except
// the install: it finishes); a stopped stage shows as 'stopped' and its tests are not counted.
// At the end, alone on the last line, `N passed, N failed` (`, N skipped` when some were),
// totalled over the three test layers. Exit code 0 only when every stage passed and at least one
// test ran. Each test layer ends with its ten slowest tests (and slow set-up hooks).
//
// Knobs (for local iteration; the default is everything):
//   MODELGATE_SKIP=unit,e2e           skip stages by id (also MODELGATE_SKIP_E2E=1 and the like)
//   MODELGATE_KEEP_GOING=1            run the later test layers even when one failed
//   MODELGATE_TEST_GREP=<regex>       only matching integration tests
//   MODELGATE_E2E_FILES=<regex>       only the e2e files whose name matches
//   MODELGATE_E2E_GREP=<regex>        only the matching tests of those files
//   MODELGATE_E2E_WORKERS=<n>         e2e processes at a time (default 2)
//   MODELGATE_E2E_STAGGER=0           start every e2e worker at once (default: the second and later wait for the integration layer)
//   MODELGATE_E2E_SHARE=0             every e2e file gets a workbench of its own (not the shared one)
//   MODELGATE_SERIAL=1                one stage at a time, in the order above, one e2e worker
//   MODELGATE_BEGIN_FRAMES=<ms>       the integration pages draw a frame every <ms> (default 100; 0: as a normal page)
//   MODELGATE_KEEP_TMP=1              keep VS Code profiles and logs of passing runs too
// Timings of each stage (start and duration) and the slowest tests are also written to
// test-results/timings.json; the e2e files' durations to test-results/e2e-files.json, which the
// next run uses to hand out the longest files first (test/e2e/durations.json when there is none).
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const node = process.execPath;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const MIN = 60_000;

const skipList = new Set(
  (process.env.MODELGATE_SKIP ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean),
);
const skipped = (id) => skipList.has(id) || process.env[`MODELGATE_SKIP_${id.toUpperCase()}`] === '1';
const keepGoing = process.env.MODELGATE_KEEP_GOING === '1';
const serial = process.env.MODELGATE_SERIAL === '1';
const e2eWorkers = serial ? 1 : Math.max(1, Number(process.env.MODELGATE_E2E_WORKERS ?? 2) || 1);

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

const clock = () => new Date().toISOString().slice(11, 19);
// Whole seconds are rounded before they are split into minutes: 119.6 s is "2 min 0 s", not "1 min 60 s".
const fmt = (ms) => {
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
};
const counts = { passed: 0, failed: 0, skipped: 0 };
const slowest = {}; // layer id -> its ten slowest tests
const countsDir = mkdtempSync(join(tmpdir(), 'modelgate-test-counts-'));
const running = new Set(); // child processes, killed on Ctrl-C
const stageOf = new AsyncLocalStorage(); // the id of the stage a child process belongs to
const stopping = new Set(); // stages being stopped because another one failed
let vscodeVersion;

/** Writes `text` line by line with `label` in front (when several stages run at once). */
function prefixed(stream, label, out) {
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  rl.on('line', (line) => out.write(label ? `${label} | ${line}\n` : `${line}\n`));
  return new Promise((resolve) => rl.once('close', resolve));
}

/**
 * Runs one command in its own process group with a hard timeout; resolves with the exit code.
 * `label` is the prefix of each line of its output (undefined: output passed through as is).
 */
function run(command, args, { timeoutMs, env = {}, label, onCpu, priority }) {
  return new Promise((resolve) => {
    const [cgroup, cmd, argv] = inCgroup(command, args, priority);
    const child = spawn(cmd, argv, {
      cwd: root,
      stdio: ['ignore', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'],
      detached: true,
      env: { ...process.env, ...env },
    });
    running.add(child);
    child.stage = stageOf.getStore();
    const drained = label ? Promise.all([prefixed(child.stdout, label, process.stdout), prefixed(child.stderr, label, process.stderr)]) : Promise.resolve();
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
      running.delete(child);
      resolve('spawn error');
    });
    child.once('close', async (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      // Whatever the stage started and left behind in its group goes too.
      killGroup(child.pid, 'SIGKILL');
      await drained;
      const cpuMs = cpuMsOf(cgroup);
      if (cpuMs !== undefined) {
        if (child.stage) cpuOfStage[child.stage] = (cpuOfStage[child.stage] ?? 0) + cpuMs;
        onCpu?.(cpuMs);
      }
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

/**
 * CPU accounting: where the kernel lets this process make cpuacct cgroups (Linux, root: CI here),
 * every command runs in a cgroup of its own, which all its descendants stay in (browsers and
 * servers started in new sessions too), and its CPU time is read when it ends. On 2 cores the
 * layers run CPU-bound side by side, so CPU seconds, not wall time, say what a suite costs, and
 * they hardly change with the machine's load. Elsewhere nothing is measured (cpuMs undefined).
 */
const cpuRoot = (() => {
  for (const dir of ['/sys/fs/cgroup/cpuacct', '/sys/fs/cgroup/cpu,cpuacct']) {
    try {
      const probe = join(dir, `modelgate-test-${process.pid}`);
      mkdirSync(probe);
      if (!existsSync(join(probe, 'cpuacct.usage'))) {
        rmdirQuiet(probe);
        continue;
      }
      return probe;
    } catch {
      // not there or not allowed
    }
  }
  return undefined;
})();
let cgroupCount = 0;
function rmdirQuiet(dir) {
  try {
    rmdirSync(dir);
  } catch {
    // still has processes (they are being killed) or gone
  }
}
/**
 * The command wrapped so that it enters its own cgroup (CPU accounting, above) and, with
 * `priority`, raises its scheduling weight before exec: [its cgroup folder, command, args].
 *
 * Priority: the integration and e2e layers start as soon as the build is packaged, beside
 * type-check, lint and unit tests. Linux groups processes by session for scheduling (autogroup),
 * and every stage, code-server and Chromium starts a session of its own, so a dozen browser-layer
 * groups took ~80% of the 2 cores from the three checks (type-check 3 min 40 s instead of about
 * 1 min; unit tests with timing bounds ran at load 20). A check's session gets the weight of nice
 * -10 (/proc/self/autogroup; root only, as in CI; elsewhere nothing changes): the checks finish in
 * about the time they take alone, and the browser layers get both cores after them. The total CPU
 * work is the same.
 */
function inCgroup(command, args, priority) {
  const boost = priority ? 'echo -10 > /proc/self/autogroup 2>/dev/null; ' : '';
  const dir = cpuRoot ? join(cpuRoot, `c${++cgroupCount}`) : undefined;
  try {
    if (dir) mkdirSync(dir);
  } catch {
    return boost ? [undefined, 'sh', ['-c', `${boost}exec "$@"`, 'sh', command, ...args]] : [undefined, command, args];
  }
  const enter = dir ? `echo $$ > '${dir}/cgroup.procs' 2>/dev/null; ` : '';
  if (!enter && !boost) return [undefined, command, args];
  return [dir, 'sh', ['-c', `${enter}${boost}exec "$@"`, 'sh', command, ...args]];
}
function cpuMsOf(dir) {
  if (!dir) return undefined;
  try {
    return Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8')) / 1e6;
  } catch {
    return undefined;
  }
}
const cpuOfStage = {}; // stage id -> CPU ms of its commands
process.on('exit', () => {
  if (!cpuRoot) return;
  for (let i = 1; i <= cgroupCount; i++) rmdirQuiet(join(cpuRoot, `c${i}`));
  rmdirQuiet(cpuRoot);
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child.pid, 'SIGTERM');
    setTimeout(() => {
      for (const child of running) killGroup(child.pid, 'SIGKILL');
      process.exit(130);
    }, 3000).unref();
  });
}

function readCounts(file) {
  let layer = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync(file)) {
    try {
      layer = { ...layer, ...JSON.parse(readFileSync(file, 'utf8')) };
    } catch {
      // Torn by a kill mid-write: the exit code still says the layer failed.
    }
  }
  return layer;
}

/** Adds a layer's counts to the totals, prints its slowest tests; the stage outcome. */
function finishLayer(id, parts) {
  // A layer stopped because another stage failed counts nothing: it did not get to finish.
  if (stopping.has(id)) return { ok: false };
  const layer = { passed: 0, failed: 0, skipped: 0, tests: [], failures: [] };
  let ok = true;
  for (const { code, counts: c, label } of parts) {
    // A part that crashed before reporting (a suite that does not load, a timeout) is a failure
    // even though no single test was counted as failed.
    const failed = code !== 0 && c.failed === 0 ? 1 : c.failed;
    if (code === 'timeout' && c.running) console.error(`[test] ${label ?? id} was stopped while running: ${c.running}`);
    if (code !== 0 || failed > 0) ok = false;
    layer.passed += c.passed;
    layer.failed += failed;
    layer.skipped += c.skipped;
    layer.tests.push(...(c.tests ?? []));
    const failures = Array.isArray(c.failures) ? c.failures : [];
    layer.failures.push(...failures);
    if (code !== 0 && !failures.length)
      layer.failures.push({
        title: label ?? id,
        error: code === 'timeout' ? `stopped by the time limit${c.running ? ` while running: ${c.running}` : ''}` : `exit code ${code}`,
      });
    if (c.vscodeVersion) vscodeVersion = c.vscodeVersion;
  }
  counts.passed += layer.passed;
  counts.failed += layer.failed;
  counts.skipped += layer.skipped;
  const top = layer.tests.sort((a, b) => b.ms - a.ms).slice(0, 10);
  slowest[id] = top;
  if (top.length) {
    const lines = top.map((t) => `  ${fmt(t.ms).padStart(12)}  ${t.title}${t.hook ? ' (hook)' : ''}`);
    console.log(`\n[test] ${id}: the ${top.length} slowest tests\n${lines.join('\n')}`);
  }
  // Where the layer's processes measure CPU per test (the e2e workers' cgroups: each test with its
  // worker's server, browser and extension hosts), the dearest tests and set-up hooks by CPU.
  const dearest = layer.tests
    .filter((t) => t.cpuMs !== undefined)
    .sort((a, b) => b.cpuMs - a.cpuMs)
    .slice(0, 15);
  if (dearest.length) {
    const lines = dearest.map((t) => `  ${`${fmt(t.cpuMs)} CPU`.padStart(16)}  ${fmt(t.ms).padStart(12)} wall  ${t.title}${t.hook ? ' (hook)' : ''}`);
    console.log(`\n[test] ${id}: the ${dearest.length} dearest tests and set-ups by CPU\n${lines.join('\n')}`);
  }
  // The failures of a layer that ran in several processes, in one place (their output is interleaved).
  if (parts.length > 1 && layer.failures.length) {
    console.log(`\n[test] ${id}: ${layer.failures.length} failure(s)\n${layer.failures.map((f) => `  ✗ ${f.title}\n      ${f.error}`).join('\n')}`);
  }
  const note = `${layer.passed} passed, ${layer.failed} failed${layer.skipped ? `, ${layer.skipped} skipped` : ''}`;
  return { ok, note, testFailure: true };
}

/** Runs a test layer (one process) that reports its counts as JSON to MODELGATE_COUNTS_FILE. */
async function runLayer(id, command, args, timeoutMs, label, priority, env = {}) {
  const file = join(countsDir, `${id}.json`);
  const code = await run(command, args, { timeoutMs, env: { ...env, MODELGATE_COUNTS_FILE: file }, label, priority });
  return finishLayer(id, [{ code, counts: readCounts(file) }]);
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

/** Expected seconds per e2e file: the last run's (test-results/e2e-files.json), else test/e2e/durations.json. */
function e2eWeights() {
  const weights = {};
  for (const file of [join(root, 'test/e2e/durations.json'), join(root, 'test-results/e2e-files.json')]) {
    try {
      Object.assign(weights, JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      // None yet: every file weighs the same.
    }
  }
  return weights;
}

/**
 * The e2e layer: `e2eWorkers` processes (test/harness/e2e-worker.mjs) take the files from one
 * queue, longest first, each the next when it is done with one. A worker runs its files in one
 * process, where they share a workbench (test/e2e/sharedWorkbench.ts) and the installed extensions
 * (one template folder for all workers). A worker that ends early (a crash) is replaced while
 * files are left in the queue.
 */
async function runE2e(label) {
  const pattern = process.env.MODELGATE_E2E_FILES ? new RegExp(process.env.MODELGATE_E2E_FILES) : undefined;
  const files = findFiles(join(root, 'out/test/e2e'), '.e2e.test.js')
    .filter((f) => !pattern || pattern.test(basename(f)))
    .sort();
  if (!files.length) {
    console.log('[test] WARNING: no compiled e2e tests in out/test/e2e');
    return { ok: true, note: 'no e2e tests found' };
  }
  const config = JSON.parse(readFileSync(join(root, 'test/e2e/.mocharc.json'), 'utf8'));
  delete config.spec; // The worker names the files.
  config.reporter = reporter;
  const configFile = join(countsDir, 'e2e-mocharc.json');
  writeFileSync(configFile, JSON.stringify(config));
  const templates = join(countsDir, 'e2e-extensions');
  mkdirSync(templates, { recursive: true });

  const weights = e2eWeights();
  const name = (f) => basename(f, '.js');
  const ordered = [...files].sort((a, b) => (weights[name(b)] ?? 60) - (weights[name(a)] ?? 60));
  const queueDir = join(countsDir, 'e2e-queue');
  mkdirSync(queueDir);
  ordered.forEach((f, i) => writeFileSync(join(queueDir, `${String(i).padStart(3, '0')}-${name(f)}`), f));
  const left = () => readdirSync(queueDir).length;
  const workers = Math.min(e2eWorkers, files.length);
  console.log(`[test] e2e: ${files.length} files in ${workers} worker(s), longest first: ${ordered.map(name).join(', ')}`);
  const resultsFile = join(countsDir, 'e2e-results.jsonl');
  // a bound against a hang, not a speed check: 21 min on a quiet machine, over 30 beside other jobs at load 25
  const deadline = Date.now() + 45 * MIN;
  let timedOut = false;
  const workerExits = [];
  const worker = async (n) => {
    // Beside the integration sessions (about one core of work) one e2e worker fills the machine;
    // five VS Codes at once on two cores cost 20-37 % more CPU for the same tests (contention).
    // The others join when the integration layer is done.
    if (n > 1 && stagger) {
      await integrationSettled;
      if (left()) console.log(`[test] e2e worker ${n} starts: the integration layer is done`);
    }
    while (left() && !timedOut && !stopping.has('e2e')) {
      const workerLabel = workers > 1 || label ? `e2e.${n}` : undefined;
      const code = await run(node, ['--enable-source-maps', join(root, 'test/harness/e2e-worker.mjs'), queueDir, resultsFile, configFile], {
        timeoutMs: Math.max(MIN, deadline - Date.now()),
        env: { MODELGATE_E2E_COUNTS_DIR: countsDir, MODELGATE_E2E_TEMPLATES: templates },
        label: workerLabel,
      });
      workerExits.push(code);
      if (code === 'timeout') timedOut = true;
      else if (code !== 0 && left()) console.log(`[test] e2e worker ${n} ended with ${code}; a new one takes the files left`);
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, i) => worker(i + 1)));

  const results = existsSync(resultsFile)
    ? readFileSync(resultsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const parts = [];
  const durations = {};
  const cpuOfFile = {};
  const wallOfFile = {};
  for (const r of results) {
    wallOfFile[name(r.file)] = r.ms;
    if (r.cpuMs !== undefined) cpuOfFile[name(r.file)] = r.cpuMs;
    // Only a file that passed says how long it takes (one that failed may have stopped early).
    if (r.code === 0) durations[name(r.file)] = Math.round(r.ms / 1000);
    parts.push({ code: r.code, counts: readCounts(join(countsDir, `e2e-${name(r.file)}.json`)), label: `e2e ${relative(root, r.file)}` });
  }
  // A file a worker took but did not finish (the worker crashed or was stopped).
  const finished = new Set(results.map((r) => r.file));
  for (const dir of readdirSync(countsDir).filter((d) => d.startsWith('claimed-')))
    for (const entry of readdirSync(join(countsDir, dir))) {
      const file = readFileSync(join(countsDir, dir, entry), 'utf8').trim();
      if (finished.has(file)) continue;
      const code = timedOut ? 'timeout' : (workerExits.find((c) => c !== 0) ?? 1);
      parts.push({ code, counts: readCounts(join(countsDir, `e2e-${name(file)}.json`)), label: `e2e ${relative(root, file)}` });
    }
  try {
    mkdirSync(join(root, 'test-results'), { recursive: true });
    const known = join(root, 'test-results/e2e-files.json');
    const previous = existsSync(known) ? JSON.parse(readFileSync(known, 'utf8')) : {};
    writeFileSync(known, JSON.stringify({ ...previous, ...durations }, null, 2));
  } catch {
    // A convenience for the next run.
  }
  const byCpu = Object.keys(wallOfFile).sort((a, b) => (cpuOfFile[b] ?? wallOfFile[b]) - (cpuOfFile[a] ?? wallOfFile[a]));
  if (byCpu.length)
    console.log(
      `\n[test] e2e files${cpuRoot ? ', by CPU time (all processes of the worker while the file ran: mocha, the simulator, code-server, Chromium)' : ''}:\n${byCpu
        .map((f) => `  ${(cpuOfFile[f] !== undefined ? `${fmt(cpuOfFile[f])} CPU` : '').padStart(16)} ${fmt(wallOfFile[f]).padStart(12)} wall  ${f}`)
        .join('\n')}`,
    );
  if (left() && !stopping.has('e2e')) parts.push({ code: 'timeout', counts: { passed: 0, failed: 0, skipped: 0 }, label: `e2e (${left()} files not run)` });
  return finishLayer('e2e', parts);
}

const stages = [
  {
    id: 'typecheck',
    title: 'Type-check: the host, the web seams, the webview and the tests (npm run typecheck)',
    after: [],
    async run(label) {
      // one program per tsconfig (the webview sees the DOM, the host no DOM), built together with
      // `tsc -b`: later programs read the earlier ones' declarations (test/typecheck/host.json).
      // The same command as a developer's `npm run typecheck` (package.json says which compiler).
      const code = await run(npm, ['run', '--silent', 'typecheck'], { timeoutMs: 10 * MIN, label, priority: true });
      return code === 0 ? { ok: true } : { ok: false, note: 'npm run typecheck' };
    },
  },
  {
    id: 'lint',
    title: 'Lint: eslint (layer zones), dependency-cruiser (cycles, type-only imports too), oxfmt --check (npm run lint)',
    after: [],
    async run(label) {
      // The same checks as a developer's `npm run lint` (package.json says which), not a copy of them.
      const code = await run(npm, ['run', '--silent', 'lint'], { timeoutMs: 10 * MIN, label, priority: true });
      return code === 0 ? { ok: true } : { ok: false, note: 'npm run lint' };
    },
  },
  {
    id: 'build',
    title: 'Build: node esbuild.mjs --tests-only (the extension itself is built once, for its package)',
    after: [],
    async run(label) {
      const code = await run(node, ['esbuild.mjs', '--tests-only'], { timeoutMs: 5 * MIN, label });
      const pruned = pruneStaleBundles();
      return { ok: code === 0, note: pruned ? `removed ${pruned} stale bundle(s)` : undefined };
    },
  },
  {
    id: 'install',
    title: 'Install the VS Code test tools: bash test/harness/install-vscode.sh',
    after: [],
    needed: () => !(skipped('integration') && skipped('e2e')),
    async run(label) {
      const code = await run('bash', ['test/harness/install-vscode.sh'], { timeoutMs: 30 * MIN, label });
      return { ok: code === 0 };
    },
  },
  {
    id: 'package',
    title: 'Package the extension: npm run package -> dist-vsix/modelgate.vsix',
    // The only build of the extension (dist/, production): the build stage builds the tests alone.
    after: [],
    async run(label) {
      const vsix = join(root, 'dist-vsix/modelgate.vsix');
      rmSync(vsix, { force: true });
      // Every stage runs with stdin closed: vsce must never wait on a y/N prompt.
      const code = await run(npm, ['run', '--silent', 'package'], { timeoutMs: 5 * MIN, label });
      if (code !== 0) return { ok: false };
      if (!existsSync(vsix)) {
        console.error(`[test] npm run package succeeded but ${vsix} does not exist`);
        return { ok: false };
      }
      return { ok: true, note: `${(statSync(vsix).size / 1024).toFixed(1)} KB` };
    },
  },
  {
    id: 'unit',
    title: `Unit tests: mocha over out/test/unit/**/*.test.js (plain Node ${process.version})`,
    // a suite lists what the package ships (vsce ls), which reads dist/: the package's build
    after: ['build', 'package'],
    async run(label) {
      if (!findFiles(join(root, 'out/test/unit'), '.test.js').length) {
        console.log('[test] WARNING: no compiled unit tests in out/test/unit');
        return { ok: true, note: 'no unit tests found' };
      }
      // The package stage's production build of this run (dist/, with its metafile): the bundle
      // budget's test reads it instead of building the same bundles again. Set only when that stage
      // ran and passed now, so a dist/ left from an earlier run or a skipped stage is never taken.
      const env = results.get('package')?.status === 'ok' ? { MODELGATE_PRODUCTION_DIST: join(root, 'dist') } : {};
      return runLayer('unit', node, [mochaBin, '--config', 'test/unit/.mocharc.json', '--reporter', reporter], 15 * MIN, label, true, env);
    },
  },
  {
    id: 'integration',
    title: 'Integration tests: mocha inside a real VS Code 1.139 extension host (code-server)',
    after: ['build', 'install', 'package'],
    async run(label) {
      if (!existsSync(join(root, 'out/harness/integration.js'))) {
        console.error('[test] out/harness/integration.js is missing: the build did not produce the harness');
        return { ok: false, testFailure: true };
      }
      return runLayer('integration', node, ['out/harness/integration.js'], 45 * MIN, label); // a bound against a hang
    },
  },
  {
    id: 'e2e',
    title: `End-to-end tests: the web workbench in headless Chromium (playwright-core), ${e2eWorkers} worker(s)`,
    after: ['build', 'install', 'package'],
    run: (label) => runE2e(label),
  },
];

const started = Date.now();
console.log(
  `[test] Modelgate test run: Node ${process.version}, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}${process.env.CI ? ', CI' : ''}${serial ? ', serial' : ''}`,
);
const results = new Map(); // id -> { id, status, startMs, ms, note }
/** Settles when the integration stage has ended, or will not run: the later e2e workers wait for it. */
let integrationEnded;
const integrationSettled = new Promise((resolve) => (integrationEnded = resolve));
const stagger = process.env.MODELGATE_E2E_STAGGER !== '0' && !serial;
let stoppedAt;

/**
 * After a failure that stops the run: the stages still running are stopped too (their process
 * groups get SIGTERM), except the install, which must not be cut in the middle of apt-get.
 */
function stopRunning(failed) {
  for (const [id, entry] of results) {
    if (entry.status !== 'running' || id === 'install' || id === failed) continue;
    stopping.add(id);
    console.log(`[test] stopping '${id}': '${failed}' failed`);
  }
  for (const child of running) if (stopping.has(child.stage)) killGroup(child.pid, 'SIGTERM');
}

/**
 * Starts every stage whose prerequisites are done, until all are settled. A stage whose
 * prerequisite failed or did not run does not run either; after a failure nothing new starts
 * (MODELGATE_KEEP_GOING=1 lets test layers go on after a test layer failed).
 */
async function schedule() {
  const active = new Map(); // id -> promise
  const settled = (id) => results.has(id) && !active.has(id);
  for (;;) {
    for (const [i, stage] of stages.entries()) {
      if (results.has(stage.id)) continue;
      const label = `[${i + 1}/${stages.length}] ${stage.id}`;
      if (skipped(stage.id) || (stage.needed && !stage.needed())) {
        console.log(`\n==> ${label}: skipped${skipped(stage.id) ? ' (MODELGATE_SKIP)' : ' (not needed)'}`);
        results.set(stage.id, { id: stage.id, status: 'skipped', ms: 0 });
        if (stage.id === 'integration') integrationEnded();
        continue;
      }
      const deps = stage.after.filter((d) => stages.some((s) => s.id === d));
      if (stoppedAt || deps.some((d) => settled(d) && !['ok', 'skipped'].includes(results.get(d).status))) {
        results.set(stage.id, { id: stage.id, status: 'not run', ms: 0 });
        if (stage.id === 'integration') integrationEnded();
        continue;
      }
      if (!deps.every(settled)) continue;
      // One at a time when asked, and in any case in the listed order among ready stages.
      if (serial && active.size) break;
      const t0 = Date.now();
      const entry = { id: stage.id, status: 'running', startMs: t0 - started, ms: 0 };
      results.set(stage.id, entry);
      const prefix = serial ? undefined : stage.id;
      console.log(`\n==> ${clock()} ${label}: ${stage.title}`);
      active.set(
        stage.id,
        (async () => {
          let outcome;
          try {
            outcome = await stageOf.run(stage.id, () => stage.run(prefix));
          } catch (err) {
            console.error(`[test] ${stage.id} crashed: ${err.stack ?? err}`);
            outcome = { ok: false };
          }
          entry.ms = Date.now() - t0;
          entry.status = outcome.ok ? 'ok' : stopping.has(stage.id) ? 'stopped' : 'FAILED';
          entry.note = outcome.note;
          console.log(`<== ${clock()} ${label}: ${entry.status} in ${fmt(entry.ms)}${outcome.note ? ` (${outcome.note})` : ''}`);
          if (!outcome.ok && !stopping.has(stage.id) && !(keepGoing && outcome.testFailure)) {
            stoppedAt ??= stage.id;
            stopRunning(stage.id);
          }
          active.delete(stage.id);
          if (stage.id === 'integration') integrationEnded();
        })(),
      );
      if (serial) break;
    }
    if (!active.size) {
      if (stages.every((s) => results.has(s.id))) return;
      // Nothing runs and nothing can start: a prerequisite that is not a stage (cannot happen).
      for (const s of stages) if (!results.has(s.id)) results.set(s.id, { id: s.id, status: 'not run', ms: 0 });
      return;
    }
    await Promise.race(active.values());
  }
}

await schedule();
rmSync(countsDir, { recursive: true, force: true });

const total = Date.now() - started;
const ordered = stages.map((s) => results.get(s.id));
console.log('\n==> Summary (start after the beginning, duration)');
for (const r of ordered) {
  const at = r.startMs !== undefined ? `+${fmt(r.startMs)}` : '';
  const cpu = cpuOfStage[r.id] !== undefined ? `${fmt(cpuOfStage[r.id])} CPU` : '';
  console.log(
    `  ${r.id.padEnd(12)} ${r.status.padEnd(8)} ${at.padStart(13)} ${r.ms ? fmt(r.ms).padStart(12) : ''.padStart(12)} ${cpu.padStart(16)}${r.note ? `  ${r.note}` : ''}`,
  );
}
const cpuTotal = Object.values(cpuOfStage).reduce((a, b) => a + b, 0);
console.log(`  ${'total'.padEnd(12)} ${''.padEnd(8)} ${''.padStart(13)} ${fmt(total).padStart(12)} ${cpuTotal ? `${fmt(cpuTotal)} CPU`.padStart(16) : ''}`);
if (cpuTotal) console.log(`  CPU time over wall time: ${(cpuTotal / total).toFixed(2)} of ${cpus().length} cores busy on average`);
if (vscodeVersion) console.log(`  integration tests ran in VS Code ${vscodeVersion}`);
try {
  mkdirSync(join(root, 'test-results'), { recursive: true });
  writeFileSync(
    join(root, 'test-results/timings.json'),
    JSON.stringify(
      { totalMs: total, cpuMs: cpuOfStage, cores: cpus().length, loadAtEnd: loadavg(), serial, e2eWorkers, stages: ordered, counts, vscodeVersion, slowest },
      null,
      2,
    ),
  );
} catch {
  // Timings are a convenience.
}
const failedStages = ordered.filter((r) => r.status === 'FAILED').map((r) => r.id);
const ran = counts.passed + counts.failed;
if (stoppedAt) console.log(`  stopped after '${stoppedAt}' failed`);
else if (failedStages.length) console.log(`  failed: ${failedStages.join(', ')}`);
if (ran === 0) console.log('  no tests ran');
// The last line: the total over the unit, integration and e2e layers.
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
process.exit(failedStages.length || counts.failed || ran === 0 ? 1 : 0);
