// Child processes that must never outlive the test run. Each server is started in its own
// process group (detached) so that stopping it also ends everything it forked (the extension
// host, file watchers, pty hosts), and every live group is killed when this process exits for
// any reason, a crash or Ctrl-C included.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';

// Each test file is its own bundle, with its own copy of this module: the state lives on
// globalThis so that one mocha process installs the exit hooks once and kills every group.
interface GroupState {
  live: Set<number>;
  hooksInstalled: boolean;
}
const stateKey = Symbol.for('modelgate.test.processGroups');
const shared = globalThis as unknown as Record<symbol, GroupState | undefined>;
const state: GroupState = (shared[stateKey] ??= { live: new Set<number>(), hooksInstalled: false });
const liveGroups = state.live;

function killGroupNow(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function installExitHooks(): void {
  if (state.hooksInstalled) return;
  state.hooksInstalled = true;
  // 'exit' handlers must be synchronous: a SIGKILL to each group is the only thing that fits.
  process.on('exit', () => {
    for (const pid of liveGroups) killGroupNow(pid, 'SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const pid of liveGroups) killGroupNow(pid, 'SIGKILL');
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}

export interface GroupProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves with the exit code (or the signal name) when the process ends. */
  exited: Promise<number | string>;
  hasExited(): boolean;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the leader is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns `command` as the leader of a new process group with stdout and stderr appended to
 * `logFile`, and `pipes` more pipes (fd 3, 4, ...: child.stdio[3], ...). The child is unref'd: an
 * open server never keeps the test process alive.
 */
export function spawnGroup(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string; pipes?: number }): GroupProcess {
  installExitHooks();
  const fd = openSync(opts.logFile, 'a');
  const pipes = Array.from({ length: opts.pipes ?? 0 }, () => 'pipe' as const);
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', fd, fd, ...pipes] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  liveGroups.add(pid);
  let done = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (err) => {
      done = true;
      resolve(`spawn error: ${err.message}`);
    });
  });
  child.unref();
  return {
    child,
    pid,
    exited,
    hasExited: () => done,
    async stop(graceMs = 5000) {
      killGroupNow(pid, 'SIGTERM');
      const timer = setTimeout(() => killGroupNow(pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // The leader is gone; make sure nothing it forked lingers in the group.
      killGroupNow(pid, 'SIGKILL');
      liveGroups.delete(pid);
    },
  };
}

/** Runs a command to completion with output appended to `logFile`; rejects on a non-zero exit or timeout. */
export async function runLogged(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; logFile: string; timeoutMs: number; what: string },
): Promise<void> {
  const proc = spawnGroup(command, args, opts);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void proc.stop(2000);
  }, opts.timeoutMs);
  const code = await proc.exited;
  clearTimeout(timer);
  await proc.stop(0);
  if (timedOut) throw new Error(`${opts.what} did not finish within ${opts.timeoutMs / 1000} s\n${tailOf(opts.logFile)}`);
  if (code !== 0) throw new Error(`${opts.what} failed (exit ${code})\n${tailOf(opts.logFile)}`);
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The last `lines` lines of a log file (only those `keep` accepts, if given), framed for printing. */
export function tailOf(file: string, lines = 40, keep?: (line: string) => boolean): string {
  if (!existsSync(file)) return `(no log at ${file})`;
  const all = readFileSync(file, 'utf8').split('\n');
  const text = (keep ? all.filter(keep) : all).slice(-lines - 1).join('\n');
  return `---- last ${lines}${keep ? ' matching' : ''} lines of ${file} ----\n${text}\n---- end of ${file} ----`;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it returns a value other than undefined. Fails with `what` after
 * `timeoutMs`, or at once when `abort` returns a reason (for example: the server died).
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  opts: { timeoutMs: number; intervalMs?: number; abort?: () => string | undefined },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    const reason = opts.abort?.();
    if (reason) throw new Error(`gave up waiting for ${what}: ${reason}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(opts.timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(opts.intervalMs ?? 250);
  }
}

/** pids of the extension hosts under the server (descendants whose command line says so, not their children). */
export function extensionHostPids(rootPid: number): number[] {
  const parentOf = new Map<number, number>();
  const cmdOf = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), ppid);
      cmdOf.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // the process ended while we looked
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parentOf.get(pid), n = 0; p !== undefined && n < 20; p = parentOf.get(p), n++) if (p === rootPid) return true;
    return false;
  };
  const hosts = [...cmdOf].filter(([pid, cmd]) => descends(pid) && /extensionHost/.test(cmd)).map(([pid]) => pid);
  // A process an extension host is starting (git, a language server) shows its parent's command
  // line between fork and exec: not a host of its own (ci31 counted three hosts for two windows).
  const isHost = new Set(hosts);
  return hosts.filter((pid) => !isHost.has(parentOf.get(pid) ?? -1));
}
