// What a click inside the transcript asks for, through one delegated listener: open an image or a
// link, copy, insert or apply a code block (never from the model's reasoning), edit one of the
// user's messages, regenerate, or an error's action. The host gets a validated message; nothing
// here navigates the webview.
import type { ErrorAction, WebviewMessage } from '../chat/protocol';
import { codeTextOf } from './codeBlock';
import { h, isElement } from './dom';
import { ACTION_LABELS } from './messageViews';
import { l10n } from './panelL10n';
import { isOpenableHref } from './sanitize';

const COPIED_FEEDBACK_MS = 1500;

export interface TranscriptClickHost {
  readonly doc: Document;
  post(message: WebviewMessage): void;
  /** the user asked to edit their message `id` (ignored while an answer runs) */
  editMessage(id: string): void;
  /** Regenerate (ignored while an answer runs) */
  regenerate(): void;
}

export function routeTranscriptClick(e: MouseEvent, host: TranscriptClickHost): void {
  const target = e.target;
  if (!isElement(target)) return;
  const image = target.closest('[data-open-image]');
  if (image) {
    const openId = image.getAttribute('data-open-image');
    if (openId) host.post({ type: 'openImage', openId });
    return;
  }
  const codeButton = target.closest('[data-code-action]');
  if (codeButton) {
    const block = codeButton.closest('.code-block');
    // Copy, Insert and Apply take the answer only, never the model's reasoning.
    if (!block || block.closest('.reasoning-block')) return;
    const code = codeTextOf(block);
    const action = codeButton.getAttribute('data-code-action');
    if (action === 'copy') {
      host.post({ type: 'copyCode', code });
      showCopied(host.doc, block, codeButton);
    } else if (action === 'insert') host.post({ type: 'insertCode', code });
    else if (action === 'apply' && !block.hasAttribute('data-cut')) {
      const lang = block.getAttribute('data-lang') ?? undefined;
      host.post({ type: 'applyCode', code, ...(lang ? { language: lang } : {}) });
    }
    return;
  }
  const link = target.closest('a');
  if (link) {
    e.preventDefault();
    const href = link.getAttribute('href');
    if (isOpenableHref(href)) host.post({ type: 'openLink', href });
    return;
  }
  const edit = target.closest('[data-edit-message]');
  if (edit) {
    host.editMessage(edit.getAttribute('data-edit-message')!);
    return;
  }
  if (target.closest('[data-regenerate]')) {
    host.regenerate();
    return;
  }
  const action = target.closest('[data-action]')?.getAttribute('data-action');
  if (action && action in ACTION_LABELS) host.post({ type: 'action', action: action as ErrorAction });
}

function showCopied(doc: Document, block: Element, button: Element): void {
  const toolbar = block.querySelector('.code-toolbar');
  if (!toolbar) return;
  toolbar.querySelector('.code-feedback')?.remove();
  const note = h(doc, 'span', { className: 'code-feedback', text: l10n.t('Copied'), attrs: { role: 'status' } });
  toolbar.insertBefore(note, button);
  button.classList.add('copied');
  doc.defaultView?.setTimeout(() => {
    note.remove();
    button.classList.remove('copied');
  }, COPIED_FEEDBACK_MS);
}
