// Mocha reporter for the plain-Node layers (unit, e2e): the usual `spec` output, plus the
// counts written as JSON to MODELGATE_COUNTS_FILE so that `npm test` can total all layers.
// Plain CommonJS because mocha loads reporters with require() and expects the class itself.
'use strict';
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = process.env.MODELGATE_COUNTS_FILE;
    if (!file) return;
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = this.stats;
      writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending }));
    });
  }
}

module.exports = CountingReporter;
