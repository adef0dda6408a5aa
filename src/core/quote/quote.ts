// The quote of a send: what sending now will cost, as a range, on the chosen channel and on every
// other channel of the model. The first request is the prompt as it will be sent (counted with
// the model's tokenizer or the estimate, times what the gateway's reports say of that count), with
// the part the cache will serve predicted from the conversation's previous request; the answer is
// what this conversation's answers took; an agent answer is a series of requests, each resending
// the growing context. The range's low end takes the fewest requests, the shortest answer and the
// most the cache may serve; its high end the most requests this conversation took, the longest
// answer and the least from the cache. Pure.
import type { Price } from '../catalogue/modelCatalogue';
import type { AnswerExpectation, Span } from './answerHistory';
import { gatewayPromptTokens, predictCached, type CachedPart, type CacheFacts, type PreviousRequest } from './cachePrediction';
import type { CountedPrompt } from './promptCount';
import { requestCost, requestSeries, seriesCost } from './projection';

export interface QuoteInput {
  model: { id: string; caching: boolean };
  /** the chosen channel ('default' = the gateway picks) */
  channel: string;
  /** every channel to quote (the chosen one among them) */
  channels: readonly string[];
  price(channel: string): Price | undefined;
  /** the first request as it will be sent, counted */
  prompt: CountedPrompt;
  /** the gateway's tokens per counted token (the conversation's own, else the model's; 1 until the gateway reported one) */
  ratio: number;
  /** the conversation's previous request */
  previous?: PreviousRequest;
  /** what the gateway's reports taught about the model's cache on a channel */
  facts(channel: string): CacheFacts | undefined;
  answer: AnswerExpectation;
  now: number;
}

export interface ChannelQuote {
  channel: string;
  /** absent: no price is known for the model on this channel */
  price?: Price;
  /** USD, absent without a price */
  usd?: Span;
  /** USD of the expected answer if nothing came from the cache */
  uncachedUsd?: number;
  /** prompt tokens of the first request (the gateway's tokens) */
  promptTokens: number;
  /** the first request's cached part */
  cached: CachedPart;
  /** tokens of the expected answer: prompt (all requests), of which cached, and completion */
  expectedTokens: { prompt: number; cached: number; output: number };
}

export interface Quote {
  channel: string;
  /** the chosen channel's quote */
  selected: ChannelQuote;
  /** every channel's, in the order asked */
  channels: ChannelQuote[];
  /** the counting rule ('estimate', 'o200k_base', …) and its calibration */
  rule: string;
  ratio: number;
  answer: AnswerExpectation;
}

function channelQuote(i: QuoteInput, channel: string, prompt: number): ChannelQuote {
  const facts = i.facts(channel);
  const cached = predictCached({
    previous: i.previous,
    model: i.model.id,
    channel,
    next: i.prompt,
    ratio: i.ratio,
    facts,
    catalogueCaches: i.model.caching,
    now: i.now,
  });
  const a = i.answer;
  const base = { promptTokens: prompt, growth: a.growth, stepOutput: a.roundOutput, cache: facts };
  const expected = { ...base, cachedTokens: cached.likely, requests: a.requests.expected, lastOutput: a.output.expected, assumeCaching: i.model.caching };
  const low = { ...base, cachedTokens: cached.most, requests: a.requests.low, lastOutput: a.output.low, assumeCaching: true };
  const high = { ...base, cachedTokens: cached.least, requests: a.requests.high, lastOutput: a.output.high, assumeCaching: false };
  const plan = requestSeries(expected);
  const out: ChannelQuote = {
    channel,
    promptTokens: prompt,
    cached,
    expectedTokens: {
      prompt: plan.reduce((n, r) => n + r.promptTokens, 0),
      cached: plan.reduce((n, r) => n + r.cachedTokens, 0),
      output: plan.reduce((n, r) => n + r.outputTokens, 0),
    },
  };
  const price = i.price(channel);
  if (!price) return out;
  const e = seriesCost(expected, price);
  const l = seriesCost(low, price).usd;
  const h = seriesCost(high, price).usd;
  out.price = price;
  out.usd = { low: Math.min(l, e.usd), expected: e.usd, high: Math.max(h, e.usd) };
  out.uncachedUsd = e.uncachedUsd;
  return out;
}

export function quoteSend(i: QuoteInput): Quote {
  const channels = i.channels.includes(i.channel) ? [...i.channels] : [i.channel, ...i.channels];
  const prompt = gatewayPromptTokens(i.previous, i.model.id, i.prompt, i.ratio);
  const quotes = channels.map((c) => channelQuote(i, c, prompt));
  return {
    channel: i.channel,
    selected: quotes.find((q) => q.channel === i.channel)!,
    channels: quotes,
    rule: i.prompt.rule,
    ratio: i.ratio,
    answer: i.answer,
  };
}

/**
 * The quote of one request of an answer in progress (before a round goes out: the envelope's
 * check): its prompt as it stands, the cache from the request before, and the answer's output.
 * Returns USD at the high end (an envelope is never crossed without asking) and the expected.
 */
export function quoteNextRequest(i: { promptTokens: number; cachedTokens: number; output: Span; price: Price }): { expected: number; high: number } {
  const at = (output: number, cached: number) => requestCost({ promptTokens: i.promptTokens, cachedTokens: cached, outputTokens: output }, i.price);
  return { expected: at(i.output.expected, i.cachedTokens), high: at(i.output.high, i.cachedTokens) };
}
