// Completions as you type (`npm run bench -- completions`): typing a 200-line TypeScript file at
// 8 characters per second (the typist: completionsTypist.ts, in a lean process of its own) against
// the gateway simulator (another process) with its realistic latency: the economical channel's
// first token after about 1.5 s and a chunk every ~55 ms; the direct channel's after ~0.25 s.
// Figures per run (typist @ channel):
//   keystrokes; requests sent; requests aborted (as the client saw them, and the streams the
//   simulator saw closed before their end); ghost texts shown, reused while typed through,
//   accepted; tokens and dollars billed (the simulator's record: the prompt of every request that
//   reached it, the completion tokens it sent); the typist process's CPU per keystroke (raw, and
//   above the process's idle CPU), the CPU of each keystroke's synchronous part, the most CPU one
//   event-loop callback took; the time from the end of the pause (last key + the delay the
//   engine chose) to the request's body written to the socket, and to its arrival at the simulator.
// Knobs: MODELGATE_BENCH_COMPLETIONS_LINES (default 200),
//        MODELGATE_BENCH_COMPLETIONS_RUNS (default "accepts@economical,accepts@direct"; also ignores@<channel>).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Channel } from '../../src/core';
import type { StreamRecord } from '../gateway/gateway-state';
import { chatCost } from '../gateway/prices';
import type { TypistConfig, TypistResult } from './completionsTypist';
import { figure } from './report';

/** The simulator as a child process (`npm run sim`'s entry, realistic latency, no random failures). */
async function startSimulator(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, [join(process.cwd(), 'out/gateway/cli.js'), '--port', '0', '--no-failures', '--seed', '11'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /base URL:\s+(\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before it listened`)));
  });
  child.stdout!.resume();
  return { child, baseUrl };
}

/** Bundles the typist (only the engine, the client and the simulator's corpus) for a process of its own. */
async function buildTypist(dir: string): Promise<string> {
  const esbuild = await import('esbuild');
  const out = join(dir, 'typist.js');
  await esbuild.build({
    entryPoints: [join(process.cwd(), 'test/bench/completionsTypist.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
  });
  return out;
}

function runTypist(file: string, config: TypistConfig): Promise<TypistResult> {
  return new Promise((resolve, reject) => {
    const child = fork(file, [JSON.stringify(config)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve(m as TypistResult));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the typist exited with ${code}`))));
  });
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function report(name: string, run: TypistResult, streams: StreamRecord[], lines: number): void {
  const n = run.keystrokes;
  const sent = run.reports.length;
  const aborted = run.reports.filter((r) => r.aborted && r.aborted !== 'answered');
  const closedWaiting = streams.filter((s) => s.closedEarly === 'waiting').length;
  const closedStreaming = streams.filter((s) => s.closedEarly === 'streaming').length;
  const prompt = streams.reduce((t, s) => t + s.promptTokens, 0);
  const cached = streams.reduce((t, s) => t + s.cachedTokens, 0);
  const completion = streams.reduce((t, s) => t + s.sentTokens, 0);
  const planned = streams.reduce((t, s) => t + s.plannedTokens, 0);
  const usd = streams.reduce((t, s) => t + s.charged, 0);
  const hours = run.wallMs / 3_600_000;
  const note = `${lines} lines, ${name}`;
  const f = (short: string, value: number, unit: string, extra: Partial<Parameters<typeof figure>[0]> = {}) =>
    figure({ name: `completions.${name}.${short}`, value, unit, note, ...extra });
  f('keystrokes', n, '', { note: `${note}; ${(run.wallMs / 1000).toFixed(0)} s of typing` });
  f('requestsSent', sent, '', { note: `${note}; ${(sent / hours).toFixed(0)} per hour of typing, ${((sent / n) * 100).toFixed(1)} per 100 keystrokes` });
  f('requestsAborted', aborted.length, '', {
    note: `${note}; by a keystroke ${aborted.filter((r) => r.aborted === 'typing').length}, a newer ask ${aborted.filter((r) => r.aborted === 'superseded').length}, the deadline ${aborted.filter((r) => r.aborted === 'deadline').length}`,
  });
  f('simulator.streamsClosedEarly', closedWaiting + closedStreaming, '', {
    note: `${note}; before the first token ${closedWaiting}, while streaming ${closedStreaming}`,
  });
  f('shown', run.shown, '', { note: `${note}; ${run.reused} more reused while typed through; ${run.accepted} accepted with Tab` });
  f('tokensBilled.prompt', prompt, 'tok', {
    note: `${note}; ${cached} of them from the prompt cache (${((cached / Math.max(1, prompt)) * 100).toFixed(0)} %)`,
  });
  f('tokensBilled.completion', completion, 'tok', { note: `${note}; ${planned - completion} not produced: their streams were closed` });
  f('usdBilled', usd, 'USD', { note: `${note}; flagship-text; ${(usd / hours).toFixed(2)} USD per hour of typing` });
  const check = streams.reduce(
    (t, s) =>
      t +
      chatCost(s.model, s.channel, {
        prompt_tokens: s.promptTokens,
        completion_tokens: s.sentTokens,
        prompt_tokens_details: { cached_tokens: s.cachedTokens },
      }),
    0,
  );
  if (Math.abs(check - usd) > 1e-9) f('usdBilled.mismatch', check - usd, 'USD');
  const seconds = (run.wallMs + run.tailMs) / 1000;
  f('cpuPerKeystroke', (run.mainCpuMs - run.idleMainCpuMsPerS * seconds) / n, 'ms', {
    peerName: 'target',
    peer: 1,
    target: '< 1',
    note: `${note}; the typist's main thread (its event loop: engine, client, driver) over the typing, above its idle CPU (${run.idleMainCpuMsPerS.toFixed(2)} ms/s), / keystrokes`,
  });
  f('cpuPerKeystroke.allThreads', run.cpuMs / n, 'ms', {
    note: `${note}; the whole process (GC and compiler threads too), its idle CPU (${run.idleCpuMsPerS.toFixed(2)} ms/s) included`,
  });
  f('keystroke.cpu.mean', mean(run.keystrokeCpuMs), 'ms', { note: `${note}; the change and the ask, until they return` });
  f('keystroke.cpu.max', Math.max(...run.keystrokeCpuMs), 'ms', { note: `${note}; a keystroke that aborts a request pays for closing its stream` });
  f('longestTask.cpu', run.longestTask.maxCpuMs, 'ms', {
    peerName: 'target',
    peer: 16,
    target: '< 1',
    note: `${note}; the most CPU one event-loop callback took, of ${run.longestTask.tasks}; ${run.longestTask.over16Cpu} over 16 ms`,
  });
  f('longestTask.clock', run.longestTask.maxWallMs, 'ms', { note: `${note}; the same by the clock (on a busy machine it counts the wait for a core)` });
  // the end of the pause: the last key + the delay the engine chose
  const pauseEnd = (r: TypistResult['reports'][number]) => r.times.keyAt + r.times.delayMs;
  const arrival = new Map(streams.map((s) => [s.user, s.arrivedAt]));
  const toSocket = run.reports.flatMap((r) => (run.bodySentAt[r.id] !== undefined ? [run.bodySentAt[r.id]! - pauseEnd(r)] : []));
  const timerLate = run.reports.map((r) => r.times.firedAt - pauseEnd(r));
  const build = run.reports.map((r) => r.times.sentAt - r.times.firedAt);
  const toArrival = run.reports.flatMap((r) => (arrival.has(r.id) ? [arrival.get(r.id)! - (run.timeOrigin + pauseEnd(r))] : []));
  f('pauseToWire.median', pct(toSocket, 50), 'ms', {
    peerName: 'target',
    peer: 5,
    target: '< 1',
    note: `${note}; beyond the delay, to the body written to the socket; medians: the timer late ${pct(timerLate, 50).toFixed(2)}, the prompt ${pct(build, 50).toFixed(2)}, the rest the key and fetch`,
  });
  f('pauseToWire.p90', pct(toSocket, 90), 'ms', {
    note: `${note}; mean ${mean(toSocket).toFixed(1)} (a busy machine makes the timer and the socket wait for a core)`,
  });
  f('pauseToWire.toSimulator.median', pct(toArrival, 50), 'ms', { note: `${note}; to the request's arrival at the simulator` });
  f('delay.mean', mean(run.reports.map((r) => r.times.delayMs)), 'ms', { note: `${note}; the adaptive delay` });
}

export async function benchCompletions(): Promise<void> {
  const lines = Number(process.env.MODELGATE_BENCH_COMPLETIONS_LINES ?? 200);
  const runs = (process.env.MODELGATE_BENCH_COMPLETIONS_RUNS ?? 'accepts@economical,accepts@direct').split(',').map((s) => s.trim());
  const dir = mkdtempSync(join(tmpdir(), 'modelgate-bench-typist-'));
  const { child, baseUrl } = await startSimulator();
  try {
    const typist = await buildTypist(dir);
    for (const run of runs) {
      const [who, channel] = run.split('@') as [string, Channel];
      if ((who !== 'accepts' && who !== 'ignores') || !['direct', 'stable', 'economical'].includes(channel))
        throw new Error(`unknown run ${run}: accepts@<channel> or ignores@<channel>`);
      const result = await runTypist(typist, { baseUrl, lines, accepts: who === 'accepts', channel, idleMs: 5000 });
      const streams = (await (await fetch(baseUrl.replace(/\/v1$/, '/__sim/streams'))).json()) as StreamRecord[];
      report(`${who}@${channel}`, result, streams, lines);
    }
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
