// Mocha reporter for the plain-Node layers (unit, e2e): `spec`-like output with a clock time where
// each suite starts and a line with its duration and counts where it ends, plus the counts
// written as JSON to MODELGATE_COUNTS_FILE so that `npm test` can total all layers.
// The file is rewritten as each test starts and ends, so that when a layer hangs and is
// stopped by the stage timeout, `npm test` still knows what passed and which test was running.
// At the end of the run it also gets every test's and hook's duration (`tests`), every
// top-level suite's file and duration (`suites`) and the failures (`failures`): `npm test` prints
// the slowest tests of the layer and, when the layer ran in several processes, its failures together.
// Plain CommonJS because mocha loads reporters with require() and expects the class itself.
'use strict';
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');
const Mocha = require('mocha');
const { cgroupUsageReader } = require('./cgroup-usage.cjs');

const { Base } = Mocha.reporters;
const { color, symbols } = Base;
const {
  EVENT_RUN_END,
  EVENT_SUITE_BEGIN,
  EVENT_SUITE_END,
  EVENT_TEST_BEGIN,
  EVENT_TEST_END,
  EVENT_TEST_PASS,
  EVENT_TEST_FAIL,
  EVENT_TEST_PENDING,
  EVENT_HOOK_BEGIN,
  EVENT_HOOK_END,
} = Mocha.Runner.constants;

const clock = () => new Date().toISOString().slice(11, 19);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** CPU of the process's cgroup (the e2e worker's, with its server and browser), when there is one. */
const cgroupCpu = cgroupUsageReader();
/** Hooks shorter than this are left out of the durations: only the slow set-ups matter. */
const HOOK_MS = 1000;

class CountingReporter extends Base {
  constructor(runner, options) {
    super(runner, options);
    const file = process.env.MODELGATE_COUNTS_FILE;
    const log = (...args) => Base.consoleLog(...args);
    let depth = 0;
    const indent = () => '  '.repeat(depth);
    /** Per open suite: when it started and its counts so far. */
    const open = new Map();
    const tests = [];
    const suites = [];
    const failed = [];
    const countIn = (runnable, key) => {
      for (let s = runnable.parent; s; s = s.parent) {
        const o = open.get(s);
        if (o) o[key] += 1;
      }
    };

    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.root) return;
      depth += 1;
      open.set(suite, { t0: Date.now(), passed: 0, failed: 0, skipped: 0 });
      log(`${indent()}${color('light', clock())} ${color('suite', '%s')}`, suite.title);
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (suite.root) return;
      const o = open.get(suite);
      open.delete(suite);
      if (o) {
        const ms = Date.now() - o.t0;
        const counts = `${o.passed} passed, ${o.failed} failed${o.skipped ? `, ${o.skipped} skipped` : ''}`;
        log(`${indent()}${color('light', `${clock()} ${seconds(ms)}, ${counts}`)}${depth === 1 ? '\n' : ''}`);
        if (suite.parent?.root) suites.push({ title: suite.title, file: suite.file ? relative(process.cwd(), suite.file) : undefined, ms });
      }
      depth -= 1;
    });
    /** The cgroup's CPU when each running test or hook began, and what it took once it ended. */
    const cpuAtBegin = new WeakMap();
    const cpuSpent = new WeakMap();
    /** Read once per test or hook: the line printed and the figure recorded are the same. */
    const cpuOf = (runnable) => {
      if (!cpuSpent.has(runnable)) {
        const begin = cpuAtBegin.get(runnable);
        const now = cgroupCpu();
        cpuSpent.set(runnable, begin === undefined || now === undefined ? undefined : now - begin);
      }
      return cpuSpent.get(runnable);
    };
    const begin = (runnable) => {
      cpuSpent.delete(runnable); // a hook runs once per test it wraps
      cpuAtBegin.set(runnable, cgroupCpu());
    };
    runner.on(EVENT_TEST_BEGIN, begin);
    runner.on(EVENT_HOOK_BEGIN, begin);
    runner.on(EVENT_TEST_PASS, (test) => {
      countIn(test, 'passed');
      const cpu = cpuOf(test);
      const cpuText = cpu === undefined ? '' : `, ${seconds(cpu)} CPU`;
      // A test that took a second of CPU or more shows it, however fast its wall time reads.
      const ms = test.speed === 'fast' && !(cpu >= 1000) ? '' : color(test.speed, ` (${test.duration}ms${cpuText})`);
      log(`${indent()}  ${color('checkmark', symbols.ok)} ${color('pass', '%s')}${ms}`, test.title);
    });
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      countIn(test, 'failed');
      failed.push({
        title: test.fullTitle(),
        error: String(err?.message ?? err)
          .split('\n')
          .slice(0, 3)
          .join(' ')
          .slice(0, 300),
      });
      log(`${indent()}  ${color('fail', `${this.stats.failures}) %s`)}`, test.title);
    });
    runner.on(EVENT_TEST_PENDING, (test) => {
      countIn(test, 'skipped');
      log(`${indent()}  ${color('pending', '- %s')}`, test.title);
    });
    runner.on(EVENT_TEST_END, (test) => {
      if (test.duration !== undefined)
        tests.push({ title: test.fullTitle(), ms: test.duration, cpuMs: cpuOf(test), file: test.file ? relative(process.cwd(), test.file) : undefined });
    });
    runner.on(EVENT_HOOK_END, (hook) => {
      if ((hook.duration ?? 0) >= HOOK_MS) {
        const cpuMs = cpuOf(hook);
        tests.push({ title: hook.fullTitle(), ms: hook.duration, cpuMs, hook: true });
        if (cpuMs !== undefined) log(`${indent()}  ${color('light', `⚙ ${hook.title} (${seconds(hook.duration)}, ${seconds(cpuMs)} CPU)`)}`);
      }
    });
    runner.once(EVENT_RUN_END, () => this.epilogue());

    if (!file) return;
    const write = (running, final) => {
      const { passes, failures, pending } = this.stats;
      const data = { passed: passes, failed: failures, skipped: pending, running };
      writeFileSync(file, JSON.stringify(final ? { ...data, tests, suites, failures: failed } : data));
    };
    runner.on(EVENT_TEST_BEGIN, (test) => write(test.fullTitle()));
    runner.on(EVENT_HOOK_BEGIN, (hook) => write(hook.fullTitle()));
    runner.on(EVENT_TEST_END, () => write(undefined));
    runner.once(EVENT_RUN_END, () => write(undefined, true));
  }
}

module.exports = CountingReporter;
