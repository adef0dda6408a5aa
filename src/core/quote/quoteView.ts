// The quote as the panel shows it: plain figures the host computed (no prices of other models, no
// text of the conversation), which the composer words in the user's language. Pure; the webview
// imports the type.
import type { Span } from './answerHistory';
import type { CacheReason } from './cachePrediction';
import type { Quote } from './quote';

export interface QuoteChannelView {
  channel: string;
  /** USD; absent: no price for the model on this channel */
  usd?: Span;
  /** share of the expected answer's prompt tokens read from the cache */
  cachedShare: number;
  /** the channel the next send goes to */
  current: boolean;
}

export interface QuoteView {
  /** which composer state it is for (the panel drops one older than what it shows) */
  seq: number;
  conversationId: string;
  model: string;
  channel: string;
  /** USD on the current channel; absent when it has no price */
  usd?: Span;
  /** the expected answer without any cache, USD */
  uncachedUsd?: number;
  /** the first request: its prompt tokens and the part expected from the cache */
  promptTokens: number;
  cachedTokens: number;
  cacheReason: CacheReason;
  /** ms since the conversation's previous request (for "sent 12 min ago") */
  gapMs?: number;
  /** share of the expected answer's prompt tokens read from the cache */
  cachedShare: number;
  /** completion tokens of the answer (its last request), and the requests it takes */
  output: Span;
  requests: Span;
  /** tools are offered, so the answer may take rounds */
  tools: boolean;
  /** what the answer's figures rest on */
  basis: 'conversation' | 'recent' | 'typical';
  samples: number;
  /** the model's maximum output capped the range */
  capped: boolean;
  /** 'estimate' or a tokenizer's name */
  rule: string;
  /** the count was scaled to what the gateway reported for earlier requests */
  calibrated: boolean;
  channels: QuoteChannelView[];
  /** the conversation's spending limit and what it has spent (USD) */
  envelope?: { limit: number; spent: number };
}

const share = (cached: number, prompt: number): number => (prompt > 0 ? Math.min(1, cached / prompt) : 0);

export function quoteViewOf(q: Quote, extra: { seq: number; conversationId: string; model: string; envelope?: { limit: number; spent: number } }): QuoteView {
  const s = q.selected;
  const v: QuoteView = {
    seq: extra.seq,
    conversationId: extra.conversationId,
    model: extra.model,
    channel: q.channel,
    promptTokens: s.promptTokens,
    cachedTokens: s.cached.likely,
    cacheReason: s.cached.reason,
    cachedShare: share(s.expectedTokens.cached, s.expectedTokens.prompt),
    output: roundSpan(q.answer.output),
    requests: q.answer.requests,
    tools: q.answer.requests.high > 1,
    basis: q.answer.basis,
    samples: q.answer.samples,
    capped: q.answer.capped,
    rule: q.rule,
    calibrated: Math.abs(q.ratio - 1) > 1e-9,
    channels: q.channels.map((c) => ({
      channel: c.channel,
      ...(c.usd ? { usd: c.usd } : {}),
      cachedShare: share(c.expectedTokens.cached, c.expectedTokens.prompt),
      current: c.channel === q.channel,
    })),
  };
  if (s.usd) v.usd = s.usd;
  if (s.uncachedUsd !== undefined) v.uncachedUsd = s.uncachedUsd;
  if (s.cached.gapMs !== undefined) v.gapMs = s.cached.gapMs;
  if (extra.envelope) v.envelope = extra.envelope;
  return v;
}

function roundSpan(s: Span): Span {
  return { low: Math.round(s.low), expected: Math.round(s.expected), high: Math.round(s.high) };
}

/** The cheapest priced channel other than the current one that costs less, for "Switch to a cheaper channel". */
export function cheaperChannel(v: Pick<QuoteView, 'channels' | 'usd'>): QuoteChannelView | undefined {
  const now = v.usd?.expected;
  let best: QuoteChannelView | undefined;
  for (const c of v.channels) {
    if (c.current || !c.usd || c.channel === 'default') continue;
    if (now !== undefined && c.usd.expected >= now) continue;
    if (!best || c.usd.expected < best.usd!.expected) best = c;
  }
  return best;
}
