// Notices that belong to no message (from the host, or from the panel itself), plus the
// persistent "no API key" banner. Errors and warnings are announced as alerts, the others as status.
//
// The strip never buries the conversation:
// - each notice belongs to a conversation (or to the panel: set-up notices, "Code copied") and is
//   shown only while that conversation is;
// - only the newest is shown; the older ones fold behind one "2 more" button (the strip is also
//   capped in height in chat.css, and scrolls when unfolded);
// - informational notices collapse into one line after a few seconds, transient ones
//   ("Code copied") fade away; neither happens while the pointer or the focus is on the notice;
// - a notice whose condition is fixed (NoticeTopic) goes away by itself.
import type { ErrorAction, NoticeTopic } from '../chat/protocol';
import { h } from './dom';
import { icon } from './icons';
import { ACTION_LABELS, actionButton } from './messageViews';
import { l10n } from './panelL10n';

export type NoticeLevel = 'info' | 'warning' | 'error';

export interface NoticeOptions {
  /** shown only while this conversation is; absent: the panel's own */
  conversationId?: string;
  topic?: NoticeTopic;
  /** fades away after TRANSIENT_MS */
  transient?: boolean;
}

/** Timers (the window's, or a test's). */
export interface NoticeTimers {
  setTimeout: (cb: () => void, ms: number) => unknown;
  clearTimeout: (id: never) => void;
}

/** An informational notice collapses into one line after this long. */
export const COLLAPSE_MS = 6_000;
/** A transient notice fades away after this long. */
export const TRANSIENT_MS = 4_000;
/** Notices kept per conversation (and for the panel); older ones are dropped. */
const KEEP = 5;

interface Entry {
  el: HTMLElement;
  level: NoticeLevel;
  message: string;
  conversationId?: string;
  topic?: NoticeTopic;
  transient: boolean;
  timer?: unknown;
}

export class Notices {
  readonly element: HTMLElement;
  private readonly keyBanner: HTMLElement;
  private readonly list: HTMLElement;
  private readonly moreButton: HTMLButtonElement;
  private entries: Entry[] = [];
  private conversationId: string | undefined;
  private unfolded = false;
  private readonly timers: NoticeTimers;

  constructor(
    private readonly doc: Document,
    onAction: (action: ErrorAction) => void,
    timers?: NoticeTimers,
  ) {
    const win = doc.defaultView;
    this.timers = timers ?? {
      setTimeout: (cb, ms) => win?.setTimeout(cb, ms),
      clearTimeout: (id) => win?.clearTimeout(id),
    };
    this.keyBanner = h(doc, 'div', { className: 'notice notice-warning key-banner', attrs: { role: 'status' } }, [
      icon(doc, 'alert'),
      h(doc, 'div', { className: 'notice-body' }, [
        h(doc, 'div', { className: 'notice-text', text: l10n.t('No API key is set. Set your Modelgate key to start chatting.') }),
        h(doc, 'div', { className: 'action-row' }, [actionButton(doc, 'setKey')]),
      ]),
    ]);
    this.keyBanner.hidden = true;
    this.moreButton = h(doc, 'button', {
      className: 'link-button notices-more',
      attrs: { type: 'button', 'aria-expanded': 'false' },
      on: { click: () => this.setUnfolded(!this.unfolded) },
    });
    this.moreButton.hidden = true;
    this.list = h(doc, 'div', { className: 'notice-list' });
    this.element = h(doc, 'div', { className: 'notices' }, [this.keyBanner, this.moreButton, this.list]);
    this.element.addEventListener('click', (e) => {
      const t = e.target as Element | null;
      const action = t?.closest?.('[data-action]')?.getAttribute('data-action');
      if (action && action in ACTION_LABELS) onAction(action as ErrorAction);
      const dismiss = t?.closest?.('[data-dismiss]');
      if (dismiss) this.remove((n) => n.el === dismiss.closest('.notice'));
      const expand = t?.closest?.('[data-expand]');
      if (expand) this.expand(expand.closest('.notice'));
    });
    this.layout();
  }

  /** The notices of the conversation on screen and the panel's, oldest first (for tests). */
  get shown(): { level: NoticeLevel; message: string; collapsed: boolean; folded: boolean }[] {
    return this.visible().map((n) => ({
      level: n.level,
      message: n.message,
      collapsed: n.el.classList.contains('notice-collapsed'),
      folded: n.el.hidden === true,
    }));
  }

  setHasKey(hasKey: boolean): void {
    this.keyBanner.hidden = hasKey;
    // A key is stored for a valid base URL (keys are kept per gateway origin): set-up notices
    // ("No gateway base URL", "No API key") describe a condition that is fixed now.
    if (hasKey) this.resolve('setup');
    this.layout();
  }

  /** The conversation on screen: its notices (and the panel's) are shown, the others wait. */
  setConversation(id: string | undefined): void {
    if (id === this.conversationId) return;
    this.conversationId = id;
    this.unfolded = false;
    this.layout();
  }

  /** Drops the notices of conversations that no longer exist. */
  keepConversations(ids: Iterable<string>): void {
    const keep = new Set(ids);
    if (this.conversationId) keep.add(this.conversationId);
    this.remove((n) => n.conversationId !== undefined && !keep.has(n.conversationId));
  }

  /** The condition behind `topic` is fixed: its notices go (of one conversation, or of all). */
  resolve(topic: NoticeTopic, conversationId?: string): void {
    this.remove((n) => n.topic === topic && (conversationId === undefined || n.conversationId === conversationId));
  }

  show(level: NoticeLevel, message: string, actions: ErrorAction[] = [], options: NoticeOptions = {}): void {
    const doc = this.doc;
    const setup = options.topic === 'setup' || actions.includes('setKey') || actions.includes('openSettings');
    const topic = options.topic ?? (setup ? 'setup' : undefined);
    const conversationId = setup ? undefined : options.conversationId;
    // the same notice again replaces the earlier one (it moves to the front, expanded)
    this.remove((n) => n.message === message && n.level === level && n.conversationId === conversationId);
    const el = h(
      doc,
      'div',
      {
        className: `notice notice-${level}`,
        attrs: { role: level === 'info' ? 'status' : 'alert', ...(setup ? { 'data-setup': '' } : {}), ...(topic ? { 'data-topic': topic } : {}) },
      },
      [
        icon(doc, 'alert'),
        h(doc, 'div', { className: 'notice-body' }, [
          h(doc, 'div', { className: 'notice-text', text: message, attrs: { title: message } }),
          actions.length > 0 &&
            h(
              doc,
              'div',
              { className: 'action-row' },
              actions.map((a) => actionButton(doc, a)),
            ),
        ]),
        h(doc, 'button', {
          className: 'link-button notice-expand',
          text: l10n.t('More'),
          attrs: { type: 'button', 'aria-label': l10n.t('Show the whole notice'), 'aria-expanded': 'false', 'data-expand': '', hidden: true },
        }),
        h(
          doc,
          'button',
          { className: 'icon-button notice-dismiss', attrs: { type: 'button', 'aria-label': l10n.t('Dismiss'), title: l10n.t('Dismiss'), 'data-dismiss': '' } },
          [icon(doc, 'close')],
        ),
      ],
    );
    const entry: Entry = { el, level, message, conversationId, topic, transient: options.transient === true };
    this.entries.push(entry);
    this.list.appendChild(el);
    const same = this.entries.filter((n) => n.conversationId === conversationId);
    if (same.length > KEEP) this.remove((n) => same.indexOf(n) >= 0 && same.indexOf(n) < same.length - KEEP);
    if (conversationId === undefined || conversationId === this.conversationId) this.unfolded = false;
    this.arm(entry);
    this.layout();
  }

  clear(): void {
    this.remove(() => true);
  }

  private visible(): Entry[] {
    return this.entries.filter((n) => n.conversationId === undefined || n.conversationId === this.conversationId);
  }

  /** Informational notices collapse, transient ones fade; not while pointed at or focused. */
  private arm(n: Entry): void {
    if (n.level !== 'info') return;
    this.timers.clearTimeout(n.timer as never);
    n.timer = this.timers.setTimeout(
      () => {
        n.timer = undefined;
        if (!this.entries.includes(n)) return;
        if (this.inUse(n.el)) return this.arm(n);
        if (n.transient) this.remove((m) => m === n);
        else this.collapse(n);
      },
      n.transient ? TRANSIENT_MS : COLLAPSE_MS,
    );
  }

  private inUse(el: HTMLElement): boolean {
    if (el.contains(this.doc.activeElement)) return true;
    try {
      return el.matches(':hover');
    } catch {
      return false;
    }
  }

  private collapse(n: Entry): void {
    n.el.classList.add('notice-collapsed');
    const expand = n.el.querySelector<HTMLElement>('[data-expand]');
    if (expand) expand.hidden = false;
  }

  private expand(el: Element | null): void {
    const n = this.entries.find((m) => m.el === el);
    if (!n) return;
    n.el.classList.remove('notice-collapsed');
    const expand = n.el.querySelector<HTMLElement>('[data-expand]');
    if (expand) {
      // the focus stays in the notice (on its text's first action, else on the notice's Dismiss)
      const next = n.el.querySelector<HTMLElement>('.action-button, [data-dismiss]');
      const hadFocus = expand === this.doc.activeElement;
      expand.hidden = true;
      if (hadFocus) next?.focus();
    }
    this.arm(n);
  }

  private setUnfolded(unfolded: boolean): void {
    this.unfolded = unfolded;
    this.layout();
    // the strip is capped in height: unfolded, it scrolls so that the newest stays in view
    if (unfolded) this.element.scrollTop = this.element.scrollHeight;
  }

  private remove(which: (n: Entry) => boolean): void {
    const gone = this.entries.filter(which);
    if (!gone.length) return;
    for (const n of gone) {
      this.timers.clearTimeout(n.timer as never);
      n.el.remove();
    }
    this.entries = this.entries.filter((n) => !gone.includes(n));
    this.layout();
  }

  /** Shows the newest notice of the conversation on screen; the older ones fold behind "N more". */
  private layout(): void {
    const visible = this.visible();
    const older = visible.length - 1;
    for (const n of this.entries) n.el.hidden = !visible.includes(n) || (!this.unfolded && n !== visible[visible.length - 1]);
    if (older < 1) this.unfolded = false;
    this.moreButton.hidden = older < 1;
    this.moreButton.textContent = this.unfolded ? l10n.t('Show fewer notices') : older === 1 ? l10n.t('1 more notice') : l10n.t('{0} more notices', older);
    this.moreButton.setAttribute('aria-expanded', String(this.unfolded));
    this.element.classList.toggle('notices-empty', visible.length === 0 && this.keyBanner.hidden === true);
  }
}
