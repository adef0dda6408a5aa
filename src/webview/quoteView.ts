// The quote next to Send: "≈ $0.012–0.019", what sending now will cost on the chosen model and
// channel. Its title says the same in a sentence or two; a click opens the details above the
// composer's bar: every channel of the model, the cached and uncached split, the assumptions
// (what the answer's length and its tool rounds rest on, how the tokens were counted, why the
// cache is or is not expected) and the conversation's spending limit, with the action that sets
// it. Every figure comes from the host (src/core/quote); this only words them. Text only.
import type { QuoteView, WebviewMessage } from '../chat/protocol';
import { quoteRange, sharePercent } from '../core/quote/quoteFormat';
import { h, clear } from './dom';
import { formatInt, formatUsd } from './format';
import { l10n } from './panelL10n';

export interface QuoteCallbacks {
  post(message: WebviewMessage): void;
}

/** "12 s", "4 min", "2 h" */
function since(ms: number): string {
  if (ms < 60_000) return l10n.t('{0} s', Math.max(1, Math.round(ms / 1000)));
  if (ms < 3_600_000) return l10n.t('{0} min', Math.round(ms / 60_000));
  return l10n.t('{0} h', Math.round(ms / 3_600_000));
}

/** The channel's name as the model chip says it. */
function channelName(channel: string): string {
  switch (channel) {
    case 'default':
      return l10n.t('the default channel');
    case 'direct':
      return l10n.t('direct');
    case 'stable':
      return l10n.t('stable');
    case 'economical':
      return l10n.t('economical');
    default:
      return channel;
  }
}

/** The compact figure: "≈ $0.012–0.019", or "no price". */
export function quoteText(v: QuoteView): string {
  return v.usd ? l10n.t('≈ {0}', quoteRange(v.usd.low, v.usd.high)) : l10n.t('no price');
}

export function cacheLine(v: QuoteView): string {
  const ago = v.gapMs !== undefined ? since(v.gapMs) : '';
  switch (v.cacheReason) {
    case 'warm':
      return l10n.t('Cache: {0} of {1} prompt tokens from the previous request (sent {2} ago).', formatInt(v.cachedTokens), formatInt(v.promptTokens), ago);
    case 'maybe':
      return l10n.t('Cache: not counted on; the previous request was {0} ago and the cache may have expired (the lower figure assumes it has not).', ago);
    case 'expired':
      return l10n.t('Cache: expired; the previous request was {0} ago.', ago);
    case 'switch':
      return l10n.t('Cache: none. Caches are kept per model and channel, and the previous request went elsewhere.');
    case 'first':
      return l10n.t('Cache: none yet; this is the first request of the conversation.');
    case 'changed':
      return l10n.t('Cache: none. The start of the prompt changed (system prompt, rules files or tools).');
    case 'short':
      return l10n.t('Cache: none. What the requests share is shorter than a cache takes.');
    case 'noCache':
      return l10n.t('Cache: none. The gateway did not report cached tokens for this model and channel.');
  }
}

export function answerLine(v: QuoteView): string {
  const range = `${formatInt(v.output.low)}–${formatInt(v.output.high)}`;
  const base =
    v.basis === 'conversation'
      ? v.samples === 1
        ? l10n.t("Answer: {0} tokens, from this conversation's last answer on {1}.", range, v.model)
        : l10n.t("Answer: {0} tokens, from this conversation's last {1} answers on {2}.", range, v.samples, v.model)
      : v.basis === 'recent'
        ? l10n.t('Answer: {0} tokens, from your recent answers on {1} in other conversations.', range, v.model)
        : l10n.t('Answer: {0} tokens, a typical answer (no earlier answer on {1}).', range, v.model);
  return v.capped ? `${base} ${l10n.t("The model's maximum output caps it.")}` : base;
}

export function roundsLine(v: QuoteView): string | undefined {
  if (!v.tools) return undefined;
  return l10n.t(
    'Tool rounds: {0} to {1} requests (about {2}), each sending the conversation so far again.',
    v.requests.low,
    v.requests.high,
    v.requests.expected,
  );
}

export function countLine(v: QuoteView): string {
  if (v.rule === 'estimate') {
    return v.calibrated
      ? l10n.t("Tokens: estimated, then scaled to the gateway's own counts of earlier requests.")
      : l10n.t('Tokens: estimated (about four characters per token) until the gateway reports a count.');
  }
  return v.calibrated
    ? l10n.t("Tokens: counted with the {0} tokenizer, scaled to the gateway's own counts.", v.rule)
    : l10n.t('Tokens: counted with the {0} tokenizer.', v.rule);
}

/** One sentence for the title (hover). */
export function quoteTitle(v: QuoteView): string {
  if (!v.usd)
    return l10n.t('No price is known for {0} on {1}: set one in the setting modelgate.models. Click for the details.', v.model, channelName(v.channel));
  return l10n.t(
    'Sending now on {0}: about {1} (most likely {2}); {3} of the prompt from the cache. Click for every channel and the assumptions.',
    channelName(v.channel),
    quoteRange(v.usd.low, v.usd.high),
    formatUsd(v.usd.expected),
    sharePercent(v.cachedShare),
  );
}

export class QuoteBadge {
  readonly element: HTMLElement;
  readonly button: HTMLButtonElement;
  readonly details: HTMLElement;
  private view: QuoteView | undefined;

  constructor(
    private readonly doc: Document,
    private readonly callbacks: QuoteCallbacks,
  ) {
    this.button = h(doc, 'button', {
      className: 'quote-button',
      attrs: { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'quote-details' },
      on: {
        click: () => this.toggle(),
        keydown: (e) => {
          if (e.key === 'Escape' && !this.details.hidden) {
            e.stopPropagation(); // closes the details, does not stop an answer
            this.close(true);
          }
        },
      },
    });
    this.details = h(doc, 'div', {
      className: 'quote-details',
      attrs: { id: 'quote-details', role: 'region', 'aria-label': l10n.t('What sending now will cost') },
      on: {
        keydown: (e) => {
          if (e.key !== 'Escape') return;
          e.stopPropagation();
          this.close(true);
        },
      },
    });
    this.details.hidden = true;
    this.element = h(doc, 'div', { className: 'quote' }, [this.button]);
    this.element.hidden = true;
  }

  get current(): QuoteView | undefined {
    return this.view;
  }

  /** Shows a quote (undefined hides it: nothing to send, or no quote for this state). */
  set(view: QuoteView | undefined): void {
    if (view && this.view && view.conversationId === this.view.conversationId && view.seq < this.view.seq) return;
    this.view = view;
    this.element.hidden = !view;
    if (!view) {
      this.close(false);
      return;
    }
    this.button.textContent = quoteText(view);
    this.button.title = quoteTitle(view);
    this.button.setAttribute('aria-label', quoteTitle(view));
    this.button.classList.toggle('unpriced', !view.usd);
    if (!this.details.hidden) this.renderDetails(view);
  }

  toggle(): void {
    if (this.details.hidden) this.open();
    else this.close(true);
  }

  open(): void {
    if (!this.view) return;
    this.renderDetails(this.view);
    this.details.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
  }

  close(focusButton: boolean): void {
    if (this.details.hidden) return;
    this.details.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    if (focusButton) this.button.focus();
  }

  private renderDetails(v: QuoteView): void {
    const doc = this.doc;
    clear(this.details);
    const line = (text: string, cls = 'quote-line') => h(doc, 'div', { className: cls, text });
    const head = v.usd
      ? l10n.t('On {0}: about {1}, most likely {2}.', channelName(v.channel), quoteRange(v.usd.low, v.usd.high), formatUsd(v.usd.expected))
      : l10n.t('No price is known for {0} on {1}.', v.model, channelName(v.channel));
    this.details.append(line(head, 'quote-line quote-head'));
    if (v.usd && v.uncachedUsd !== undefined && v.uncachedUsd > v.usd.expected * 1.005) {
      this.details.append(line(l10n.t('{0} of the prompt from the cache; without it, about {1}.', sharePercent(v.cachedShare), formatUsd(v.uncachedUsd))));
    }
    this.details.append(line(cacheLine(v)), line(answerLine(v)));
    const rounds = roundsLine(v);
    if (rounds) this.details.append(line(rounds));
    this.details.append(line(countLine(v)));
    // short cells, so the table fits the default 290 px side bar: the channel this send goes to is the bold row
    const rows = v.channels.map((c) =>
      h(
        doc,
        'tr',
        { className: c.current ? 'current' : '', attrs: c.current ? { 'aria-current': 'true', title: l10n.t('This send goes to this channel') } : {} },
        [
          h(doc, 'th', { text: c.channel === 'default' ? l10n.t('default') : channelName(c.channel), attrs: { scope: 'row' } }),
          h(doc, 'td', { text: c.usd ? quoteRange(c.usd.low, c.usd.high) : l10n.t('no price') }),
          h(doc, 'td', { text: c.usd ? sharePercent(c.cachedShare) : '' }),
        ],
      ),
    );
    const columns = h(doc, 'tr', {}, [
      h(doc, 'th', { text: l10n.t('Channel'), attrs: { scope: 'col' } }),
      h(doc, 'th', { text: l10n.t('Cost'), attrs: { scope: 'col' } }),
      h(doc, 'th', { text: l10n.t('Cached'), attrs: { scope: 'col' } }),
    ]);
    this.details.append(
      h(doc, 'table', { className: 'quote-channels', attrs: { 'aria-label': l10n.t('Every channel of {0}', v.model) } }, [
        h(doc, 'thead', {}, [columns]),
        h(doc, 'tbody', {}, rows),
      ]),
    );
    const envelope = v.envelope
      ? l10n.t('This conversation: {0} spent of its {1} limit.', formatUsd(v.envelope.spent), formatUsd(v.envelope.limit))
      : l10n.t('This conversation has no spending limit.');
    this.details.append(
      h(doc, 'div', { className: 'quote-envelope' }, [
        h(doc, 'span', { text: envelope }),
        h(doc, 'button', {
          className: 'link-button',
          text: v.envelope ? l10n.t('Change Limit…') : l10n.t('Set a Spending Limit…'),
          attrs: { type: 'button' },
          on: { click: () => this.callbacks.post({ type: 'setEnvelope' }) },
        }),
      ]),
    );
  }
}
