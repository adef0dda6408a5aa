// Warns, in the panel, when the model or channel changes in the middle of a conversation: the
// gateway's prompt cache is kept per model and channel, so the next turn sends the whole
// conversation uncached (3-5x the cost where the upstream changed each turn, cline/cline#10596). Once per conversation per
// change; nothing on an empty conversation or when the old route has no cache price. The message itself is pure (unit-tested).
import type { ChannelChoice, Price } from '../../core/catalogue/modelCatalogue';
import { l10n } from '../../core/l10n';
import { formatUsd } from '../../core/spend/cost';
import { estimateRequestTokens } from '../../core/prompt/tokens';
import type { ChatScope } from '../chatScope';
import { type AssistantRecord, type Conversation, type MessageRecord } from '../conversations/conversationTranscript';
import { requestMessages } from '../context/turnContext';

export interface Route {
  model: string;
  /** a ChannelChoice; a stored answer's channel is a plain string */
  channel: string;
}

/**
 * An answer that put its prompt in its route's cache: the gateway reported its usage (prompt
 * tokens). One that failed (401, 5xx) or was stopped before the usage came built none.
 */
export const builtCache = (m: MessageRecord): m is AssistantRecord => m.role === 'assistant' && (m.usage?.promptTokens ?? 0) > 0;

/**
 * The model and channel the conversation's cache is on: those of its last answer that built one
 * (`except`: an answer id not to count, the one in progress). Undefined: no cache anywhere.
 */
export function cachedRoute(c: Conversation, except?: string): Route | undefined {
  for (let i = c.messages.length - 1; i >= 0; i--) {
    const m = c.messages[i]!;
    if (m.id !== except && builtCache(m)) return { model: m.model, channel: m.channel };
  }
  return undefined;
}

/** The two routes named once each: the model once when it stays, the channel once when it stays. */
function switchText(from: Route, to: Route): string {
  const channel = (ch: string) => (ch === 'default' ? l10n.t('the default channel') : l10n.t('the {0} channel', ch));
  if (from.model === to.model) return l10n.t('Switched {0} from {1} to {2}', to.model, channel(from.channel), channel(to.channel));
  if (from.channel === to.channel) {
    return from.channel === 'default'
      ? l10n.t('Switched from {0} to {1}', from.model, to.model)
      : l10n.t('Switched from {0} to {1} on {2}', from.model, to.model, channel(to.channel));
  }
  return l10n.t('Switched from {0} on {1} to {2} on {3}', from.model, channel(from.channel), to.model, channel(to.channel));
}
const tokensText = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}K` : n.toLocaleString('en-US'));

/**
 * The notice for moving `c` from the route of its last answer to `to`, or undefined when nothing
 * is lost: same route, no answer yet (no cache was built), or an old route without a cache price
 * (its cached prompt costs what an uncached one does, as far as Modelgate knows). `tokens` is the
 * size of the conversation's prompt. Like with like: the whole prompt cached on the old route
 * (its own cache price) against the whole prompt uncached on the new one (its input price);
 * switching back is advised only when that is cheaper.
 */
export function cacheLossMessage(c: Conversation, to: Route, tokens: number, price: (r: Route) => Price | undefined): string | undefined {
  const from = cachedRoute(c);
  if (!from || (from.model === to.model && from.channel === to.channel)) return undefined;
  const cacheRead = price(from)?.cacheRead;
  if (cacheRead === undefined) return undefined;
  const newPrice = price(to);
  const cachedUsd = (tokens * cacheRead) / 1_000_000;
  const head = l10n.t(
    "{0}: this conversation's prompt cache does not carry over, so the next turn sends about {1} tokens uncached",
    switchText(from, to),
    tokensText(tokens),
  );
  if (!newPrice) {
    return `${head}, ${l10n.t('cost unknown (no price is configured for {0}); with the cache it was about {1}.', to.model, formatUsd(cachedUsd))}`;
  }
  const uncachedUsd = (tokens * newPrice.input) / 1_000_000;
  if (uncachedUsd <= cachedUsd) {
    return `${head}: ${l10n.t('about {0}, no more than about {1} with the cache before the switch.', formatUsd(uncachedUsd), formatUsd(cachedUsd))}`;
  }
  return `${head}: ${l10n.t('about {0}, against about {1} with the cache before the switch. Switch back to keep the cache, or start a new chat.', formatUsd(uncachedUsd), formatUsd(cachedUsd))}`;
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
    if (from.model === to.model && from.channel === to.channel) {
      // back on the route of the cache: a notice about leaving it is no longer true (the same
      // change again is not advised twice: #warned keeps it)
      this.scope.out.resolved('cache');
      return;
    }
    const key = `${c.id}\n${from.model}\n${from.channel}\n${to.model}\n${to.channel}`;
    if (this.#warned.has(key)) return;
    const info = this.scope.modelInfo(to.model);
    const tools = this.scope.toolsFor(info, c.id).tools;
    const tokens = estimateRequestTokens(requestMessages(c, tools, this.scope.rules.inUse(c.id)), tools);
    const catalogue = this.scope.services.catalogue();
    const message = cacheLossMessage(c, to, tokens, (r) => catalogue.price(r.model, r.channel as ChannelChoice));
    if (!message) return;
    this.#warned.add(key);
    this.scope.out.notice('info', message, undefined, { topic: 'cache' });
  }

  dispose(): void {
    this.#subscription.dispose();
  }
}
