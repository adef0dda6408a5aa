// The simulator's price card: the one place tests read to compute what a request should cost.
// Chat prices are USD per 1M tokens, per model and per channel. As in the interface's model table,
// only `long-context-tools` lists a cache-read price; `flagship-text` caches prompts but its
// card has input and output only, so its cached tokens are billed at the input price (the
// same rule as src/core/spend/cost.ts applies to an absent `cacheRead`). `reasoner` is priced
// the way DeepSeek prices its models: a cache hit at a tenth of a miss.
// Image prices are USD per image, by model, quality and size (channel-independent).
import type { Channel } from '../../src/core/client/types';
import type { SimImageSize } from './models';

export interface ChatPrice {
  input: number;
  output: number;
  cacheRead?: number;
}

export const PRICE_CARD = {
  chat: {
    'flagship-text': {
      direct: { input: 2.5, output: 10 },
      stable: { input: 2, output: 8 },
      economical: { input: 1.2, output: 4.8 },
    },
    'long-context-tools': {
      direct: { input: 1.25, output: 10, cacheRead: 0.3125 },
      stable: { input: 1, output: 8, cacheRead: 0.25 },
      economical: { input: 0.6, output: 4.8, cacheRead: 0.15 },
    },
    'small-window': {
      direct: { input: 0.5, output: 2, cacheRead: 0.05 },
      stable: { input: 0.4, output: 1.6, cacheRead: 0.04 },
      economical: { input: 0.2, output: 0.8, cacheRead: 0.02 },
    },
    reasoner: {
      direct: { input: 0.56, output: 1.68, cacheRead: 0.056 },
      stable: { input: 0.5, output: 1.5, cacheRead: 0.05 },
      economical: { input: 0.3, output: 0.9, cacheRead: 0.03 },
    },
  } as Record<string, Record<Channel, ChatPrice>>,
  image: {
    'image-restricted': {
      standard: { '1024x1024': 0.04, '1792x1024': 0.08, '1024x1792': 0.08 },
      hd: { '1024x1024': 0.08, '1792x1024': 0.12, '1024x1792': 0.12 },
    },
    'image-small': {
      standard: { '256x256': 0.016, '512x512': 0.018, '1024x1024': 0.02 },
    },
    'image-gateway-only': {
      standard: { '256x256': 0.016, '512x512': 0.018, '1024x1024': 0.02 },
    },
  } as Record<string, Partial<Record<'standard' | 'hd', Partial<Record<SimImageSize, number>>>>>,
} as const;

export interface SimUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

/** USD for one chat answer; cached tokens are part of prompt_tokens and billed once. `override`: a channel's changed price. */
export function chatCost(model: string, channel: Channel, usage: SimUsage, override?: ChatPrice): number {
  const price = override ?? PRICE_CARD.chat[model]?.[channel];
  if (!price) throw new Error(`no chat price for ${model} on ${channel}`);
  const cached = usage.prompt_tokens_details.cached_tokens;
  const uncached = usage.prompt_tokens - cached;
  return (uncached * price.input + cached * (price.cacheRead ?? price.input) + usage.completion_tokens * price.output) / 1_000_000;
}

/** USD for `n` images; undefined when the card has no entry (the request is invalid). */
export function imageCost(model: string, quality: 'standard' | 'hd', size: SimImageSize, n: number): number | undefined {
  const each = PRICE_CARD.image[model]?.[quality]?.[size];
  return each === undefined ? undefined : each * n;
}
