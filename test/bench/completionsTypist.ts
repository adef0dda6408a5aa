// The typist of `npm run bench -- completions`, in a process of its own that loads only the
// completion engine and the gateway client (the bench's own process carries jsdom, esbuild and
// the rest, whose background work would count as the client's). It types, measures and sends its
// figures back to the bench (process.send); the bench reads the simulator's record.
//
// A person types a 200-line TypeScript file (BENCH_SOURCE) into an empty document at 8
// characters per second on average, with the rhythm people type in: bursts of keys about 80 ms
// apart, a pause at most line ends and now and then between words. The editor indents new lines:
// a newline and the next line's indentation are one keystroke. Driven as the editor drives the
// engine: every keystroke is a document change (noteChange) and an ask for ghost text (complete).
//   - "accepts": presses Tab when the ghost text is exactly what they were about to type;
//   - "ignores": never accepts, types every character (ghost text is reused while typed through).
import { createHook } from 'node:async_hooks';
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createGatewayClient, type Channel } from '../../src/core';
import type { CompletionAsk, RequestReport } from '../../src/core/completions/completionContract';
import { CompletionEngine } from '../../src/core/completions/completionEngine';
import { fimRequest } from '../../src/core/completions/fimPrompt';
import { BENCH_SOURCE } from '../gateway/fim-corpus';
import { DEMO_KEY } from '../gateway/demo-key';
import { seededRng } from '../gateway/rng';

const CHARS_PER_SECOND = 8;
const DOC = 'file:///bench/src/queue.ts';

export interface TypistConfig {
  baseUrl: string;
  lines: number;
  accepts: boolean;
  channel: Channel;
  /** idle time measured before typing, for the process's own background CPU */
  idleMs: number;
}

export interface TypistResult {
  keystrokes: number;
  /** CPU (ms) of each keystroke's synchronous part: the change and the ask until they return */
  keystrokeCpuMs: number[];
  /** the process's CPU (all threads: the event loop, GC, compiler) over the typing and the tail */
  cpuMs: number;
  /** the same for the main thread only (the event loop's thread) */
  mainCpuMs: number;
  /** CPU per second while idle (timers armed, nothing typed): all threads, the main thread */
  idleCpuMsPerS: number;
  idleMainCpuMsPerS: number;
  wallMs: number;
  longestTask: { maxWallMs: number; maxCpuMs: number; over16Cpu: number; tasks: number };
  reports: (Omit<RequestReport, 'request' | 'prompt' | 'error'> & { failed: boolean; id: string })[];
  /** the wait after typing for the last request to end (its CPU is in cpuMs) */
  tailMs: number;
  shown: number;
  reused: number;
  accepted: number;
  /** when each request's body was written to the socket (fetch's diagnostics channel), by request id */
  bodySentAt: Record<string, number>;
  timeOrigin: number;
}

interface Keystroke {
  /** what the key inserts: one character, or a newline with the indentation the editor adds */
  text: string;
  /** ms after the previous keystroke */
  gapMs: number;
}

/** The keystrokes of typing `source`: bursts ~80 ms apart, pauses at most line ends (0.4-2 s) and after some words, 8 characters per second overall. */
export function keystrokesOf(source: string, seed = 7): Keystroke[] {
  const rng = seededRng(seed);
  const keys: Keystroke[] = [];
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    let text = ch;
    if (ch === '\n') {
      const indent = /^[ \t]*/.exec(source.slice(i + 1))![0];
      text += indent;
      i += indent.length;
    }
    const prev = keys[keys.length - 1]?.text ?? '';
    let gap = 80 * (0.65 + 0.7 * rng());
    if (prev.startsWith('\n') && rng() < 0.85) gap += 400 + 1600 * rng();
    else if (prev === ' ' && rng() < 0.15) gap += 250 + 450 * rng();
    keys.push({ text, gapMs: gap });
  }
  const chars = keys.length;
  const total = keys.reduce((t, k) => t + k.gapMs, 0);
  const scale = ((chars / CHARS_PER_SECOND) * 1000) / total;
  for (const k of keys) k.gapMs *= scale;
  return keys;
}

/** The main thread's CPU time (ms; /proc, 10 ms ticks): what blocks an event loop, without the GC and compiler threads. */
export function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

const cpuNow = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** The most CPU (and clock) one callback of the event loop took: every callback is timed from its start to its end. */
function taskMeter() {
  let depth = 0;
  let wallStart = 0;
  let cpuStart = 0;
  const m = { maxWallMs: 0, maxCpuMs: 0, over16Cpu: 0, tasks: 0 };
  const hook = createHook({
    before() {
      if (depth++ === 0) {
        wallStart = performance.now();
        cpuStart = cpuNow();
      }
    },
    after() {
      if (--depth !== 0) return;
      const wall = performance.now() - wallStart;
      const cpu = cpuNow() - cpuStart;
      m.tasks++;
      if (wall > m.maxWallMs) m.maxWallMs = wall;
      if (cpu > m.maxCpuMs) m.maxCpuMs = cpu;
      if (cpu > 16) m.over16Cpu++;
    },
  });
  let on = false;
  return { start: () => ((on = true), hook.enable()), stop: () => (on && hook.disable(), m) };
}

/** fetch with the request's id (its `user` field) in a header too, for the socket's diagnostics events. */
const benchFetch: typeof fetch = (input, init) => {
  const id = /"user":"(typist-\d+)"/.exec(typeof init?.body === 'string' ? init.body : '')?.[1];
  return fetch(input, id ? { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-bench-id': id } } : init);
};

/** Each request carries an id in its `user` field: the simulator's record and the socket's events name it. */
let requestSeq = 0;

function engineFor(client: ReturnType<typeof createGatewayClient>, channel: Channel, onReport?: (r: RequestReport) => void): CompletionEngine {
  return new CompletionEngine({
    now: () => performance.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    stream: (request, options) => client.streamChat(request, options),
    prepare: (prompt) => ({ request: { ...fimRequest(prompt, { model: 'flagship-text', channel }), user: `typist-${++requestSeq}` } }),
    ...(onReport ? { onReport } : {}),
  });
}

/** Loads and compiles what the first requests use (fetch, the client), so the figures are those of typing, not of start-up. */
async function warmUp(client: ReturnType<typeof createGatewayClient>): Promise<void> {
  const engine = engineFor(client, 'direct');
  const lines = BENCH_SOURCE.split('\n').slice(0, 30);
  const ask = (n: number): CompletionAsk => ({
    doc: { docKey: 'file:///warm.ts', path: 'src/queue.ts', languageId: 'typescript', lines: { lineCount: n, lineAt: (i) => lines[i] ?? '' } },
    cursor: { line: n - 1, character: lines[n - 1]!.length },
    textBetween: () => '',
  });
  for (let n = 5; n < 30; n += 5) {
    const pending = engine.complete(ask(n));
    if (n % 10 === 0) {
      await new Promise((r) => setTimeout(r, 300));
      engine.noteChange('file:///warm.ts');
    }
    await pending;
  }
}

async function type(config: TypistConfig): Promise<TypistResult> {
  const client = createGatewayClient({ baseUrl: config.baseUrl, apiKey: DEMO_KEY, maxRetries: 0, fetch: benchFetch });
  await warmUp(client);
  await fetch(config.baseUrl.replace(/\/v1$/, '/__sim/reset'), { method: 'POST' });
  // the process's own background CPU, with a timer ticking as fast as keys come
  const idle0 = cpuNow();
  const idleMain0 = mainThreadCpuMs();
  await new Promise<void>((done) => {
    const tick = setInterval(() => undefined, 125);
    setTimeout(() => (clearInterval(tick), done()), config.idleMs);
  });
  const idleCpuMsPerS = ((cpuNow() - idle0) / config.idleMs) * 1000;
  const idleMainCpuMsPerS = ((mainThreadCpuMs() - idleMain0) / config.idleMs) * 1000;

  const source = BENCH_SOURCE.split('\n').slice(0, config.lines).join('\n') + '\n';
  const keys = keystrokesOf(source);
  const reports: RequestReport[] = [];
  const engine = engineFor(client, config.channel, (r) => reports.push(r));

  // The document is the source typed so far (typing goes in order, at the end).
  let pos = 0;
  let version = 0;
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  let line = 0;
  const offsetOf = (c: { line: number; character: number }) => lineStarts[c.line]! + c.character;
  const ask = (): CompletionAsk => {
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= pos) line++;
    const at = line;
    const lines = { lineCount: at + 1, lineAt: (i: number) => source.slice(lineStarts[i]!, i === at ? pos : lineStarts[i + 1]! - 1) };
    return {
      doc: { docKey: DOC, path: 'src/queue.ts', languageId: 'typescript', lines },
      cursor: { line: at, character: pos - lineStarts[at]! },
      textBetween: (from, to) => source.slice(offsetOf(from), offsetOf(to)),
    };
  };

  let shown = 0;
  let reused = 0;
  let accepted = 0;
  const keystrokeCpuMs: number[] = [];
  const tasks = taskMeter();
  // fetch's own diagnostics: a request's headers go out (they name it: benchFetch), then its body
  const bodySentAt: Record<string, number> = {};
  const idOf = new WeakMap<object, string>();
  const onCreate = (m: unknown) => {
    const { request, headers } = m as { request: object; headers: unknown };
    const id = /x-bench-id: (typist-\d+)/i.exec(String(headers))?.[1];
    if (id) idOf.set(request, id);
  };
  const onBodySent = (m: unknown) => {
    const id = idOf.get((m as { request: object }).request);
    if (id) bodySentAt[id] = performance.now();
  };
  subscribe('undici:client:sendHeaders', onCreate);
  subscribe('undici:request:bodySent', onBodySent);
  const profile = process.env.MODELGATE_BENCH_COMPLETIONS_PROFILE;
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await new Promise((r) => session.post('Profiler.enable', () => session.post('Profiler.start', r)));
  }
  const cpu0 = cpuNow();
  const main0 = mainThreadCpuMs();
  const t0 = performance.now();
  if (process.env.MODELGATE_BENCH_COMPLETIONS_TASKS !== '0') tasks.start();

  /**
   * One keystroke, or an accepted completion: the change (the editor's document event), the
   * acceptance command (the editor runs it right after inserting), then the editor's next ask.
   */
  const change = (inserted: number, acceptedOffer?: number) => {
    const start = cpuNow();
    pos += inserted;
    version++;
    engine.noteChange(DOC);
    if (acceptedOffer !== undefined) engine.accepted(acceptedOffer);
    const at = version;
    const pending = engine.complete(ask());
    keystrokeCpuMs.push(cpuNow() - start);
    void pending.then((result) => {
      if (!result || at !== version) return;
      if (result.reused) reused++;
      else shown++;
      if (config.accepts && source.startsWith(result.text, pos)) {
        accepted++;
        change(result.text.length, result.offerId);
      }
    });
  };

  // where each keystroke's text ends in the source
  const keyEnd: number[] = [];
  keys.reduce((end, key) => (keyEnd.push(end + key.text.length), end + key.text.length), 0);
  let k = 0;
  let typed = 0;
  await new Promise<void>((done) => {
    const next = () => {
      // an accepted completion typed ahead: the next key is the first one not covered (a part of it, when one ended inside it)
      while (k < keys.length && keyEnd[k]! <= pos) k++;
      if (k >= keys.length) return done();
      setTimeout(() => {
        while (k < keys.length && keyEnd[k]! <= pos) k++; // accepted while this key waited
        if (k >= keys.length) return done();
        typed++;
        change(keyEnd[k]! - pos);
        k++;
        next();
      }, keys[k]!.gapMs);
    };
    next();
  });
  const wallMs = performance.now() - t0;
  // the last request ends (its stream, the report); its time is not typing time, its CPU is counted
  const tailMs = 7000;
  await new Promise((r) => setTimeout(r, tailMs));
  const longestTask = tasks.stop();
  unsubscribe('undici:client:sendHeaders', onCreate);
  unsubscribe('undici:request:bodySent', onBodySent);
  const cpuMs = cpuNow() - cpu0;
  const mainCpuMs = mainThreadCpuMs() - main0;
  if (session && profile)
    await new Promise<void>((r) =>
      session.post('Profiler.stop', (_e, p) => {
        writeFileSync(profile, JSON.stringify(p.profile));
        r();
      }),
    );
  return {
    keystrokes: typed,
    keystrokeCpuMs,
    cpuMs,
    mainCpuMs,
    idleCpuMsPerS,
    idleMainCpuMsPerS,
    wallMs,
    longestTask,
    tailMs,
    reports: reports.map(({ request, prompt: _p, error, ...rest }) => ({ ...rest, failed: !!error, id: request.user ?? '' })),
    shown,
    reused,
    accepted,
    bodySentAt,
    timeOrigin: performance.timeOrigin,
  };
}

if (require.main === module) {
  const config = JSON.parse(process.argv[2]!) as TypistConfig;
  type(config).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => {
      process.stderr.write(`typist failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
