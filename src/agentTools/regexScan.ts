// Platform seam: regular-expression scans under a time limit, off the extension host's thread.
// Node build: worker_threads Workers, terminated at the limit, inside a small helper process of
// their own (the scan host, started on the first regex search and ended after IDLE_SCAN_HOST_MS
// without one). The browser build swaps in regexScan.web.ts (a Web Worker, the same way). Both
// throw ScanTimeout.
//
// Why not node:vm's timeout on the host thread (what this was before): the host is frozen
// for as long as the limit, every extension with it, and twenty calls of one tool round froze it
// for 30 s. terminate() stops a worker thread mid-match, and meanwhile the host keeps running.
// At most MAX_RUNNING_SCANS (textScan.ts) run at once (each is a thread with a copy of its texts);
// the others wait their turn, and their time limit starts when they run. A worker whose scan
// answered is kept for the next one (starting one costs about 30 ms of CPU).
//
// Why a process of its own, in a session of its own on Linux: Linux shares the CPU
// between sessions first (autogroup), then between the threads of a session. Workers inside the
// extension host's process spend its session's share: under load, each time the host's thread
// woke it waited for its own workers' turn. Twenty stopped scans, four at a time, beside eight
// busy sessions on 2 cores: the longest gap of a 10 ms timer was 118-199 ms with the workers in
// the host's process (99th percentile 111-135 ms) and 9-105 ms from a helper process in its own
// session (99th percentile 4-8 ms; with no scans at all: 10-27 ms). The workers ran at nice 19
// for a while, which made it worse: a starved nice-19 thread that the host's thread has to join
// or wait for holds the host (109-2085 ms beside six busy processes).
import { spawn, type ChildProcess } from 'node:child_process';
import { previewLine, splitLines } from './text';
import { limitedScan, MAX_RUNNING_SCANS, RegexUnavailable, ScanTimeout, type LineMatch } from './textScan';

export interface RegexScanner {
  /** Matches per text (same order), at most `max` in total. Throws ScanTimeout past `timeoutMs`. */
  scan(texts: readonly string[], re: RegExp, max: number, timeoutMs: number): Promise<LineMatch[][]>;
  dispose(): void;
}

/** What a scan worker is sent (both builds' workers take the same). */
export interface ScanJob {
  texts: readonly string[];
  source: string;
  flags: string;
  max: number;
}
/** A match as a scan worker sends it back: line, index in the line, length. */
export type RawHit = [line: number, index: number, length: number];

/** The scan host ends after this long without a scan (its idle workers with it). */
export const IDLE_SCAN_HOST_MS = 30_000;
/** Past its time limit, a scan the scan host has not answered ends the scan host (a hung or starved helper). */
const HOST_GRACE_MS = 5_000;

/** The worker's program (CommonJS, evaluated): the same line split as splitLines and the web build. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ texts, source, flags, max }) => {
  const re = new RegExp(source, flags);
  const out = [];
  let n = 0;
  for (const text of texts) {
    const hits = [];
    if (n < max && text !== '') {
      const lines = text.split(/\\r\\n|\\r|\\n/);
      if (lines[lines.length - 1] === '') lines.pop();
      for (let i = 0; i < lines.length && n < max; i++) {
        re.lastIndex = 0;
        const m = re.exec(lines[i]);
        if (m) {
          hits.push([i + 1, m.index, m[0].length]);
          n++;
        }
      }
    }
    out.push(hits);
  }
  parentPort.postMessage(out);
});
`;

/**
 * The scan host's program (CommonJS, run with `node -e`): runs each job in a worker (an idle one
 * or a new one), terminates the worker at the job's time limit, keeps up to MAX_RUNNING_SCANS idle
 * workers, and ends when the extension host goes (its IPC channel closes).
 */
const SCAN_HOST_SOURCE = `
const { Worker } = require('node:worker_threads');
const WORKER_SOURCE = ${JSON.stringify(WORKER_SOURCE)};
const MAX_IDLE = ${MAX_RUNNING_SCANS};
const idle = [];
const drop = (w) => { const i = idle.indexOf(w); if (i >= 0) idle.splice(i, 1); };
const endIdle = () => { for (const w of idle.splice(0)) void w.terminate(); };
process.on('disconnect', () => process.exit(0));
function take(done) {
  const kept = idle.pop();
  if (kept) return done(undefined, kept);
  let w;
  try { w = new Worker(WORKER_SOURCE, { eval: true }); } catch (e) { return done(e); }
  w.on('error', () => drop(w));
  w.on('exit', () => drop(w));
  const onError = (e) => { w.off('online', onOnline); void w.terminate(); done(e); };
  const onOnline = () => { w.off('error', onError); done(undefined, w); };
  w.once('online', onOnline);
  w.once('error', onError);
}
process.on('message', (m) => {
  if (m.type === 'idleWorkers') return process.send({ id: m.id, idle: idle.length });
  if (m.type === 'endIdle') { endIdle(); return process.send({ id: m.id, idle: 0 }); }
  take((startError, w) => {
    if (startError) return process.send({ id: m.id, unavailable: 'the regex worker did not start (' + startError.message + ')' });
    const finish = () => { clearTimeout(timer); w.off('message', onMessage); w.off('error', onError); };
    const timer = setTimeout(() => { finish(); void w.terminate(); process.send({ id: m.id, timeout: true }); }, m.timeoutMs);
    const onMessage = (hits) => {
      finish();
      if (idle.length >= MAX_IDLE) void w.terminate(); else idle.push(w);
      process.send({ id: m.id, hits });
    };
    const onError = (e) => { finish(); void w.terminate(); process.send({ id: m.id, unavailable: 'the regex worker failed (' + (e.message || 'unknown error') + ')' }); };
    w.on('message', onMessage);
    w.on('error', onError);
    w.postMessage({ texts: m.texts, source: m.source, flags: m.flags, max: m.max });
  });
});
`;

interface HostReply {
  id: number;
  hits?: RawHit[][];
  timeout?: true;
  unavailable?: string;
  idle?: number;
}

interface Pending {
  resolve(reply: HostReply): void;
  reject(error: Error): void;
}

/** The scan host of this extension host (window-wide), while it runs. */
let host: { child: ChildProcess; pending: Map<number, Pending> } | undefined;
let nextId = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function startHost(): NonNullable<typeof host> {
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, ['-e', SCAN_HOST_SOURCE], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      // Linux: a session of its own (setsid), so that its CPU is not the extension host's share.
      detached: process.platform === 'linux',
      // The extension host's environment stays with it; VS Code's binary runs as plain Node
      // (Windows: Node wants SystemRoot to start).
      env: { ELECTRON_RUN_AS_NODE: '1', ...(process.env.SystemRoot ? { SystemRoot: process.env.SystemRoot } : {}) },
      windowsHide: true,
    });
  } catch (e) {
    throw new RegexUnavailable(`no process available for a time-limited regex scan (${(e as Error).message})`);
  }
  const started = { child, pending: new Map<number, Pending>() };
  const fail = (why: string) => {
    if (host === started) host = undefined;
    for (const p of started.pending.values()) p.reject(new RegexUnavailable(why));
    started.pending.clear();
  };
  child.on('message', (reply: HostReply) => {
    const p = started.pending.get(reply.id);
    if (!p) return;
    started.pending.delete(reply.id);
    if (started.pending.size === 0) child.channel?.unref();
    p.resolve(reply);
  });
  child.on('error', (e) => fail(`the regex scan process failed (${e.message})`));
  child.on('exit', (code, signal) => fail(`the regex scan process ended (${signal ?? `exit code ${code}`})`));
  child.unref(); // never keeps the extension host alive
  host = started;
  return started;
}

/** Sends a message to the scan host (started if needed) and resolves to its reply. */
function ask(message: Record<string, unknown>): Promise<HostReply> {
  const h = host ?? startHost();
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  const id = ++nextId;
  return new Promise<HostReply>((resolve, reject) => {
    h.pending.set(id, {
      resolve: (r) => {
        scheduleIdleEnd();
        resolve(r);
      },
      reject: (e) => {
        scheduleIdleEnd();
        reject(e);
      },
    });
    h.child.channel?.ref();
    h.child.send({ ...message, id }, (err) => {
      const p = err ? h.pending.get(id) : undefined;
      if (!p) return;
      h.pending.delete(id);
      p.reject(new RegexUnavailable(`the regex scan process did not take the scan (${err!.message})`));
    });
  });
}

function scheduleIdleEnd(): void {
  if (!host || host.pending.size > 0) return;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(endScanHost, IDLE_SCAN_HOST_MS);
  idleTimer.unref?.();
}

/** Ends the scan host and its workers (after IDLE_SCAN_HOST_MS without a scan, and for tests). */
export function endScanHost(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  const h = host;
  host = undefined;
  if (!h) return;
  for (const p of h.pending.values()) p.reject(new RegexUnavailable('the regex scan process was ended'));
  h.pending.clear();
  h.child.kill('SIGKILL');
}

/** The scan host's process id, while it runs (for tests). */
export function scanHostPid(): number | undefined {
  return host?.child.pid;
}

/** Idle workers kept by the scan host (for tests; 0 when it does not run). */
export async function idleScanWorkers(): Promise<number> {
  return host ? ((await ask({ type: 'idleWorkers' })).idle ?? 0) : 0;
}

/** Ends the scan host's idle workers (for tests). */
export async function endIdleScanWorkers(): Promise<void> {
  if (host) await ask({ type: 'endIdle' });
}

export function createRegexScanner(): RegexScanner {
  return {
    scan: (texts, re, max, timeoutMs) =>
      limitedScan(texts, re, async () => {
        const job = ask({ type: 'scan', texts, source: re.source, flags: re.flags, max, timeoutMs } satisfies ScanJob & Record<string, unknown>);
        // A scan host that does not answer long after the limit (hung, or starved of a CPU) is ended.
        let backstop: ReturnType<typeof setTimeout> | undefined;
        const reply = await Promise.race([
          job,
          new Promise<never>((_, reject) => {
            backstop = setTimeout(() => {
              endScanHost();
              reject(new ScanTimeout(`timed out after ${timeoutMs} ms (the scan process did not answer)`));
            }, timeoutMs + HOST_GRACE_MS);
            backstop.unref?.();
          }),
        ]).finally(() => clearTimeout(backstop));
        if (reply.timeout) throw new ScanTimeout(`timed out after ${timeoutMs} ms`);
        if (reply.unavailable !== undefined) throw new RegexUnavailable(reply.unavailable);
        const raw = reply.hits ?? [];
        return raw.map((hits, i) => {
          if (hits.length === 0) return [];
          const lines = splitLines(texts[i]!);
          return hits.map(([line, index, length]) => ({ line, preview: previewLine(lines[line - 1]!, index, length) }));
        });
      }),
    // The scan host is shared by every scanner of the window (it ends after IDLE_SCAN_HOST_MS).
    dispose: () => undefined,
  };
}
