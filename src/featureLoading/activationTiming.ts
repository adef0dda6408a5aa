// Where activation's time goes (the activation integration test prints it): the bundle's module
// code (esbuild.mjs puts marks on its first and last lines), activate() itself by phase, and the
// main thread's CPU time of both where Node has process.threadCpuUsage (23.9+).

/** performance.now() when the bundle's first and last lines ran (esbuild.mjs banner and footer; absent in other builds) */
declare const __modelgateLoadStart: number | undefined;
declare const __modelgateLoadEnd: number | undefined;
/** the main thread's CPU time at the same two lines (process.threadCpuUsage, Node 23.9+), µs */
interface CpuMark {
  user: number;
  system: number;
}
declare const __modelgateLoadStartCpu: CpuMark | undefined;
declare const __modelgateLoadEndCpu: CpuMark | undefined;
const threadCpu = (): CpuMark | undefined => (globalThis as { process?: { threadCpuUsage?: () => CpuMark } }).process?.threadCpuUsage?.();
const cpuMs = (from: CpuMark | undefined, to: CpuMark | undefined) => (from && to ? (to.user + to.system - from.user - from.system) / 1000 : undefined);

/**
 * `loadMs` runs the bundle's module code (its first to its last line), `activateMs` is
 * activate()'s own time, `requireAndActivateMs` their sum (what this extension costs; compiling
 * the file is not in it). `hostWaitMs` is the time between the two that the extension host spends
 * elsewhere (other extensions, building the context), and `sinceBundleStartMs` runs from the
 * bundle's first line to activate() returning. `cpu` has the main thread's CPU time of the same
 * two stretches: on a loaded machine the clock also counts the time the thread waited for a core.
 */
export interface ActivationTiming {
  activateMs: number;
  loadMs?: number;
  requireAndActivateMs?: number;
  hostWaitMs?: number;
  sinceBundleStartMs?: number;
  cpu: { loadMs?: number; activateMs?: number };
  phases: Record<string, number>;
}

/** Started first thing in activate(): `phase(name)` ends a named stretch, `finish()` the whole. */
export function startActivationClock(): { phase(name: string): void; finish(): ActivationTiming } {
  const started = performance.now();
  const startedCpu = threadCpu();
  const phases: Record<string, number> = {};
  let mark = started;
  return {
    phase(name) {
      const now = performance.now();
      phases[name] = now - mark;
      mark = now;
    },
    finish() {
      const ended = performance.now();
      const endedCpu = threadCpu();
      const loadStart = typeof __modelgateLoadStart === 'number' ? __modelgateLoadStart : undefined;
      const loadEnd = typeof __modelgateLoadEnd === 'number' ? __modelgateLoadEnd : undefined;
      const loadMs = loadStart !== undefined && loadEnd !== undefined ? loadEnd - loadStart : undefined;
      return {
        activateMs: ended - started,
        loadMs,
        requireAndActivateMs: loadMs !== undefined ? loadMs + ended - started : undefined,
        hostWaitMs: loadEnd !== undefined ? started - loadEnd : undefined,
        sinceBundleStartMs: loadStart !== undefined ? ended - loadStart : undefined,
        cpu: {
          loadMs: cpuMs(
            typeof __modelgateLoadStartCpu === 'object' ? __modelgateLoadStartCpu : undefined,
            typeof __modelgateLoadEndCpu === 'object' ? __modelgateLoadEndCpu : undefined,
          ),
          activateMs: cpuMs(startedCpu, endedCpu),
        },
        phases,
      };
    },
  };
}
