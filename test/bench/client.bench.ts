// Client benchmarks: prompt caching across a conversation laid out by src/core/prompt/promptLayout,
// priced with the simulator's price card, with and without the cache.
import { createGatewayClient, costOf } from '../../src/core';
import { layoutPrompt, userMessage } from '../../src/core/prompt/promptLayout';
import type { ChatMessage } from '../../src/core/client/types';
import { startGateway, PRICE_CARD } from '../gateway';
import type { BenchResult } from './types';

// The client's overhead over reading the bytes alone is in sse.bench.ts (alternating rounds,
// with the openai SDK alongside); this suite keeps the prompt-cache economics.
export async function benchClient(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
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
        ratio: +(withCache / withoutCache).toFixed(3),
      },
    });
  } finally {
    await gw.close();
  }
  return results;
}
