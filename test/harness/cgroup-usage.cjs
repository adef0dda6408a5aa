// The CPU time of this process's cpuacct cgroup (cgroup v1): `npm test` runs each stage's
// commands, and each e2e worker, in a cgroup of its own that every descendant stays in, so this
// counts the worker's server, browser and extension hosts with it. A function that returns
// undefined where there is no such cgroup (not root, not Linux).
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** @returns {() => number | undefined} CPU milliseconds of the cgroup so far. */
function cgroupUsageReader() {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => /^\d+:[^:]*\bcpuacct\b[^:]*:/.test(l));
    if (!line) return () => undefined;
    const path = line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
    const file = ['/sys/fs/cgroup/cpuacct', '/sys/fs/cgroup/cpu,cpuacct'].map((d) => join(d, path, 'cpuacct.usage')).find((f) => existsSync(f));
    if (!file || path === '/') return () => undefined;
    return () => {
      try {
        return Number(readFileSync(file, 'utf8')) / 1e6;
      } catch {
        return undefined; // the cgroup went away: no figure rather than a failed run
      }
    };
  } catch {
    return () => undefined;
  }
}

module.exports = { cgroupUsageReader };
