// The quote's working state across sends: one counter per counting rule (its memo of texts is
// shared by every conversation), the last counted conversation per key (a keystroke counts only
// the composer's message on top of it), and what to learn when a request comes back (the prompt
// tokens the gateway billed against the count, the cache it reported against what was shared).
// The panel and the bench drive it the same way. Pure: the clock and the rules are given.
import type { Price } from '../catalogue/modelCatalogue';
import type { ChatMessage, ToolDefinition, Usage } from '../client/types';
import { expectAnswer, answerSample, type AnswerSample, type AnswerUsage } from './answerHistory';
import { conversationRatio, sharedWith, type CacheFacts, type CacheObservation, type PreviousRequest } from './cachePrediction';
import { PromptCounter, type CountedPrompt, type TokenRule } from './promptCount';
import { quoteSend, type Quote } from './quote';
import { learnAnswer, learnRequest, ratioFor, routeKey, type QuoteLearning } from './quoteLearning';

export interface QuoteModel {
  id: string;
  /** the catalogue says it caches prompts */
  caching: boolean;
  /** the most it answers (the request's max_tokens when one is set) */
  maxOutput: number;
}

export interface SendToQuote {
  model: QuoteModel;
  channel: string;
  channels: readonly string[];
  price(channel: string): Price | undefined;
  tools?: readonly ToolDefinition[];
  /** the request without the composer's message: system prompt, pins, history */
  base: () => ChatMessage[];
  /** identifies `base`: the same key, the same messages (a conversation's id and version) */
  baseKey: string;
  /** the composer's message as it would be sent */
  message?: ChatMessage;
  /** this conversation's answers, oldest first */
  answers: readonly AnswerUsage[];
  previous?: PreviousRequest;
  /** tools are offered, and the round limit */
  toolsOffered: boolean;
  maxRounds: number;
  now: number;
}

/** Bases kept counted (a few conversations switched between). */
const BASES = 4;

export class QuoteSession {
  private readonly counters = new Map<string, PromptCounter>();
  private readonly bases = new Map<string, CountedPrompt>();

  constructor(
    /** how a model's tokens are counted */
    private readonly ruleFor: (modelId: string) => TokenRule,
    public learning: QuoteLearning,
  ) {}

  counter(modelId: string): PromptCounter {
    const rule = this.ruleFor(modelId);
    let c = this.counters.get(rule.id);
    if (!c) {
      c = new PromptCounter(rule);
      this.counters.set(rule.id, c);
    }
    return c;
  }

  /** The request as it will be sent, counted: the base once per key, then the composer's message. */
  countSend(s: Pick<SendToQuote, 'model' | 'tools' | 'base' | 'baseKey' | 'message'>): CountedPrompt {
    const counter = this.counter(s.model.id);
    const key = `${counter.rule.id}\n${s.baseKey}`;
    let base = this.bases.get(key);
    if (!base) {
      base = counter.count(s.base(), s.tools);
      this.remember(key, base);
    }
    return s.message ? counter.extend(base, [s.message]) : base;
  }

  /**
   * Counts the conversation under `s.baseKey` in slices (awaiting `pause` between them) unless it
   * is counted already; `quote` is then a matter of the composer's message. A long conversation
   * counted the first time never holds the host in one task.
   */
  async prepare(s: Pick<SendToQuote, 'model' | 'tools' | 'base' | 'baseKey'>, pause: () => Promise<void>, now: () => number): Promise<void> {
    const counter = this.counter(s.model.id);
    const key = `${counter.rule.id}\n${s.baseKey}`;
    if (this.bases.has(key)) return;
    this.remember(key, await counter.countInSlices(s.base(), s.tools, pause, now));
  }

  private remember(key: string, base: CountedPrompt): void {
    this.bases.delete(key);
    this.bases.set(key, base);
    if (this.bases.size > BASES) this.bases.delete(this.bases.keys().next().value as string);
  }

  /** The quote of sending now. */
  quote(s: SendToQuote): Quote {
    const prompt = this.countSend(s);
    const here = s.answers
      .filter((a) => a.model === s.model.id)
      .map(answerSample)
      .filter((x): x is AnswerSample => !!x);
    const recent = this.learning.recent[s.model.id] ?? [];
    const answer = expectAnswer(here, recent, { tools: s.toolsOffered, maxOutput: s.model.maxOutput, maxRounds: s.maxRounds });
    return quoteSend({
      model: s.model,
      channel: s.channel,
      channels: s.channels,
      price: s.price,
      prompt,
      ratio: conversationRatio(s.previous, s.model.id, prompt.rule, ratioFor(this.learning, s.model.id, prompt.rule)),
      ...(s.previous ? { previous: s.previous } : {}),
      facts: (channel) => this.facts(s.model.id, channel),
      answer,
      now: s.now,
    });
  }

  /**
   * What the gateway's reports taught about the model's cache on `channel`; for a channel not used
   * yet, what was learned on the model's other channels (the model's provider decides how it caches).
   */
  facts(model: string, channel: string): CacheFacts | undefined {
    const own = this.learning.routes[routeKey(model, channel)];
    if (own && own.hits + own.misses > 0) return own;
    let best: CacheFacts | undefined;
    for (const [key, f] of Object.entries(this.learning.routes)) {
      if (key.startsWith(`${model}\n`) && f.hits > (best?.hits ?? 0)) best = f;
    }
    return best ?? own;
  }

  /**
   * A request came back with usage: learn from it, and return what the next request of the
   * conversation compares with. `previous`: the request before it in the conversation.
   */
  requestDone(r: {
    model: string;
    channel: string;
    messages: readonly ChatMessage[];
    tools?: readonly ToolDefinition[];
    at: number;
    usage: Usage;
    previous?: PreviousRequest;
  }): PreviousRequest {
    const counter = this.counter(r.model);
    const counted = counter.count(r.messages, r.tools);
    const ratio = conversationRatio(r.previous, r.model, counted.rule, ratioFor(this.learning, r.model, counted.rule));
    let cache: CacheObservation | undefined;
    const p = r.previous;
    if (p && p.model === r.model && p.channel === r.channel) {
      const { shared, answer } = sharedWith(p, counted, ratio);
      cache = { gapMs: Math.max(0, r.at - p.at), sharedTokens: shared, sharedWithOutputTokens: shared + answer, cachedTokens: r.usage.cachedTokens };
    }
    this.learning = learnRequest(this.learning, {
      model: r.model,
      channel: r.channel,
      rule: counted.rule,
      counted: counted.tokens,
      promptTokens: r.usage.promptTokens,
      ...(cache ? { cache } : {}),
    });
    return { model: r.model, channel: r.channel, at: r.at, fingerprint: counted, promptTokens: r.usage.promptTokens };
  }

  /** An answer ended: it joins the model's recent answers. */
  answerDone(a: AnswerUsage): void {
    this.learning = learnAnswer(this.learning, a);
  }
}
