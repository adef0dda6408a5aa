// SSE decoding over loopback, with the official `openai` SDK as the peer in the same run and
// "reading the bytes alone" (fetch + reader, no decoding) as the floor. The server runs in a
// child process so the CPU figures are the client's alone; every round runs the three readers
// in turn (bytes, ours, SDK) after a warm-up round, and each figure is the median of the rounds.
// Chunks are full OpenAI-shaped chat.completion.chunk objects (id, object, created, model,
// system_fingerprint, logprobs, finish_reason), as the real service sends. A third body has the
// same number of reasoning deltas (DeepSeek's `reasoning_content`, content null; "Reasoning Model",
// api-docs.deepseek.com) instead of content deltas: reasoning should decode at the
// same cost ratio against the SDK as content, so the two ratios are put side by side (figures,
// never asserted).
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayClient } from '../../src/core';
import { figure } from './report';

// The replay server, as a script for a child process: GET-or-POST /<kind>/chat/completions.
const SERVER = String.raw`
const http = require('node:http');
const head = (i) => ({ id: 'chatcmpl-bench0001', object: 'chat.completion.chunk', created: 1763900000, model: 'flagship-text', system_fingerprint: 'fp_bench', choices: [i] });
function small(n) {
  const parts = ['data: ' + JSON.stringify(head({ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null })) + '\n\n'];
  for (let i = 0; i < n; i++) parts.push('data: ' + JSON.stringify(head({ index: 0, delta: { content: 'tok' + (i % 10) + ' ' }, logprobs: null, finish_reason: null })) + '\n\n');
  parts.push('data: ' + JSON.stringify(head({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' })) + '\n\n');
  parts.push('data: ' + JSON.stringify({ ...head(undefined), choices: [], usage: { prompt_tokens: 10, completion_tokens: n, total_tokens: n + 10 } }) + '\n\n');
  parts.push('data: [DONE]\n\n');
  return Buffer.from(parts.join(''));
}
function reasoning(n) {
  const parts = ['data: ' + JSON.stringify(head({ index: 0, delta: { role: 'assistant', content: null, reasoning_content: '' }, logprobs: null, finish_reason: null })) + '\n\n'];
  for (let i = 0; i < n; i++) parts.push('data: ' + JSON.stringify(head({ index: 0, delta: { content: null, reasoning_content: 'tok' + (i % 10) + ' ' }, logprobs: null, finish_reason: null })) + '\n\n');
  parts.push('data: ' + JSON.stringify(head({ index: 0, delta: { content: 'ok', reasoning_content: null }, logprobs: null, finish_reason: 'stop' })) + '\n\n');
  parts.push('data: ' + JSON.stringify({ ...head(undefined), choices: [], usage: { prompt_tokens: 10, completion_tokens: n, total_tokens: n + 10 } }) + '\n\n');
  parts.push('data: [DONE]\n\n');
  return Buffer.from(parts.join(''));
}
function big(bytes) {
  let x = 2463534242;
  const raw = Buffer.alloc(Math.ceil(bytes * 3 / 4));
  for (let i = 0; i < raw.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; raw[i] = x & 0xff; }
  const b64 = raw.toString('base64').slice(0, bytes);
  return Buffer.from('data: ' + JSON.stringify(head({ index: 0, delta: { content: b64 }, logprobs: null, finish_reason: null })) + '\n\n'
    + 'data: ' + JSON.stringify(head({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' })) + '\n\ndata: [DONE]\n\n');
}
const bodies = { small: small(Number(process.argv[2])), big: big(Number(process.argv[3])), reasoning: reasoning(Number(process.argv[2])) };
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const kind = req.url.split('/')[1];
    const body = bodies[kind];
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.socket.setNoDelay(true);
    if (kind !== 'big') { // 16 KB writes, as fast as the socket takes them
      for (let i = 0; i < body.length; i += 16384) res.write(body.subarray(i, i + 16384));
      res.end();
      return;
    }
    // 1 KB writes, one per turn of the loop, so the client mostly reads 1 KB at a time
    let at = 0;
    const next = () => {
      if (at >= body.length) return res.end();
      res.write(body.subarray(at, at + 1024));
      at += 1024;
      setImmediate(next);
    };
    next();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, small: bodies.small.length, big: bodies.big.length, reasoning: bodies.reasoning.length }));
`;

interface Server {
  url: string;
  sizes: { small: number; big: number; reasoning: number };
  child: ChildProcess;
}

async function startServer(smallDeltas: number, bigBytes: number): Promise<Server> {
  const file = join(tmpdir(), `modelgate-bench-server-${process.pid}.cjs`);
  writeFileSync(file, SERVER);
  const child = fork(file, [String(smallDeltas), String(bigBytes)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const info = await new Promise<{ port: number; small: number; big: number; reasoning: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; small: number; big: number; reasoning: number }));
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${info.port}`, sizes: { small: info.small, big: info.big, reasoning: info.reasoning }, child };
}

type Reader = (base: string) => Promise<{ chars: number; reads?: number }>;

const bytesAlone: Reader = async (base) => {
  const res = await fetch(`${base}/chat/completions`, { method: 'POST', body: '{}' });
  const reader = res.body!.getReader();
  let chars = 0;
  let reads = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chars += value.byteLength;
    reads++;
  }
  return { chars, reads };
};

const ours: Reader = async (base) => {
  const client = createGatewayClient({ baseUrl: base, apiKey: 'sk-bench', maxRetries: 0 });
  let chars = 0;
  for await (const event of client.streamChat({ model: 'flagship-text', messages: [{ role: 'user', content: 'x' }] })) {
    if (event.type === 'text' || event.type === 'reasoning') chars += event.text.length;
  }
  return { chars };
};

async function sdkReader(): Promise<Reader | undefined> {
  try {
    const { default: OpenAI } = await import('openai');
    return async (base) => {
      const client = new OpenAI({ baseURL: base, apiKey: 'sk-bench', maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'flagship-text', messages: [{ role: 'user', content: 'x' }], stream: true });
      let chars = 0;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string | null } | undefined;
        chars += (delta?.content?.length ?? 0) + (delta?.reasoning_content?.length ?? 0);
      }
      return { chars };
    };
  } catch (error) {
    console.log(`  (openai SDK not available: ${String(error).slice(0, 120)})`);
    return undefined;
  }
}

async function cpuOf(read: Reader, base: string): Promise<{ cpu: number; wall: number; chars: number; reads?: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await read(base);
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  return { cpu: (used.user + used.system) / 1000, wall, ...out };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Warm-up round, then `rounds` rounds of every reader in turn; medians of CPU ms. */
async function alternate(readers: Record<string, Reader>, base: string, rounds: number) {
  const names = Object.keys(readers);
  for (const n of names) await cpuOf(readers[n]!, base);
  const samples: Record<string, { cpu: number[]; wall: number[]; chars: number; reads?: number }> = {};
  for (const n of names) samples[n] = { cpu: [], wall: [], chars: 0 };
  for (let r = 0; r < rounds; r++) {
    for (const n of r % 2 ? [...names].reverse() : names) {
      const s = await cpuOf(readers[n]!, base);
      samples[n]!.cpu.push(s.cpu);
      samples[n]!.wall.push(s.wall);
      samples[n]!.chars = s.chars;
      samples[n]!.reads = s.reads;
    }
  }
  return Object.fromEntries(
    names.map((n) => [n, { cpu: median(samples[n]!.cpu), wall: median(samples[n]!.wall), chars: samples[n]!.chars, reads: samples[n]!.reads }]),
  );
}

export async function benchSse(options: { smallDeltas?: number; bigBytes?: number; rounds?: number } = {}): Promise<void> {
  const smallDeltas = options.smallDeltas ?? 20_000;
  const bigBytes = options.bigBytes ?? 8 * 1024 * 1024;
  const rounds = options.rounds ?? 7;
  const server = await startServer(smallDeltas, bigBytes);
  try {
    // Profiling mode: MODELGATE_BENCH_SSE_ONLY=ours|sdk|bytes runs one reader only, for
    // `node --cpu-prof out/bench/run.js sse` (no ratios; the profile is the output).
    const only = process.env.MODELGATE_BENCH_SSE_ONLY;
    if (only) {
      const reader = only === 'ours' ? ours : only === 'bytes' ? bytesAlone : await sdkReader();
      if (!reader) throw new Error(`unknown reader ${only}`);
      for (const kind of (process.env.MODELGATE_BENCH_SSE_KIND ?? 'small,big').split(',')) {
        const cpu: number[] = [];
        for (let r = 0; r < rounds * 3; r++) cpu.push((await cpuOf(reader, `${server.url}/${kind}`)).cpu);
        console.log(`  ${only} ${kind}: CPU ms median ${median(cpu).toFixed(1)} of ${cpu.length}`);
      }
      return;
    }
    const sdk = await sdkReader();
    const readers: Record<string, Reader> = { bytes: bytesAlone, ours, ...(sdk ? { sdk } : {}) };
    const vsSdk: Partial<Record<'small' | 'reasoning', number>> = {};
    for (const kind of ['small', 'big', 'reasoning'] as const) {
      const base = `${server.url}/${kind}`;
      const label =
        kind === 'small'
          ? `sse.${smallDeltas / 1000}kSmallDeltas`
          : kind === 'reasoning'
            ? `sse.${smallDeltas / 1000}kReasoningDeltas`
            : `sse.${bigBytes / 1024 / 1024}MbEvent1KbChunks`;
      const m = await alternate(readers, base, rounds);
      const note = `${server.sizes[kind]} bytes, ${m.bytes!.reads} reads, CPU ms median of ${rounds} alternating rounds`;
      figure({ name: `${label}.bytesAlone`, value: m.bytes!.cpu, unit: 'ms', note });
      if (m.sdk) figure({ name: `${label}.openaiSdk`, value: m.sdk.cpu, unit: 'ms', note: `wall ${m.sdk.wall.toFixed(0)} ms` });
      figure({ name: `${label}.ours`, value: m.ours!.cpu, unit: 'ms', note: `wall ${m.ours!.wall.toFixed(0)} ms` });
      if (m.sdk) {
        if (m.sdk.chars !== m.ours!.chars) console.log(`  WARNING: the SDK read ${m.sdk.chars} chars, ours ${m.ours!.chars}`);
        figure({
          name: `${label}.oursVsSdk`,
          value: m.ours!.cpu,
          unit: 'ms',
          peerName: 'openai SDK',
          peer: m.sdk.cpu,
          target: kind === 'big' ? '<= 0.40' : '<= 0.30',
        });
        if (kind !== 'big' && m.sdk.cpu > 0) vsSdk[kind] = m.ours!.cpu / m.sdk.cpu;
      }
      figure({
        name: `${label}.oursVsBytes`,
        value: m.ours!.cpu,
        unit: 'ms',
        peerName: 'bytes alone',
        peer: m.bytes!.cpu,
        target: kind === 'big' ? '<= 1.3' : '<= 3',
      });
    }
    // The figure that matters: reasoning's ratio to the SDK over content's ratio to the SDK (1 = the same cost ratio).
    if (vsSdk.small !== undefined && vsSdk.reasoning !== undefined)
      figure({
        name: `sse.${smallDeltas / 1000}kReasoningVsContent.ratioToSdk`,
        value: vsSdk.reasoning,
        unit: 'x',
        peerName: 'content deltas’ ratio to the SDK',
        peer: vsSdk.small,
        target: '~ 1',
      });
  } finally {
    server.child.kill();
  }
}
