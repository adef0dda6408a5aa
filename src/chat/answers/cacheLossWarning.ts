// Warns, in the panel, when the model or channel changes in the middle of a conversation: the
// gateway's prompt cache is kept per model and channel, so the next turn sends the whole
// conversation uncached (field notes: 3-5x the cost seen elsewhere). Once per conversation per
// change; nothing on an empty conversation. The message itself is pure (unit-tested).
import type { ChannelChoice, Price } from '../../core/catalogue/modelCatalogue';
import { formatUsd } from '../../core/spend/cost';
import { layoutPrompt } from '../../core/prompt/promptLayout';
import { estimateRequestTokens } from '../../core/prompt/tokens';
import type { ChatScope } from '../chatScope';
import { SYSTEM_PROMPT } from '../context/systemPrompt';
import { wireHistory, type Conversation } from '../conversations/conversationTranscript';
import { pinnedFor } from '../context/turnContext';

export interface Route {
  model: string;
  /** a ChannelChoice; a stored answer's channel is a plain string */
  channel: string;
}

/** The model and channel the conversation's cache is on: those of its last answer. */
export function cachedRoute(c: Conversation): Route | undefined {
  for (let i = c.messages.length - 1; i >= 0; i--) {
    const m = c.messages[i]!;
    if (m.role === 'assistant') return { model: m.model, channel: m.channel };
  }
  return undefined;
}

const routeText = (r: Route) => (r.channel === 'default' ? r.model : `${r.model} (${r.channel} channel)`);
const tokensText = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}K` : n.toLocaleString('en-US'));

/**
 * The notice for moving `c` from the route of its last answer to `to`, or undefined when nothing
 * is lost (same route, or no answer yet). `tokens` is the size of the conversation's prompt.
 */
export function cacheLossMessage(c: Conversation, to: Route, tokens: number, price: (r: Route) => Price | undefined): string | undefined {
  const from = cachedRoute(c);
  if (!from || (from.model === to.model && from.channel === to.channel)) return undefined;
  const newPrice = price(to);
  const oldPrice = price(from);
  const uncached = newPrice ? formatUsd((tokens * newPrice.input) / 1_000_000) : undefined;
  const cached = oldPrice ? formatUsd((tokens * (oldPrice.cacheRead ?? oldPrice.input)) / 1_000_000) : undefined;
  const cost = uncached
    ? `about ${uncached} for the prompt${cached ? ` (about ${cached} with the cache on ${routeText(from)})` : ''}`
    : `cost unknown (no price is configured for ${routeText(to)})`;
  return (
    `Switched from ${routeText(from)} to ${routeText(to)}: this conversation's prompt cache does not carry over, ` +
    `so the next turn sends about ${tokensText(tokens)} tokens uncached, ${cost}. Switch back to keep the cache, or start a new chat.`
  );
}

/** Watches the settings and posts the notice for the active conversation; dispose to stop. */
export class CacheLossNotices {
  readonly #warned = new Set<string>();
  readonly #subscription: { dispose(): void };

  constructor(private readonly scope: ChatScope) {
    this.#subscription = scope.services.onDidChangeSettings(() => this.check());
  }

  /** Posts the notice when the current settings move the active conversation off its cache. */
  check(): void {
    if (this.scope.closing) return;
    let c: Conversation;
    try {
      c = this.scope.store().active;
    } catch {
      return; // history not loaded yet
    }
    const s = this.scope.services.settings();
    const to: Route = { model: s.chatModel, channel: s.channel };
    const from = cachedRoute(c);
    if (!from) return;
    const key = `${c.id}\n${from.model}\n${from.channel}\n${to.model}\n${to.channel}`;
    if (this.#warned.has(key)) return;
    const info = this.scope.modelInfo(to.model);
    const messages = layoutPrompt({ systemPrompt: SYSTEM_PROMPT, pinned: pinnedFor(c), history: wireHistory(c) });
    const tokens = estimateRequestTokens(messages, this.scope.toolsFor(info).tools);
    const catalogue = this.scope.services.catalogue();
    const message = cacheLossMessage(c, to, tokens, (r) => catalogue.price(r.model, r.channel as ChannelChoice));
    if (!message) return;
    this.#warned.add(key);
    this.scope.out.notice('info', message);
  }

  dispose(): void {
    this.#subscription.dispose();
  }
}
