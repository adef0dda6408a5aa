#!/usr/bin/env node
// One e2e worker of `npm test` (test/run-all.mjs): runs compiled e2e files one after another in
// this one process, so that they share its workbench (test/e2e/sharedWorkbench.ts: one code-server,
// one Chromium, one window, reset between files). The files come from a queue folder that all
// workers take from (each entry is claimed by renaming it, so no file runs twice): the longest
// first, the next one as soon as a worker is free.
//
//   node --enable-source-maps test/harness/e2e-worker.mjs <queue dir> <results file> <mocha config json>
//
// For each file it appends one JSON line to the results file: { file, code, ms, cpuMs }, where
// cpuMs is the CPU time of this process's cgroup during the file (when `npm test` runs as root it
// puts each worker in a cgroup of its own: the shared server and browser are counted with the file
// that used them). Counts and failures of each file go to <counts dir>/e2e-<name>.json
// (MODELGATE_E2E_COUNTS_DIR), written by the counting reporter.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import Mocha from 'mocha';
import cgroup from './cgroup-usage.cjs';

const { cgroupUsageReader } = cgroup;

const [queueDir, resultsFile, configFile] = process.argv.slice(2);
const config = JSON.parse(readFileSync(configFile, 'utf8'));
const countsDir = process.env.MODELGATE_E2E_COUNTS_DIR;
const claimedDir = join(queueDir, '..', `claimed-${process.pid}`);
mkdirSync(claimedDir, { recursive: true });

/** The next file of the queue, or undefined when it is empty. */
function claim() {
  for (const entry of readdirSync(queueDir).sort()) {
    try {
      renameSync(join(queueDir, entry), join(claimedDir, entry));
    } catch {
      continue; // another worker took it
    }
    return readFileSync(join(claimedDir, entry), 'utf8').trim();
  }
  return undefined;
}

/** The CPU time of this process's cgroup, with its server and browser (cgroup-usage.cjs). */
const cgroupUsage = cgroupUsageReader();

async function runFile(file) {
  const name = basename(file, '.js');
  if (countsDir) process.env.MODELGATE_COUNTS_FILE = join(countsDir, `e2e-${name}.json`);
  // MODELGATE_E2E_GREP: only the matching tests of each file (local iteration; hooks still run)
  const grep = process.env.MODELGATE_E2E_GREP;
  const mocha = new Mocha({ ...config, reporter: config.reporter, ...(grep ? { grep } : {}) });
  mocha.addFile(file);
  const t0 = Date.now();
  const cpu0 = cgroupUsage();
  let code;
  try {
    const failures = await new Promise((resolve) => mocha.run(resolve));
    code = failures ? 1 : 0;
  } catch (err) {
    console.error(`[e2e] ${name} could not run: ${err?.stack ?? err}`);
    code = 1;
  }
  const cpu1 = cgroupUsage();
  mocha.dispose();
  const result = { file, code, ms: Date.now() - t0, cpuMs: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined };
  appendFileSync(resultsFile, `${JSON.stringify(result)}\n`);
}

let status = 0;
try {
  for (let file = claim(); file; file = claim()) await runFile(file);
} catch (err) {
  console.error(`[e2e] worker: ${err?.stack ?? err}`);
  status = 1;
} finally {
  // The shared workbench of this process (test/e2e/sharedWorkbench.ts), when a file opened it.
  const close = globalThis[Symbol.for('modelgate.e2e.shutdown')];
  if (typeof close === 'function') await close().catch((err) => console.error(`[e2e] closing the shared workbench: ${err?.message ?? err}`));
}
process.exit(status);
