// Helpers of the image half of the crash test (crash.e2e.test.ts): a watcher process that
// SIGKILLs the extension host while the saver writes its Nth temporary file, the wait for the
// host that replaces it, and a look at an image folder that tells whole images, partial ones and leftover temporary files apart.
//
// The watcher is a separate Node process (not a callback in this test process, whose event loop
// is busy with Playwright and the in-process gateway simulator): fs.watch is inotify on Linux,
// and the kill goes out as soon as the watcher runs after the write that made the file reach
// the threshold, while the saver is still writing it (a 24 MiB image is written in 512 KiB
// pieces through the thread pool). On a loaded machine that reaction takes about as long as the
// whole write, so where each kill landed is measured afterwards and reported, not assumed.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { InvalidPngError, readPngChunks } from '../../src/images/pngText';
import { TEMP_NAME } from '../../src/platform/fs';
import { extensionHostPids, waitFor } from '../harness/processes';
import type { Workbench } from './workbench';

/** createExclusive's temporary files (src/platform/fs.ts) */
export { TEMP_NAME };

export interface KillReport {
  /** false: the timeout came first (no temporary file appeared), nothing was killed */
  killed: boolean;
  /** the temporary file whose creation triggered the kill */
  trigger?: string;
  /** the folder as the watcher saw it right after sending SIGKILL (sizes may still grow by the write in flight) */
  snapshot: { name: string; size: number }[];
  error?: string;
}

const WATCHER = String.raw`
const fs = require('node:fs');
const [dir, pidText, nthText, minBytesText, wholeBytesText, timeoutText, pattern] = process.argv.slice(1);
const pid = Number(pidText), nth = Number(nthText), minBytes = Number(minBytesText), wholeBytes = Number(wholeBytesText), temp = new RegExp(pattern);
const image = /^[^.].*\.png$/;
const initial = new Set(fs.readdirSync(dir)); // a leftover of an earlier kill is not this save's
const order = [];
let done = false;
function sizeOf(name) { try { return fs.lstatSync(dir + '/' + name).size; } catch { return -1; } }
function snapshot() { return fs.readdirSync(dir).map((name) => ({ name, size: sizeOf(name) })); }
const watcher = fs.watch(dir, (event, name) => {
  if (done || !name || !(temp.test(name) || image.test(name)) || initial.has(name)) return;
  const size = sizeOf(name);
  if (!order.includes(name)) {
    // A file being written: a temporary file, or an image name written in place (what the saver
    // did before temp + link; the watcher must aim at that too, or the test could not catch it).
    // An image name that appears whole was linked from a finished temporary file: not a write.
    if (image.test(name) && size >= wholeBytes) return;
    order.push(name);
  }
  // size -1: the file is already gone (written, linked, removed before this process looked): kill now all the same
  if (order[nth - 1] !== name || (size >= 0 && size < minBytes)) return;
  done = true;
  let error;
  try { process.kill(pid, 'SIGKILL'); } catch (err) { error = String(err); }
  const report = { killed: !error, trigger: name, snapshot: snapshot(), error };
  watcher.close();
  process.stdout.write(JSON.stringify(report) + '\n', () => process.exit(0));
});
setTimeout(() => {
  if (done) return;
  done = true;
  process.stdout.write(JSON.stringify({ killed: false, snapshot: snapshot() }) + '\n', () => process.exit(0));
}, Number(timeoutText));
process.stdout.write('ready\n');
`;

/**
 * Starts the watcher on `dir`; `ready` resolves once it watches, `report` once it killed `pid`
 * (when the `nth` file being written to appear holds at least `minBytes`: its write is under
 * way) or gave up after `timeoutMs`. Files being written: temporary files, and image names that
 * appear smaller than `wholeBytes` (written in place).
 */
export function killDuringWrite(
  dir: string,
  pid: number,
  nth: number,
  minBytes: number,
  wholeBytes: number,
  timeoutMs: number,
): { ready: Promise<void>; report: Promise<KillReport> } {
  const child = spawn(
    process.execPath,
    ['-e', WATCHER, dir, String(pid), String(nth), String(minBytes), String(wholeBytes), String(timeoutMs), TEMP_NAME.source],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Best effort: ahead of the busy processes, so it wakes in time on a loaded machine (needs the
  // right to raise a priority; without it the watcher runs at the normal one).
  try {
    if (child.pid) setPriority(child.pid, -10);
  } catch {
    // not allowed: normal priority
  }
  let out = '';
  let err = '';
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    if (out.startsWith('ready\n')) readyResolve();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const report = new Promise<KillReport>((resolve, reject) => {
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as KillReport);
      else reject(new Error(`the kill watcher ended (${code}) without a report: ${err.slice(0, 2000)}`));
      readyResolve();
    });
  });
  return { ready, report };
}

/** True once `pid` is gone or a zombie (killed, not yet reaped by its parent). */
export function processGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** When `pid` started (clock ticks since boot; /proc/<pid>/stat field 22), or -1 when it is gone. */
export function startTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return -1;
  }
}

export interface FileState {
  name: string;
  size: number;
  /** a whole PNG: signature, every chunk inside the file with its CRC, IEND last and nothing after */
  whole: boolean;
  problem?: string;
}

export interface FolderState {
  /** files under an image's name (not hidden) */
  finals: FileState[];
  /** createExclusive's temporary files */
  temps: FileState[];
  /** anything else (should be nothing) */
  others: string[];
}

export function checkPng(file: string): { whole: boolean; problem?: string } {
  try {
    readPngChunks(new Uint8Array(readFileSync(file)));
    return { whole: true };
  } catch (err) {
    if (err instanceof InvalidPngError) return { whole: false, problem: err.message };
    throw err;
  }
}

export function folderState(dir: string): FolderState {
  const state: FolderState = { finals: [], temps: [], others: [] };
  if (!existsSync(dir)) return state;
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    const st = lstatSync(file);
    if (!st.isFile()) {
      state.others.push(name);
      continue;
    }
    const entry = { name, size: st.size, ...checkPng(file) };
    if (TEMP_NAME.test(name)) state.temps.push(entry);
    else if (!name.startsWith('.') && name.endsWith('.png')) state.finals.push(entry);
    else state.others.push(name);
  }
  return state;
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * After a kill: the host gone, a new one running. VS Code restarts a crashed remote host by itself
 * twice in 5 minutes; after that it asks in a notification whose button restarts it, pressed here
 * as a user would (waiting out 45 s for a restart that did not come, then reloading the window,
 * made a retried kill cost over a minute). A reload is the last resort.
 */
export async function hostAfterKill(wb: Workbench, killed: number, before: number[]): Promise<string> {
  await waitFor('the killed extension host to be gone', () => (processGone(killed) ? true : undefined), { timeoutMs: 30_000, intervalMs: 100 });
  const restart = wb.page.locator('.notifications-toasts .notification-toast').getByRole('button', { name: /Restart/ });
  let asked = false;
  const next = await waitFor(
    'a new extension host',
    async () => {
      const fresh = extensionHostPids(wb.serverPid).find((p) => !before.includes(p) && !processGone(p));
      if (fresh) return fresh;
      if (await restart.count().catch(() => 0)) {
        asked = true;
        await restart
          .first()
          .click({ timeout: 5_000 })
          .catch(() => undefined);
      }
      return undefined;
    },
    { timeoutMs: 45_000, intervalMs: 500 },
  ).catch(() => undefined);
  if (next) {
    // The new host activates Modelgate again before a command can run in it: the status bar's key
    // entry is the sign it has.
    await wb.keyStored(120_000);
    return asked ? `restarted from VS Code's notification (pid ${next})` : `restarted by VS Code (pid ${next})`;
  }
  await wb.page.reload({ waitUntil: 'domcontentloaded' });
  await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
  await wb.keyStored(120_000);
  return 'window reloaded';
}
