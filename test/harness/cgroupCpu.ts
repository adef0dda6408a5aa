// The CPU time of this process's cpuacct cgroup: `npm test` runs each stage's commands in a cgroup
// of their own (test/run-all.mjs), which every descendant stays in, so inside an integration
// session it counts every process of the stage: the extension host, the browser, the server and
// the simulator (and the other sessions, when they run side by side). Undefined where there is no
// such cgroup (not root, not Linux).
import { readFileSync } from 'node:fs';

let usageFile: string | null | undefined;

function findUsageFile(): string | null {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => /^\d+:[^:]*\bcpuacct\b[^:]*:/.test(l));
    const path = line?.split(':')[2];
    if (!path || path === '/') return null;
    for (const root of ['/sys/fs/cgroup/cpuacct', '/sys/fs/cgroup/cpu,cpuacct']) {
      try {
        readFileSync(`${root}${path}/cpuacct.usage`, 'utf8');
        return `${root}${path}/cpuacct.usage`;
      } catch {
        // not this mount
      }
    }
  } catch {
    // no /proc: not Linux
  }
  return null;
}

/** CPU milliseconds of the cgroup so far; undefined without one. */
export function cgroupCpuMs(): number | undefined {
  usageFile ??= findUsageFile();
  if (!usageFile) return undefined;
  try {
    return Number(readFileSync(usageFile, 'utf8')) / 1e6;
  } catch {
    return undefined;
  }
}
