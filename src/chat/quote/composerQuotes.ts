// The quote in the composer: what sending now would cost, recomputed when the composer's state
// or the draft changes (the draft reaches the host debounced by the panel), never in the message
// handler itself: a timer runs it, a conversation counted for the first time is counted in slices,
// and a keystroke counts only the composer's message (src/core/quote/quoteSession.ts). It also
// keeps what the quote learns from each request the gateway answers (the prompt tokens it billed
// against the count, the cache it reported), in globalState, figures only.
import * as vscode from 'vscode';
import { CHANNELS } from '../../core/client/types';
import type { ChannelChoice } from '../../core/catalogue/modelCatalogue';
import type { ChatMessage, ToolDefinition, Usage } from '../../core/client/types';
import { userMessage } from '../../core/prompt/promptLayout';
import type { AnswerUsage, RequestUsage, Span } from '../../core/quote/answerHistory';
import type { CacheFacts, PreviousRequest } from '../../core/quote/cachePrediction';
import type { TokenRule } from '../../core/quote/promptCount';
import { emptyLearning, parseLearning } from '../../core/quote/quoteLearning';
import { QuoteSession, type SendToQuote } from '../../core/quote/quoteSession';
import { quoteNextRequest } from '../../core/quote/quote';
import { quoteViewOf, type QuoteView } from '../../core/quote/quoteView';
import type { ChatScope } from '../chatScope';
import { requestMessages, nextMessageContext } from '../context/turnContext';
import { wireHistory, type AssistantRecord, type Conversation } from '../conversations/conversationTranscript';
import { envelopeOf } from './envelopeLimit';

/** globalState key of what the quote learned (figures only: token counts, ms, model and channel ids) */
export const QUOTE_LEARNING_KEY = 'modelgate.quoteLearning';

/** The channels a quote shows besides the chosen one. */
const QUOTED_CHANNELS: readonly ChannelChoice[] = CHANNELS;

export class ComposerQuotes implements vscode.Disposable {
  readonly #session: QuoteSession;
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** the last quote posted, per conversation (tests, and the envelope's menu) */
  readonly #last = new Map<string, QuoteView>();

  constructor(
    private readonly scope: ChatScope,
    /** the draft of the active conversation as the panel last sent it */
    private readonly busy: (conversationId: string) => boolean,
    /**
     * How a model's prompt is counted. The tokenizers belong to the lm feature, which the chat may
     * not import: whoever builds the chat (src/featureLoading/) passes them in.
     */
    tokenRuleFor: (modelId: string) => TokenRule,
  ) {
    const state = scope.services.context.globalState;
    this.#session = new QuoteSession((id) => tokenRuleFor(id), parseLearning(state.get(QUOTE_LEARNING_KEY)));
  }

  /** The quote last posted for conversation `id`. */
  last(id: string): QuoteView | undefined {
    return this.#last.get(id);
  }

  /** Sets (or, with undefined, removes) the active conversation's own spending limit (USD); the quote follows. */
  async setEnvelope(usd: number | undefined): Promise<void> {
    const c = this.scope.store().active;
    if (usd === undefined) delete c.envelope;
    else c.envelope = usd;
    this.scope.store().changed(c);
    await this.refresh();
  }

  /** Something the quote depends on changed (composer, draft, settings): recompute soon, off this task. */
  schedule(delayMs = 30): void {
    if (this.scope.closing) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.refresh();
    }, delayMs);
  }

  /** Resolves once no quote is scheduled or being computed (what a test waits for before it checks that nothing more is posted). */
  async whenSettled(): Promise<void> {
    while (this.#timer || this.#running) {
      if (this.#running) await this.#running;
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Recomputes the active conversation's quote and posts it (one at a time; a change meanwhile runs it again). */
  async refresh(): Promise<QuoteView | undefined> {
    if (this.#running) {
      this.#again = true;
      await this.#running;
      return this.#last.get(this.#activeId() ?? '');
    }
    let result: QuoteView | undefined;
    this.#running = (async () => {
      do {
        this.#again = false;
        result = await this.#compute().catch((err: unknown) => {
          this.scope.services.log.warn(`Chat quote: ${err instanceof Error ? err.message : String(err)}`);
          return undefined;
        });
      } while (this.#again);
    })();
    try {
      await this.#running;
    } finally {
      this.#running = undefined;
    }
    return result;
  }

  #activeId(): string | undefined {
    try {
      return this.scope.store().active.id;
    } catch {
      return undefined;
    }
  }

  /** The send as the quote sees it: what `c` would send now on the current settings. */
  #send(c: Conversation): SendToQuote {
    const { services } = this.scope;
    const s = services.settings();
    const info = this.scope.modelInfo(s.chatModel);
    const offer = this.scope.toolsFor(info, c.id);
    const tools = offer.tools;
    const rules = this.scope.rules.inUse(c.id);
    const { contexts, images } = nextMessageContext(c);
    const catalogue = services.catalogue();
    const maxOutput = info.params?.maxOutputTokens ? Math.min(info.params.maxOutputTokens, info.maxOutput) : info.maxOutput;
    const last = c.messages.at(-1);
    const signature = [
      c.id,
      s.chatModel,
      c.messages.length,
      last?.id ?? '',
      last?.role === 'assistant' ? last.status : '',
      c.pinned.map((p) => `${p.id}:${p.content.length}:${p.after ?? ''}`).join(','),
      rules.map((r) => `${r.path}:${r.content.length}`).join(','),
      tools?.map((t) => t.function.name).join(',') ?? '',
    ].join('|');
    return {
      model: { id: info.id, caching: info.caching, maxOutput },
      channel: s.channel,
      channels: QUOTED_CHANNELS,
      price: (channel) => catalogue.price(info.id, channel as ChannelChoice),
      ...(tools ? { tools } : {}),
      base: () => requestMessages(c, tools, rules, wireHistory(c)),
      baseKey: signature,
      message: userMessage(c.draft, contexts, images),
      answers: answersOf(c),
      ...(previousOf(c) ? { previous: previousOf(c)! } : {}),
      toolsOffered: !!tools?.length,
      maxRounds: s.maxToolRounds,
      now: Date.now(),
    };
  }

  async #compute(): Promise<QuoteView | undefined> {
    const c = (() => {
      try {
        return this.scope.store().active;
      } catch {
        return undefined;
      }
    })();
    if (!c || this.scope.closing) return undefined;
    if (this.busy(c.id)) return undefined; // the next send's quote comes when the answer ends
    const send = this.#send(c);
    await this.#session.prepare(
      send,
      () => new Promise((r) => setTimeout(r, 0)),
      () => performance.now(),
    );
    if (this.scope.closing || this.#activeId() !== c.id) return undefined;
    const seq = ++this.#seq;
    const envelope = envelopeOf(this.scope.services, c);
    const view = quoteViewOf(this.#session.quote(send), {
      seq,
      conversationId: c.id,
      model: send.model.id,
      ...(envelope !== undefined ? { envelope: { limit: envelope, spent: c.totalCost ?? 0 } } : {}),
    });
    this.#last.set(c.id, view);
    this.scope.out.postFor(c, { type: 'quote', quote: view });
    return view;
  }

  // ---------- what an answer's requests teach ----------

  /**
   * A request of an answer came back with usage: records it on the answer, learns from it, and
   * remembers it as the conversation's previous request (what the next one's cache is compared with).
   */
  requestDone(
    c: Conversation,
    record: AssistantRecord,
    r: { channel: ChannelChoice; messages: readonly ChatMessage[]; tools?: readonly ToolDefinition[]; at: number; usage: Usage; calls: boolean },
  ): void {
    const previous = previousOf(c);
    const next = this.#session.requestDone({
      model: record.model,
      channel: r.channel,
      messages: r.messages,
      ...(r.tools ? { tools: r.tools } : {}),
      at: r.at,
      usage: r.usage,
      ...(previous ? { previous } : {}),
    });
    c.lastRequest = next;
    const entry: RequestUsage = {
      at: r.at,
      channel: r.channel,
      promptTokens: r.usage.promptTokens,
      cachedTokens: r.usage.cachedTokens,
      completionTokens: r.usage.completionTokens,
      counted: next.fingerprint.tokens,
    };
    if (r.usage.reasoningTokens) entry.reasoningTokens = r.usage.reasoningTokens;
    if (r.calls) entry.calls = true;
    (record.requests ??= []).push(entry);
    this.#saveSoon();
  }

  /** An answer ended: it joins the model's recent answers. */
  answerDone(record: AssistantRecord, tools: boolean): void {
    if (!record.requests?.length) return;
    this.#session.answerDone({ model: record.model, tools, requests: record.requests });
    this.#saveSoon();
  }

  /**
   * What the next request of an answer in progress may cost (the envelope's check): its prompt as
   * it stands, the cache of the request before, the answer's output at its high end.
   */
  nextRequest(
    c: Conversation,
    record: AssistantRecord,
    model: string,
    channel: ChannelChoice,
    messages: readonly ChatMessage[],
    tools: readonly ToolDefinition[] | undefined,
  ): { high: number; expected: number; rest: number } | undefined {
    const s = this.scope.services.settings();
    const info = this.scope.modelInfo(model);
    const price = this.scope.services.catalogue().price(model, channel);
    if (!price) return undefined;
    const send: SendToQuote = {
      model: { id: model, caching: info.caching, maxOutput: info.maxOutput },
      channel,
      channels: [channel],
      price: () => price,
      ...(tools ? { tools } : {}),
      base: () => [...messages],
      baseKey: `next:${c.id}:${record.id}:${messages.length}`,
      answers: answersOf(c).filter((a) => a !== undefined),
      ...(previousOf(c) ? { previous: previousOf(c)! } : {}),
      toolsOffered: !!tools?.length,
      maxRounds: s.maxToolRounds,
      now: Date.now(),
    };
    const quote = this.#session.quote(send);
    const q = quote.selected;
    const output: Span = q.expectedTokens ? quote.answer.output : { low: 0, expected: 0, high: 0 };
    const one = quoteNextRequest({ promptTokens: q.promptTokens, cachedTokens: q.cached.likely, output, price });
    const done = record.requests?.length ?? 0;
    const left = Math.max(0, quote.answer.requests.high - done - 1);
    return { ...one, rest: left * one.high };
  }

  /**
   * What the cache is expected to serve of `messages` sent now on `channel` (the quote's
   * prediction from the conversation's previous request), what the route taught about its cache,
   * and the completion tokens an answer of this conversation takes: the price rule's figures.
   */
  cacheOutlook(
    c: Conversation,
    model: string,
    channel: ChannelChoice,
    messages: readonly ChatMessage[],
    tools: readonly ToolDefinition[] | undefined,
  ): { cachedTokens: number; facts?: CacheFacts; caching: boolean; outputTokens: number } {
    const info = this.scope.modelInfo(model);
    const send: SendToQuote = {
      model: { id: model, caching: info.caching, maxOutput: info.maxOutput },
      channel,
      channels: [channel],
      price: (ch) => this.scope.services.catalogue().price(model, ch as ChannelChoice),
      ...(tools ? { tools } : {}),
      base: () => [...messages],
      baseKey: `outlook:${c.id}:${c.messages.length}:${messages.length}`,
      answers: answersOf(c),
      ...(previousOf(c) ? { previous: previousOf(c)! } : {}),
      toolsOffered: !!tools?.length,
      maxRounds: this.scope.services.settings().maxToolRounds,
      now: Date.now(),
    };
    const quote = this.#session.quote(send);
    const facts = this.#session.facts(model, channel);
    return { cachedTokens: quote.selected.cached.likely, ...(facts ? { facts } : {}), caching: info.caching, outputTokens: quote.answer.output.expected };
  }

  #saveSoon(): void {
    if (this.#saveTimer) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      void this.scope.services.context.globalState.update(QUOTE_LEARNING_KEY, this.#session.learning);
    }, 500);
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#saveTimer) {
      clearTimeout(this.#saveTimer);
      void this.scope.services.context.globalState.update(QUOTE_LEARNING_KEY, this.#session.learning);
    }
  }
}

/** The conversation's answers with their requests, oldest first. */
function answersOf(c: Conversation): AnswerUsage[] {
  const out: AnswerUsage[] = [];
  for (const m of c.messages) if (m.role === 'assistant' && m.requests?.length) out.push({ model: m.model, tools: !!m.tools, requests: m.requests });
  return out;
}

function previousOf(c: Conversation): PreviousRequest | undefined {
  return c.lastRequest;
}

export { emptyLearning };
