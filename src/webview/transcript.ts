// The conversation log: applies the host's snapshot and deltas to message elements, batches
// streamed text to one DOM update per frame, keeps the view pinned to the bottom while the
// user has not scrolled up, and routes clicks inside messages (code buttons, links, edit,
// regenerate, error actions) to the host through one delegated listener.
import type { ErrorAction, ErrorView, MessageStatus, MessageView, ToolCallView, UsageView, WebviewMessage } from '../protocol';
import { codeTextOf } from './codeBlock';
import { clear, h, isElement } from './dom';
import { FrameScheduler, type FrameHost } from './frameScheduler';
import { ACTION_LABELS, AssistantMessageElement, UserMessageElement } from './messageViews';
import { isOpenableHref } from './sanitize';
import type { StreamingMarkdownOptions } from './streamingMarkdown';

type Entry = UserMessageElement | AssistantMessageElement;

export interface TranscriptCallbacks {
  post(message: WebviewMessage): void;
  /** the user asked to edit one of their earlier messages */
  edit(messageId: string, text: string): void;
}

/** Distance from the bottom (px) within which the view counts as "at the bottom". */
const STICK_THRESHOLD = 40;
const COPIED_FEEDBACK_MS = 1500;

export class Transcript {
  readonly element: HTMLElement;
  private readonly entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly dirty = new Set<AssistantMessageElement>();
  private readonly scheduler: FrameScheduler;
  private stick = true;
  private lastAutoScrollTop = 0;
  private busy = false;
  private readonly win: Window;

  constructor(
    private readonly doc: Document,
    private readonly callbacks: TranscriptCallbacks,
    frameHost: FrameHost,
    private readonly markdownOptions: StreamingMarkdownOptions = {},
  ) {
    this.win = doc.defaultView!;
    this.element = h(doc, 'div', {
      className: 'transcript',
      attrs: { role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: 0 },
    });
    this.scheduler = new FrameScheduler(frameHost, () => this.flushFrame());
    this.element.addEventListener('scroll', () => this.onScroll());
    // The log shrinks when a notice appears or the composer grows: stay pinned if we were.
    const Observer = (this.win as unknown as { ResizeObserver?: typeof ResizeObserver }).ResizeObserver;
    if (Observer) new Observer(() => this.afterChange()).observe(this.element);
    this.element.addEventListener('click', (e) => this.onClick(e));
    // middle-click on a link would otherwise try to navigate the webview
    this.element.addEventListener('auxclick', (e) => {
      if (isElement(e.target) && e.target.closest('a')) e.preventDefault();
    });
  }

  get messageCount(): number {
    return this.entries.length;
  }

  reset(messages: MessageView[]): void {
    this.scheduler.dispose();
    this.dirty.clear();
    this.entries.length = 0;
    this.byId.clear();
    clear(this.element);
    for (const m of messages) this.add(m);
    this.refreshControls();
    this.stick = true;
    this.scrollToBottom();
  }

  addMessage(message: MessageView): void {
    if (this.byId.has(message.id)) return;
    this.scheduler.runNow();
    this.add(message);
    this.refreshControls();
    // A new message of the user's own always brings the view to the bottom.
    if (message.role === 'user') this.stick = true;
    this.afterChange();
  }

  textDelta(messageId: string, text: string): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    const renderer = entry.appendText(text);
    if (!renderer) return;
    this.dirty.add(entry);
    this.scheduler.schedule();
  }

  toolCall(messageId: string, call: ToolCallView): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    entry.upsertToolCall(call);
    this.afterChange();
  }

  finish(messageId: string, status: MessageStatus, usage?: UsageView, error?: ErrorView): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    this.dirty.delete(entry);
    entry.finish(status, usage, error);
    this.refreshControls();
    this.afterChange();
  }

  truncate(fromMessageId: string): void {
    const index = this.entries.findIndex((e) => messageIdOf(e) === fromMessageId);
    if (index < 0) return;
    for (const e of this.entries.splice(index)) {
      this.byId.delete(messageIdOf(e));
      if (e instanceof AssistantMessageElement) this.dirty.delete(e);
      e.element.remove();
    }
    this.refreshControls();
    this.afterChange();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.refreshControls();
    // showing Regenerate (and the usage line above it) grows the last message: keep it in view
    this.afterChange();
  }

  /** Applies buffered text now (tests, and before anything reads the DOM). */
  flushNow(): void {
    this.scheduler.runNow();
  }

  markEditing(messageId: string | undefined): void {
    for (const e of this.entries) e.element.classList.toggle('editing', messageIdOf(e) === messageId);
  }

  // ---------------------------------------------------------------------------------------

  private add(message: MessageView): void {
    const entry = message.role === 'user'
      ? new UserMessageElement(this.doc, message)
      : new AssistantMessageElement(this.doc, message, this.markdownOptions);
    this.entries.push(entry);
    this.byId.set(message.id, entry);
    this.element.appendChild(entry.element);
  }

  private refreshControls(): void {
    let lastAssistant: AssistantMessageElement | undefined;
    for (const e of this.entries) if (e instanceof AssistantMessageElement) lastAssistant = e;
    for (const e of this.entries) {
      if (e instanceof UserMessageElement) e.setBusy(this.busy);
      else e.setCanRegenerate(!this.busy && e === lastAssistant && !e.isStreaming);
    }
  }

  private flushFrame(): void {
    let changed = false;
    for (const entry of this.dirty) changed = entry.flush() || changed;
    this.dirty.clear();
    if (changed) this.afterChange();
  }

  private afterChange(): void {
    if (this.stick) this.scrollToBottom();
  }

  private scrollToBottom(): void {
    const el = this.element;
    el.scrollTop = el.scrollHeight;
    this.lastAutoScrollTop = el.scrollTop;
  }

  private onScroll(): void {
    const el = this.element;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (distance <= STICK_THRESHOLD) this.stick = true;
    // Only a move upwards is the user's: our own scrolls land at the bottom, and content that
    // grew before the scroll event arrived must not unpin the view.
    else if (el.scrollTop < this.lastAutoScrollTop - 1) this.stick = false;
  }

  private onClick(e: MouseEvent): void {
    const target = e.target;
    if (!isElement(target)) return;
    const codeButton = target.closest('[data-code-action]');
    if (codeButton) {
      const block = codeButton.closest('.code-block');
      if (!block) return;
      const code = codeTextOf(block);
      const action = codeButton.getAttribute('data-code-action');
      if (action === 'copy') {
        this.callbacks.post({ type: 'copyCode', code });
        this.showCopied(block, codeButton);
      } else if (action === 'insert') this.callbacks.post({ type: 'insertCode', code });
      else if (action === 'apply') {
        const lang = block.getAttribute('data-lang') ?? undefined;
        this.callbacks.post({ type: 'applyCode', code, ...(lang ? { language: lang } : {}) });
      }
      return;
    }
    const link = target.closest('a');
    if (link) {
      e.preventDefault();
      const href = link.getAttribute('href');
      if (isOpenableHref(href)) this.callbacks.post({ type: 'openLink', href });
      return;
    }
    const edit = target.closest('[data-edit-message]');
    if (edit) {
      const id = edit.getAttribute('data-edit-message')!;
      const entry = this.byId.get(id);
      if (entry instanceof UserMessageElement && !this.busy) this.callbacks.edit(id, entry.message.text);
      return;
    }
    if (target.closest('[data-regenerate]')) {
      if (!this.busy) this.callbacks.post({ type: 'regenerate' });
      return;
    }
    const action = target.closest('[data-action]')?.getAttribute('data-action');
    if (action && action in ACTION_LABELS) this.callbacks.post({ type: 'action', action: action as ErrorAction });
  }

  private showCopied(block: Element, button: Element): void {
    const toolbar = block.querySelector('.code-toolbar');
    if (!toolbar) return;
    toolbar.querySelector('.code-feedback')?.remove();
    const note = h(this.doc, 'span', { className: 'code-feedback', text: 'Copied', attrs: { role: 'status' } });
    toolbar.insertBefore(note, button);
    button.classList.add('copied');
    this.win.setTimeout(() => {
      note.remove();
      button.classList.remove('copied');
    }, COPIED_FEEDBACK_MS);
  }
}

function messageIdOf(e: Entry): string {
  return e instanceof UserMessageElement ? e.message.id : e.id;
}
