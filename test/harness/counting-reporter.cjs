// Mocha reporter for the plain-Node layers (unit, e2e): the usual `spec` output, plus the
// counts written as JSON to MODELGATE_COUNTS_FILE so that `npm test` can total all layers.
// The file is rewritten as each test starts and ends, so that when a layer hangs and is
// stopped by the stage timeout, `npm test` still knows what passed and which test was running.
// Plain CommonJS because mocha loads reporters with require() and expects the class itself.
'use strict';
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

const { EVENT_TEST_BEGIN, EVENT_TEST_END, EVENT_HOOK_BEGIN, EVENT_RUN_END } = Mocha.Runner.constants;

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = process.env.MODELGATE_COUNTS_FILE;
    if (!file) return;
    const write = (running) => {
      const { passes, failures, pending } = this.stats;
      writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending, running }));
    };
    runner.on(EVENT_TEST_BEGIN, (test) => write(test.fullTitle()));
    runner.on(EVENT_HOOK_BEGIN, (hook) => write(hook.fullTitle()));
    runner.on(EVENT_TEST_END, () => write(undefined));
    runner.once(EVENT_RUN_END, () => write(undefined));
  }
}

module.exports = CountingReporter;
