// The panel header: the conversation switcher, the running cost of the conversation, New chat
// and Delete conversation.
import type { ConversationSummary, WebviewMessage } from '../protocol';
import { clear, h } from './dom';
import { formatTotalCost } from './format';
import { icon } from './icons';
import { l10n } from './l10n';

export interface HeaderCallbacks {
  post(message: WebviewMessage): void;
  /** called before the conversation changes, so the draft of the current one is saved */
  beforeLeave(): void;
}

export class Header {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;
  private readonly total: HTMLElement;
  private readonly deleteButton: HTMLButtonElement;
  private readonly newButton: HTMLButtonElement;
  private activeId: string | undefined;
  private activeTitle = '';
  private conversations: ConversationSummary[] = [];

  constructor(private readonly doc: Document, private readonly callbacks: HeaderCallbacks) {
    this.select = h(doc, 'select', {
      className: 'conversation-select',
      attrs: { 'aria-label': l10n.t('Conversations'), title: l10n.t('Switch conversation') },
      on: { change: () => this.onSwitch() },
    });
    this.total = h(doc, 'span', { className: 'total-cost', attrs: { title: l10n.t('Cost of this conversation so far') } });
    this.total.hidden = true;
    this.newButton = h(doc, 'button', {
      className: 'icon-button',
      attrs: { type: 'button', 'aria-label': l10n.t('New chat'), title: l10n.t('New chat') },
      on: {
        click: () => {
          this.callbacks.beforeLeave();
          this.callbacks.post({ type: 'newChat' });
        },
      },
    }, [icon(doc, 'plus')]);
    this.deleteButton = h(doc, 'button', {
      className: 'icon-button',
      attrs: { type: 'button', 'aria-label': l10n.t('Delete conversation'), title: l10n.t('Delete this conversation') },
      on: {
        click: () => {
          if (this.activeId) this.callbacks.post({ type: 'deleteConversation', conversationId: this.activeId });
        },
      },
    }, [icon(doc, 'trash')]);
    this.element = h(doc, 'header', { className: 'chat-header' }, [
      this.select,
      this.total,
      h(doc, 'div', { className: 'header-buttons' }, [this.newButton, this.deleteButton]),
    ]);
    this.setReady(false);
  }

  setReady(ready: boolean): void {
    this.select.disabled = !ready;
    this.newButton.disabled = !ready;
    this.deleteButton.disabled = !ready || !this.activeId;
  }

  setActive(id: string, title: string): void {
    this.activeId = id;
    this.activeTitle = title;
    this.render();
  }

  setConversations(list: ConversationSummary[], activeId?: string): void {
    this.conversations = [...list].sort((a, b) => b.updatedAt - a.updatedAt);
    if (activeId) {
      this.activeId = activeId;
      const found = list.find((c) => c.id === activeId);
      if (found) this.activeTitle = found.title;
    }
    this.render();
  }

  /** `unpriced`: answers of this conversation with no known cost, said so rather than counted as $0 */
  setTotalCost(total: number | undefined, unpriced = 0): void {
    const text = formatTotalCost(total, unpriced);
    this.total.hidden = !text;
    this.total.textContent = text;
  }

  private render(): void {
    const doc = this.doc;
    clear(this.select);
    const list = [...this.conversations];
    if (this.activeId && !list.some((c) => c.id === this.activeId)) {
      list.unshift({ id: this.activeId, title: this.activeTitle, updatedAt: Date.now() });
    }
    for (const c of list) {
      this.select.appendChild(h(doc, 'option', { text: c.title || l10n.t('New chat'), attrs: { value: c.id } }));
    }
    if (this.activeId) this.select.value = this.activeId;
    this.deleteButton.disabled = this.select.disabled || !this.activeId;
  }

  private onSwitch(): void {
    const id = this.select.value;
    if (!id || id === this.activeId) return;
    this.callbacks.beforeLeave();
    this.callbacks.post({ type: 'switchConversation', conversationId: id });
    // The host answers with a snapshot; until then the list shows the old choice.
    if (this.activeId) this.select.value = this.activeId;
  }
}
