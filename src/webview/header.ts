// The panel header: the history control (the active conversation's title; it opens the
// conversation list, a quick pick with search, rename and delete), the running cost of the
// conversation, and Delete conversation. New chat is in the view's title bar (the standard
// place for a view's actions, next to the history action), not here: one control per action.
import type { ConversationSummary, WebviewMessage } from '../chat/protocol';
import { h } from './dom';
import { formatTotalCost, formatTotalCostShort } from './format';
import { icon } from './icons';
import { l10n } from './panelL10n';

export interface HeaderCallbacks {
  post(message: WebviewMessage): void;
  /** called before the conversation may change, so the draft of the current one is saved */
  beforeLeave(): void;
}

export class Header {
  readonly element: HTMLElement;
  private readonly history: HTMLButtonElement;
  private readonly titleText: HTMLElement;
  private readonly total: HTMLElement;
  private readonly deleteButton: HTMLButtonElement;
  private activeId: string | undefined;
  private activeTitle = '';
  private ready = false;

  constructor(
    doc: Document,
    private readonly callbacks: HeaderCallbacks,
  ) {
    this.titleText = h(doc, 'span', { className: 'conversation-title-text' });
    this.history = h(
      doc,
      'button',
      {
        className: 'conversation-title',
        attrs: { type: 'button', title: l10n.t('Open a conversation: search, rename, delete') },
        on: {
          click: () => {
            this.callbacks.beforeLeave();
            this.callbacks.post({ type: 'openConversations' });
          },
        },
      },
      [icon(doc, 'history'), this.titleText],
    );
    this.total = h(doc, 'span', { className: 'total-cost', attrs: { role: 'note', title: l10n.t('Cost of this conversation so far') } });
    this.total.hidden = true;
    this.deleteButton = h(
      doc,
      'button',
      {
        className: 'icon-button',
        attrs: { type: 'button', 'aria-label': l10n.t('Delete conversation'), title: l10n.t('Delete this conversation') },
        on: {
          click: () => {
            if (this.activeId) this.callbacks.post({ type: 'deleteConversation', conversationId: this.activeId });
          },
        },
      },
      [icon(doc, 'trash')],
    );
    this.element = h(doc, 'header', { className: 'chat-header' }, [
      this.history,
      this.total,
      h(doc, 'div', { className: 'header-buttons' }, [this.deleteButton]),
    ]);
    this.setReady(false);
  }

  setReady(ready: boolean): void {
    this.ready = ready;
    this.history.disabled = !ready;
    this.deleteButton.disabled = !ready || !this.activeId;
  }

  setActive(id: string, title: string): void {
    this.activeId = id;
    this.activeTitle = title;
    this.render();
  }

  setConversations(list: ConversationSummary[], activeId?: string): void {
    if (activeId) {
      this.activeId = activeId;
      const found = list.find((c) => c.id === activeId);
      if (found) this.activeTitle = found.title;
    }
    this.render();
  }

  /** `unpriced`: answers of this conversation with no known cost, said so rather than counted as $0 */
  setTotalCost(total: number | undefined, unpriced = 0, cachedShare?: number): void {
    const text = formatTotalCost(total, unpriced);
    this.total.hidden = !text;
    // short in the badge (one header row at 290 px), whole in its title and accessible name
    this.total.textContent = formatTotalCostShort(total, unpriced);
    // the badge may be cut: the title has it whole, with how much of the prompts the cache served
    const title = text ? l10n.t('Cost of this conversation so far: {0}', text) : l10n.t('Cost of this conversation so far');
    this.total.title =
      text && cachedShare !== undefined
        ? `${title}. ${l10n.t('{0} of its prompt tokens were read from the cache.', `${Math.round(cachedShare * 100)}%`)}`
        : title;
    if (text) this.total.setAttribute('aria-label', title);
    else this.total.removeAttribute('aria-label');
  }

  private render(): void {
    const title = this.activeTitle.trim() || l10n.t('New chat');
    this.titleText.textContent = title;
    this.history.setAttribute('aria-label', l10n.t('Conversations: {0}', title));
    this.deleteButton.disabled = !this.ready || !this.activeId;
  }
}
