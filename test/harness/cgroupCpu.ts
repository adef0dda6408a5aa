// The CPU time of this process's cpuacct cgroup: `npm test` runs each stage's commands in a cgroup
// of their own (test/run-all.mjs), which every descendant stays in, so inside an integration
// session it counts every process of the stage: the extension host, the browser, the server and
// the simulator (and the other sessions, when they run side by side). Undefined where there is no
// such cgroup (not root, not Linux). The reader is shared with the plain-Node scripts (the e2e
// worker, the test reporter).
import { cgroupUsageReader } from './cgroup-usage.cjs';

let read: (() => number | undefined) | undefined;

/** CPU milliseconds of the cgroup so far; undefined without one. */
export function cgroupCpuMs(): number | undefined {
  read ??= cgroupUsageReader();
  return read();
}
