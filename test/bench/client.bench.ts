// Client benchmarks: (1) the shared client's overhead over reading the same SSE bytes raw,
// (2) prompt caching across a conversation laid out by src/core/promptLayout, priced with the
// simulator's price card, with and without the cache.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayClient, costOf } from '../../src/core';
import { layoutPrompt, userMessage } from '../../src/core/promptLayout';
import type { ChatMessage } from '../../src/core/types';
import { startGateway, PRICE_CARD } from '../gateway';
import type { BenchResult } from './types';

function sseBody(deltas: number, deltaText: string): Buffer {
  const parts: string[] = ['data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n'];
  const chunk = JSON.stringify({ choices: [{ index: 0, delta: { content: deltaText } }] });
  for (let i = 0; i < deltas; i++) parts.push(`data: ${chunk}\n\n`);
  parts.push('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n');
  parts.push('data: {"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":10}}\n\ndata: [DONE]\n\n');
  return Buffer.from(parts.join(''));
}

async function replayServer(body: Buffer, chunkSize: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < body.length; i += chunkSize) res.write(body.subarray(i, i + chunkSize));
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((r) => server.close(() => r())) };
}

async function median(runs: number, fn: () => Promise<number>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) xs.push(await fn());
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)];
}

export async function benchClient(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const body = sseBody(50_000, 'token ');
  const srv = await replayServer(body, 1400);
  try {
    const raw = await median(5, async () => {
      const t = performance.now();
      const r = await fetch(`${srv.url}/chat/completions`, { method: 'POST', body: '{}' });
      const reader = r.body!.getReader();
      while (!(await reader.read()).done);
      return performance.now() - t;
    });
    const client = createGatewayClient({ baseUrl: srv.url, apiKey: 'bench' });
    let chars = 0;
    const viaClient = await median(5, async () => {
      chars = 0;
      const t = performance.now();
      for await (const e of client.streamChat({ model: 'm', messages: [{ role: 'user', content: 'x' }] })) {
        if (e.type === 'text') chars += e.text.length;
      }
      return performance.now() - t;
    });
    results.push({
      name: 'client: stream 50,000 SSE deltas (1.4 KB network chunks)',
      figures: {
        'bytes': body.length,
        'raw fetch read (ms)': +raw.toFixed(1),
        'streamChat (ms)': +viaClient.toFixed(1),
        'client overhead per delta (µs)': +(((viaClient - raw) * 1000) / 50_000).toFixed(2),
        'text chars received': chars,
      },
    });
  } finally {
    await srv.close();
  }

  // Prompt caching across a 5-turn conversation with a ~40K-token pinned file.
  const gw = await startGateway();
  try {
    const client = createGatewayClient({ baseUrl: gw.baseUrl, apiKey: 'sk-test' });
    const file = Array.from({ length: 4000 }, (_, i) => `export const value${i} = ${i}; // line ${i} of a large module`).join('\n');
    const pinned = [{ path: 'src/big.ts', language: 'typescript', content: file }];
    const history: ChatMessage[] = [];
    const price = PRICE_CARD.chat['long-context-tools'].stable;
    let withCache = 0;
    let withoutCache = 0;
    const turns: string[] = [];
    for (let turn = 1; turn <= 5; turn++) {
      history.push(userMessage(`Question ${turn} about big.ts [[words:40]]`, [{ title: 'Selection', text: `line ${turn * 7}` }]));
      const messages = layoutPrompt({ systemPrompt: 'You are a coding assistant.', pinned, history });
      let text = '';
      let usage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
      for await (const e of client.streamChat({ model: 'long-context-tools', messages, provider: { channel: 'stable' } })) {
        if (e.type === 'text') text += e.text;
        if (e.type === 'usage') usage = e.usage;
      }
      history.push({ role: 'assistant', content: text });
      withCache += costOf(usage, price);
      withoutCache += costOf({ ...usage, cachedTokens: 0 }, price);
      turns.push(`${turn}: ${usage.cachedTokens}/${usage.promptTokens}`);
    }
    results.push({
      name: 'prompt cache: 5 turns, 40K-token pinned file, long-context-tools on stable',
      figures: {
        'cached/prompt tokens per turn': turns.join(', '),
        'cost with cache (USD)': +withCache.toFixed(5),
        'cost if nothing were cached (USD)': +withoutCache.toFixed(5),
        'ratio': +(withCache / withoutCache).toFixed(3),
      },
    });
  } finally {
    await gw.close();
  }
  return results;
}
