// The composer's context meter: the share of the model's context window the next request uses,
// as a labelled meter ("12%" at any width, " of 1M tokens" where there is room), warning near
// the window and saying what to do once the conversation no longer fits.
import type { ComposerState } from '../chat/protocol';
import { h } from './dom';
import { formatContextUse, formatInt } from './format';
import { l10n } from './panelL10n';

const CONTEXT_WARN_PERCENT = 90;

export class ContextMeter {
  readonly element: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly percent: HTMLElement;
  private readonly of: HTMLElement;

  constructor(doc: Document) {
    this.fill = h(doc, 'span', { className: 'meter-fill' });
    this.percent = h(doc, 'span', { className: 'meter-percent' });
    this.of = h(doc, 'span', { className: 'meter-of' });
    // "12%" stays at any width; " of 1M tokens" goes first on a narrow side bar
    const text = h(doc, 'span', { className: 'meter-text' }, [this.percent, this.of]);
    this.element = h(
      doc,
      'div',
      {
        className: 'context-meter',
        attrs: { role: 'meter', 'aria-label': l10n.t('Context'), 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': 0 },
      },
      [
        h(doc, 'span', { className: 'meter-label', text: l10n.t('Context'), attrs: { 'aria-hidden': 'true' } }),
        h(doc, 'span', { className: 'meter-bar', attrs: { 'aria-hidden': 'true' } }, [this.fill]),
        text,
      ],
    );
    this.element.hidden = true;
  }

  render(state: ComposerState): void {
    if (!(state.contextWindow > 0)) {
      this.element.hidden = true;
      return;
    }
    const { percent, text, detail } = formatContextUse(state.contextTokens, state.contextWindow);
    this.element.hidden = false;
    const cut = text.indexOf('%') + 1;
    this.percent.textContent = cut > 0 ? text.slice(0, cut) : text;
    this.of.textContent = cut > 0 ? text.slice(cut) : '';
    this.fill.style.width = `${Math.min(100, Math.max(0, percent)).toFixed(1)}%`;
    this.element.setAttribute('aria-valuenow', String(Math.min(100, Math.round(percent))));
    this.element.setAttribute('aria-valuetext', detail);
    this.element.classList.toggle('warn', percent >= CONTEXT_WARN_PERCENT);
    this.element.classList.toggle('over', percent >= 100);
    // the title says the window's size too ("of 1,000,000 tokens"): at 290 px the meter shows the share only
    const why =
      percent >= 100
        ? l10n.t("The conversation no longer fits the model's context window: start a new chat or remove attachments.")
        : percent >= CONTEXT_WARN_PERCENT
          ? l10n.t("The conversation is close to the model's context window.")
          : l10n.t("Estimated share of the model's context window the next request uses.");
    const size = l10n.t(
      'Context: {0} of {1} tokens ({2}), the context window of {3}.',
      formatInt(state.contextTokens),
      formatInt(state.contextWindow),
      this.percent.textContent ?? '',
      state.model,
    );
    this.element.title = `${size} ${why}`;
  }
}
