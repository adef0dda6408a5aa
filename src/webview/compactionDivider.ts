// The "compacted here" divider of a compacted conversation: it stands before the first message
// that is still sent verbatim, opens the summary that replaces the messages above it in what is
// sent (they stay in the conversation), and offers Undo until the next send. Text only.
import type { CompactionView, WebviewMessage } from '../chat/protocol';
import { formatUsd } from '../core/spend/cost';
import { h } from './dom';
import { l10n } from './panelL10n';

export class CompactionDivider {
  readonly element: HTMLDetailsElement;
  private readonly label: HTMLElement;
  private readonly body: HTMLElement;
  private readonly note: HTMLElement;
  private readonly text: HTMLElement;
  private readonly undo: HTMLButtonElement;
  private view: CompactionView | undefined;
  private readonly observer: MutationObserver | undefined;

  constructor(
    doc: Document,
    private readonly transcript: HTMLElement,
    post: (m: WebviewMessage) => void,
  ) {
    this.label = h(doc, 'summary', { className: 'compaction-label' });
    this.note = h(doc, 'div', { className: 'compaction-note' });
    this.text = h(doc, 'div', { className: 'compaction-text' });
    this.body = h(doc, 'div', { className: 'compaction-summary' }, [this.note, this.text]);
    this.undo = h(doc, 'button', { className: 'action-button', text: l10n.t('Undo compaction'), attrs: { type: 'button' } });
    this.undo.addEventListener('click', () => post({ type: 'action', action: 'undoCompaction' }));
    this.element = h(doc, 'details', { className: 'compaction-divider', attrs: { role: 'separator' } }, [this.label, this.body, this.undo]);
    // the transcript renders older messages later and rebuilds on a snapshot: the divider follows its message
    const Observer = (doc.defaultView as unknown as { MutationObserver?: typeof MutationObserver } | null)?.MutationObserver;
    this.observer = Observer ? new Observer(() => this.place()) : undefined;
    this.observer?.observe(transcript, { childList: true });
  }

  set(view: CompactionView | undefined): void {
    this.view = view;
    if (!view) {
      this.element.remove();
      return;
    }
    const cost = view.cost !== undefined ? formatUsd(view.cost) : undefined;
    this.label.textContent = cost !== undefined ? l10n.t('Compacted here · {0}', cost) : l10n.t('Compacted here');
    this.label.title = l10n.t('Show the summary that is sent instead of the messages above');
    this.note.textContent = l10n.t('Sent instead of the messages above (they stay in the conversation). Written by {0}:', view.model);
    this.text.textContent = view.summary;
    this.undo.hidden = !view.undoable;
    this.place();
  }

  /** Puts the divider right before its message when that is on the page; off the page otherwise. */
  private place(): void {
    const v = this.view;
    if (!v) return;
    const target = [...this.transcript.children].find((el) => el.getAttribute('data-message-id') === v.cutId);
    if (!target) {
      if (this.element.isConnected) this.element.remove();
      return;
    }
    if (target.previousElementSibling !== this.element) this.transcript.insertBefore(this.element, target);
  }
}
