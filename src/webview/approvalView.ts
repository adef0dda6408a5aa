// An approval card inside an answer (src/chat/cards/panelApprovals.ts asks the question): a
// title, detail lines, the exact code (a command) and one button per choice. Every text comes
// from the host, which may quote the model (a command), so it is set as textContent only,
// never parsed as HTML. The safe choice (the one that changes nothing) is drawn as the default
// button and takes the keyboard focus, so Enter or Space on a card that just appeared never runs
// anything; Tab reaches the other choices.
import type { ApprovalView } from '../chat/protocol';
import { h } from './dom';
import { l10n } from './panelL10n';

export class ApprovalCard {
  readonly element: HTMLElement;
  readonly buttons: HTMLButtonElement[];
  private answered = false;

  constructor(
    doc: Document,
    readonly view: ApprovalView,
    answer: (choiceId: string) => void,
  ) {
    const titleId = `${view.id}-title`;
    this.buttons = view.choices.map((c) => {
      const safe = c.id === view.safeChoiceId;
      const b = h(doc, 'button', {
        className: safe ? 'primary approval-choice approval-safe' : 'action-button approval-choice',
        text: c.label,
        attrs: { type: 'button', 'data-approval-choice': c.id },
      });
      b.addEventListener('click', () => {
        if (this.answered) return;
        this.answered = true;
        for (const other of this.buttons) other.disabled = true;
        answer(c.id);
      });
      return b;
    });
    this.element = h(doc, 'section', { className: 'approval-card', attrs: { role: 'group', 'aria-labelledby': titleId, 'data-approval-id': view.id } }, [
      h(doc, 'div', { className: 'approval-title', text: view.title, attrs: { id: titleId } }),
      ...view.detail.map((line) => h(doc, 'div', { className: 'approval-detail', text: line })),
      view.code !== undefined &&
        h(doc, 'pre', { className: 'approval-code', attrs: { 'aria-label': l10n.t('Command') } }, [h(doc, 'code', { text: view.code })]),
      h(doc, 'div', { className: 'action-row approval-choices' }, this.buttons),
    ]);
  }

  /** The default (safe) button. */
  get safeButton(): HTMLButtonElement | undefined {
    return this.buttons.find((b) => b.getAttribute('data-approval-choice') === this.view.safeChoiceId);
  }

  /** Moves the keyboard focus to the safe choice. */
  focus(): void {
    this.safeButton?.focus();
  }
}
