// Notices that belong to no message (from the host, or from the panel itself), plus the
// persistent "no API key" banner. Errors and warnings are announced as alerts.
import type { ErrorAction } from '../chat/protocol';
import { h } from './dom';
import { icon } from './icons';
import { ACTION_LABELS, actionButton } from './messageViews';
import { l10n } from './l10n';

const MAX_NOTICES = 3;

export class Notices {
  readonly element: HTMLElement;
  private readonly keyBanner: HTMLElement;

  constructor(
    private readonly doc: Document,
    onAction: (action: ErrorAction) => void,
  ) {
    this.keyBanner = h(doc, 'div', { className: 'notice notice-warning key-banner', attrs: { role: 'status' } }, [
      icon(doc, 'alert'),
      h(doc, 'div', { className: 'notice-body' }, [
        h(doc, 'div', { className: 'notice-text', text: l10n.t('No API key is set. Set your Modelgate key to start chatting.') }),
        h(doc, 'div', { className: 'action-row' }, [actionButton(doc, 'setKey')]),
      ]),
    ]);
    this.keyBanner.hidden = true;
    this.element = h(doc, 'div', { className: 'notices' }, [this.keyBanner]);
    this.element.addEventListener('click', (e) => {
      const t = e.target as Element | null;
      const action = t?.closest?.('[data-action]')?.getAttribute('data-action');
      if (action && action in ACTION_LABELS) onAction(action as ErrorAction);
      const dismiss = t?.closest?.('[data-dismiss]');
      if (dismiss) dismiss.closest('.notice')?.remove();
    });
  }

  setHasKey(hasKey: boolean): void {
    this.keyBanner.hidden = hasKey;
    // A key is stored for a valid base URL (keys are kept per gateway origin): set-up notices
    // ("No gateway base URL", "No API key") describe a condition that is fixed now.
    if (hasKey) for (const n of Array.from(this.element.querySelectorAll('.notice[data-setup]'))) n.remove();
  }

  show(level: 'info' | 'warning' | 'error', message: string, actions: ErrorAction[] = []): void {
    const doc = this.doc;
    const setup = actions.includes('setKey') || actions.includes('openSettings');
    const el = h(
      doc,
      'div',
      { className: `notice notice-${level}`, attrs: { role: level === 'info' ? 'status' : 'alert', ...(setup ? { 'data-setup': '' } : {}) } },
      [
        icon(doc, 'alert'),
        h(doc, 'div', { className: 'notice-body' }, [
          h(doc, 'div', { className: 'notice-text', text: message }),
          actions.length > 0 &&
            h(
              doc,
              'div',
              { className: 'action-row' },
              actions.map((a) => actionButton(doc, a)),
            ),
        ]),
        h(
          doc,
          'button',
          { className: 'icon-button notice-dismiss', attrs: { type: 'button', 'aria-label': l10n.t('Dismiss'), title: l10n.t('Dismiss'), 'data-dismiss': '' } },
          [icon(doc, 'close')],
        ),
      ],
    );
    this.element.appendChild(el);
    const all = this.element.querySelectorAll('.notice:not(.key-banner)');
    for (let i = 0; i < all.length - MAX_NOTICES; i++) all[i].remove();
  }

  clear(): void {
    for (const n of Array.from(this.element.querySelectorAll('.notice:not(.key-banner)'))) n.remove();
  }
}
