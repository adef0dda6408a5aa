// The model's edits under review, above the composer: per answer, every file it touched with its
// +/- line counts, a diff button, Keep and Undo per file and for all, and "Restore files to before
// this answer" once something was kept. The auto-accept toggle (per conversation, off by
// default) sits below; while it is on, a banner says so. Paths come from the host (workspace
// file names, which a repository can choose): they are set as text and attributes only.
import type { AnswerEditsView, EditFileView, HostMessage, WebviewMessage } from '../chat/protocol';
import { clear, h } from './dom';
import { icon } from './icons';
import { l10n } from './panelL10n';

type EditsMessage = Extract<HostMessage, { type: 'edits' }>;

/** Answers shown at most, unless more have files pending (those always show); older settled ones stay in the log. */
const MAX_ANSWERS = 4;

const STATE_TEXT: Record<EditFileView['state'], () => string> = {
  pending: () => l10n.t('not saved'),
  kept: () => l10n.t('kept'),
  undone: () => l10n.t('undone'),
};

const KIND_TEXT: Record<EditFileView['kind'], () => string> = {
  edit: () => '',
  create: () => l10n.t('new'),
  delete: () => l10n.t('deleted'),
};

export class EditsView {
  readonly element: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly list: HTMLElement;
  private readonly toggle: HTMLInputElement;
  private readonly toggleRow: HTMLElement;

  constructor(
    private readonly doc: Document,
    private readonly post: (m: WebviewMessage) => void,
  ) {
    this.banner = h(doc, 'div', { className: 'notice notice-warning auto-accept-banner', attrs: { role: 'status' } }, [
      icon(doc, 'alert'),
      h(doc, 'div', { className: 'notice-body' }, [
        h(doc, 'div', { className: 'notice-text', text: l10n.t('Auto-accept is on for this chat: the model’s edits are saved without your review.') }),
        h(doc, 'div', { className: 'action-row' }, [
          h(doc, 'button', {
            className: 'action-button',
            text: l10n.t('Turn Off Auto-Accept'),
            attrs: { type: 'button' },
            on: { click: () => this.post({ type: 'setAutoAccept', on: false }) },
          }),
        ]),
      ]),
    ]);
    this.banner.hidden = true;
    this.list = h(doc, 'div', { className: 'edit-answers' });
    this.list.hidden = true; // an empty section takes no height (its padding comes with a visible child)
    this.toggle = h(doc, 'input', { attrs: { type: 'checkbox' }, on: { change: () => this.post({ type: 'setAutoAccept', on: this.toggle.checked }) } });
    this.toggleRow = h(doc, 'label', { className: 'auto-accept-toggle' }, [this.toggle, l10n.t('Auto-accept the model’s edits in this chat')]);
    this.toggleRow.hidden = true;
    this.element = h(doc, 'section', { className: 'edits', attrs: { 'aria-label': l10n.t('Changes') } }, [this.banner, this.list, this.toggleRow]);
  }

  clear(): void {
    clear(this.list);
    this.list.hidden = true;
    this.banner.hidden = true;
    this.toggleRow.hidden = true;
  }

  set(msg: EditsMessage): void {
    this.banner.hidden = !msg.autoAccept;
    this.toggle.checked = msg.autoAccept;
    clear(this.list);
    // Every answer with a file still pending (it must stay reviewable), then the newest of the
    // settled ones up to MAX_ANSWERS in all, in the conversation's order.
    const withFiles = msg.answers.filter((a) => Array.isArray(a.files) && a.files.length > 0);
    const settled = withFiles.filter((a) => !a.files.some((f) => f.state === 'pending'));
    const room = Math.max(0, MAX_ANSWERS - (withFiles.length - settled.length));
    const hiddenSettled = new Set(settled.slice(0, Math.max(0, settled.length - room)));
    const shown = withFiles.filter((a) => !hiddenSettled.has(a));
    // The toggle shows once the conversation has edits to review (or while it is on): an empty
    // conversation keeps the panel's height for the transcript (the default side bar is 290 px).
    this.toggleRow.hidden = !msg.available || (!msg.autoAccept && shown.length === 0);
    for (const a of shown) this.list.appendChild(this.answer(a));
    this.list.hidden = shown.length === 0;
  }

  private answer(a: AnswerEditsView): HTMLElement {
    const doc = this.doc;
    const pending = a.files.filter((f) => f.state === 'pending').length;
    const btn = (text: string, label: string, cls: string, msg: WebviewMessage) =>
      h(doc, 'button', { className: cls, text, attrs: { type: 'button', 'aria-label': label, title: label }, on: { click: () => this.post(msg) } });
    const head = h(doc, 'div', { className: 'edit-head' }, [
      h(doc, 'span', {
        className: 'edit-title',
        text: a.restored
          ? l10n.t('Restored to before this answer')
          : pending > 0
            ? l10n.t('{0} of {1} changed files to review', pending, a.files.length)
            : l10n.t('{0} changed files reviewed', a.files.length),
      }),
      pending > 1 && btn(l10n.t('Keep All'), l10n.t('Keep All'), 'primary', { type: 'editReview', messageId: a.messageId, action: 'keep' }),
      pending > 1 && btn(l10n.t('Undo All'), l10n.t('Undo All'), 'action-button', { type: 'editReview', messageId: a.messageId, action: 'undo' }),
    ]);
    const files = h(
      doc,
      'ul',
      { className: 'edit-files' },
      a.files.map((f) =>
        h(doc, 'li', { className: `edit-file edit-${f.state}`, attrs: { 'data-path': f.path } }, [
          h(
            doc,
            'button',
            {
              className: 'link-button edit-path',
              attrs: { type: 'button', 'aria-label': l10n.t('Open diff: {0}', f.path), title: f.path },
              on: { click: () => this.post({ type: 'editReview', messageId: a.messageId, action: 'diff', path: f.path }) },
            },
            [icon(this.doc, 'diff'), h(doc, 'span', { text: f.path })],
          ),
          KIND_TEXT[f.kind]() && h(doc, 'span', { className: 'edit-kind', text: KIND_TEXT[f.kind]() }),
          h(doc, 'span', { className: 'edit-added', text: `+${f.added}`, attrs: { 'aria-label': l10n.t('{0} lines added', f.added) } }),
          h(doc, 'span', { className: 'edit-removed', text: `-${f.removed}`, attrs: { 'aria-label': l10n.t('{0} lines removed', f.removed) } }),
          f.state === 'pending'
            ? h(doc, 'span', { className: 'edit-actions' }, [
                btn(l10n.t('Keep'), l10n.t('Keep {0}', f.path), 'primary', { type: 'editReview', messageId: a.messageId, action: 'keep', path: f.path }),
                btn(l10n.t('Undo'), l10n.t('Undo {0}', f.path), 'action-button', { type: 'editReview', messageId: a.messageId, action: 'undo', path: f.path }),
              ])
            : h(doc, 'span', { className: 'edit-state', text: STATE_TEXT[f.state]() }),
          // a file that configures tools, tasks, CI or packages (the host's words): never auto-accepted
          typeof f.warning === 'string' && f.warning && h(doc, 'span', { className: 'edit-warning', text: f.warning }),
        ]),
      ),
    );
    return h(doc, 'div', { className: 'edit-answer', attrs: { 'data-message-id': a.messageId } }, [
      head,
      files,
      a.note && h(doc, 'div', { className: 'edit-note', text: a.note }),
      a.restorable &&
        h(doc, 'div', { className: 'action-row' }, [
          btn(l10n.t('Restore files to before this answer'), l10n.t('Restore files to before this answer'), 'action-button', {
            type: 'restoreAnswer',
            messageId: a.messageId,
          }),
        ]),
    ]);
  }
}
