// The transcript as the panel shows it: applies the host's snapshot and deltas to message
// elements, batches streamed text to one DOM update per frame, keeps the view pinned to the
// bottom while the user has not scrolled up, renders a restored conversation a window at a time
// (transcriptWindow.ts sizes it), and hands clicks inside messages to transcriptClicks.ts.
import type { ApprovalView, ErrorView, MessageStatus, MessageView, ShownImage, ToolCallView, UsageView, WebviewMessage } from '../chat/protocol';
import { ApprovalCard } from './approvalView';
import { highlightCodeBlock } from './codeBlock';
import { clear, h, isElement } from './dom';
import { FrameScheduler, IdleQueue, MAX_IDLE_SLICE_MS, type FrameHost, type IdleHost } from './frameScheduler';
import { AssistantMessageElement, UserMessageElement } from './messageViews';
import { l10n } from './panelL10n';
import type { StreamingMarkdownOptions } from './streamingMarkdown';
import { routeTranscriptClick } from './transcriptClicks';
import { PinnedScroll } from './transcriptScroll';
import { IDLE_BATCH, initialWindowStart, PAGE_MESSAGES, renderFirstWindow, SCROLL_MAX_MESSAGES } from './transcriptWindow';

type Entry = UserMessageElement | AssistantMessageElement;

export interface TranscriptCallbacks {
  post(message: WebviewMessage): void;
  /** the user asked to edit one of their earlier messages */
  edit(messageId: string, text: string): void;
  /** the keyboard focus goes back to the message box (an approval card it was on went away) */
  focusComposer?(): void;
}

export class TranscriptView {
  readonly element: HTMLElement;
  private readonly entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly dirty = new Set<AssistantMessageElement>();
  /** approval cards on screen, by id */
  private readonly approvals = new Map<string, ApprovalCard>();
  /** images the host resolved, by message and part (a message of the windowed restore may be rendered later) */
  private readonly shownImages = new Map<string, readonly ShownImage[]>();
  private readonly scheduler: FrameScheduler;
  /** answers whose first text / reasoning was drawn (their first delta does not wait for a frame) */
  private readonly textShown = new WeakSet<AssistantMessageElement>();
  private readonly thinkingShown = new WeakSet<AssistantMessageElement>();
  private readonly scroll: PinnedScroll;
  private busy = false;
  private readonly win: Window;
  /** messages of the restored conversation not rendered yet, oldest first */
  private older: MessageView[] = [];
  /** the page of older messages being built off the page (not in the DOM yet), and its size */
  private page: HTMLElement | null = null;
  private pageCount = 0;
  /** code blocks of the first window not coloured yet, in document order */
  private uncoloured: Element[] = [];
  private readonly idle: IdleQueue;
  /** the clock scroll-time rendering is bounded by (the idle host's, so tests can stop it) */
  private readonly now: () => number;

  constructor(
    private readonly doc: Document,
    private readonly callbacks: TranscriptCallbacks,
    frameHost: FrameHost,
    private readonly markdownOptions: StreamingMarkdownOptions = {},
  ) {
    this.win = doc.defaultView!;
    this.element = h(doc, 'div', {
      className: 'transcript',
      attrs: { role: 'log', 'aria-live': 'polite', 'aria-label': l10n.t('Conversation'), tabindex: 0 },
    });
    this.scroll = new PinnedScroll(this.element);
    this.scheduler = new FrameScheduler(frameHost, () => this.flushFrame());
    this.idle = new IdleQueue(frameHost as IdleHost);
    const idleHost = frameHost as IdleHost;
    this.now = () => (idleHost.now ? idleHost.now() : this.win.performance.now());
    // Older messages are inserted above what is shown; the browser's scroll anchoring keeps the
    // view on the same content (pinned to the bottom, or wherever the user scrolled to) without
    // a layout read per step. Anchoring does nothing at scroll offset 0: renderOlder measures then.
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
    return this.entries.length + this.older.length;
  }

  /** Messages of a restored conversation not in the DOM yet (waiting for idle time, or on a page being built). */
  get unrenderedCount(): number {
    return this.older.length + this.pageCount;
  }

  reset(messages: MessageView[]): void {
    this.scheduler.dispose();
    this.idle.clear();
    this.dirty.clear();
    this.entries.length = 0;
    this.byId.clear();
    this.approvals.clear();
    this.shownImages.clear();
    this.page = null;
    this.pageCount = 0;
    this.uncoloured = [];
    clear(this.element);
    const start = this.renderWindow(messages, initialWindowStart(messages));
    this.older = messages.slice(0, start);
    // colour the first window's code on idle time, before older messages are rendered
    if (this.uncoloured.length) this.idle.add(() => this.colourStep());
    if (this.older.length) this.idle.add(() => this.renderOlder(IDLE_BATCH, false));
    this.refreshControls();
    this.scroll.pinned = true;
    this.scroll.toBottom();
  }

  /** Renders every message still waiting (tests, and before anything needs them all). */
  renderAll(): void {
    this.renderOlder(this.older.length);
    this.idle.clear();
    if (this.uncoloured.length) this.idle.add(() => this.colourStep());
  }

  addMessage(message: MessageView): void {
    if (this.byId.has(message.id) || this.older.some((m) => m.id === message.id)) return;
    this.scheduler.runNow();
    this.add(message);
    this.refreshControls();
    // A new message of the user's own always brings the view to the bottom.
    if (message.role === 'user') this.scroll.pinned = true;
    this.afterChange();
  }

  textDelta(messageId: string, text: string): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    const renderer = entry.appendText(text);
    if (!renderer) return;
    this.paint(entry, this.textShown);
  }

  thinkingDelta(messageId: string, text: string): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    const renderer = entry.appendThinking(text);
    if (!renderer) return;
    this.paint(entry, this.thinkingShown);
  }

  /**
   * The first words of an answer (and of its reasoning) are drawn at once, in this task, and not
   * a frame later; what follows is drawn once per frame (the host merges it per window anyway).
   */
  private paint(entry: AssistantMessageElement, shown: WeakSet<AssistantMessageElement>): void {
    this.dirty.add(entry);
    this.scheduler.schedule();
    if (shown.has(entry)) return;
    shown.add(entry);
    this.scheduler.runNow();
  }

  thinkingDone(messageId: string, ms: number): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    this.scheduler.runNow();
    entry.endThinking(ms);
    this.afterChange();
  }

  toolCall(messageId: string, call: ToolCallView): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    entry.upsertToolCall(call);
    this.afterChange();
  }

  /** The host resolved the images of a part: shown in its answer (added at its end while the answer is written). */
  images(messageId: string, partId: string, images: readonly ShownImage[]): void {
    this.shownImages.set(`${messageId}\n${partId}`, images);
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    this.scheduler.runNow();
    entry.showImages(partId, images);
    this.afterChange();
  }

  /** Shows an approval card in its answer (at the end of the log when the answer is not shown) and focuses its safe choice. */
  showApproval(view: ApprovalView): void {
    if (this.approvals.has(view.id)) return;
    this.scheduler.runNow();
    const card = new ApprovalCard(this.doc, view, (choiceId) => this.callbacks.post({ type: 'approvalAnswer', id: view.id, choiceId }));
    this.approvals.set(view.id, card);
    const entry = this.byId.get(view.messageId);
    if (entry instanceof AssistantMessageElement) entry.addCard(card.element);
    else this.element.appendChild(card.element);
    this.scroll.pinned = true;
    this.afterChange();
    card.focus();
  }

  /** Removes an approval card (answered, or cancelled by Stop). */
  approvalDone(id: string): void {
    const card = this.approvals.get(id);
    if (!card) return;
    this.approvals.delete(id);
    const hadFocus = card.element.contains(this.doc.activeElement);
    card.element.remove();
    if (hadFocus) this.callbacks.focusComposer?.();
    this.afterChange();
  }

  finish(messageId: string, status: MessageStatus, usage?: UsageView, error?: ErrorView, channel?: string): void {
    const entry = this.byId.get(messageId);
    if (!(entry instanceof AssistantMessageElement)) return;
    this.dirty.delete(entry);
    entry.finish(status, usage, error, channel);
    this.refreshControls();
    this.afterChange();
  }

  /** whether the message is in the transcript (rendered or still waiting in the windowed restore) */
  has(messageId: string): boolean {
    return this.byId.has(messageId) || this.older.some((m) => m.id === messageId);
  }

  truncate(fromMessageId: string): void {
    if (this.page || (!this.byId.has(fromMessageId) && this.older.some((m) => m.id === fromMessageId))) this.renderAll();
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

  private createEntry(message: MessageView): Entry {
    return message.role === 'user'
      ? new UserMessageElement(this.doc, message)
      : new AssistantMessageElement(this.doc, message, this.markdownOptions, this.imagesOf(message.id));
  }

  /**
   * Renders the first window, newest first: at most the messages from `cap` on, and only as many
   * as fill the view (but always back to the last answer, which owns Regenerate). Code in these
   * messages is coloured on idle time right after the first paint (`uncoloured`), so the
   * highlighter and its grammar compile stay out of the task that paints. Returns the index of
   * the oldest message rendered.
   */
  private renderWindow(messages: MessageView[], cap: number): number {
    const defer = this.markdownOptions.highlight !== false;
    const options = defer ? { ...this.markdownOptions, highlight: false } : this.markdownOptions;
    const { start, entries, blocks } = renderFirstWindow(this.element, messages, cap, (m) => {
      // a message still streaming keeps the normal options: its later blocks colour as they close
      const settled = m.role === 'assistant' && m.status !== 'streaming';
      const entry = settled ? new AssistantMessageElement(this.doc, m, options, this.imagesOf(m.id)) : this.createEntry(m);
      this.byId.set(m.id, entry);
      return { entry, blocks: defer && settled ? [...entry.element.querySelectorAll('.code-block[data-lang]')] : [] };
    });
    // in document order; colouring pops from the end, so the lowest (in view) go first
    this.uncoloured.unshift(...blocks);
    this.entries.unshift(...entries);
    return start;
  }

  /** Colours one code block of the first window (the lowest one left); true while more wait. */
  private colourStep(): boolean {
    const block = this.uncoloured.pop();
    if (block?.isConnected) highlightCodeBlock(block);
    return this.uncoloured.length > 0;
  }

  private add(message: MessageView): void {
    const entry = this.createEntry(message);
    this.entries.push(entry);
    this.byId.set(message.id, entry);
    this.element.appendChild(entry.element);
  }

  /**
   * Renders up to `count` of the waiting messages (the newest of them) onto the page being
   * built, and puts that page above the messages shown once it is full, when nothing is left,
   * or when `now` (a scroll near the top, renderAll). Returns true while more work is waiting.
   * The view stays where it was: pinned to the bottom, or on the same content when the user
   * has scrolled up.
   */
  private renderOlder(count: number, now = true): boolean {
    const n = Math.min(count, this.older.length);
    if (n === 0 && !this.page) return false;
    const batch = this.older.splice(this.older.length - n, n);
    const created: Entry[] = [];
    const frag = this.doc.createDocumentFragment();
    for (const m of batch) {
      const entry = this.createEntry(m);
      created.push(entry);
      this.byId.set(m.id, entry);
      frag.appendChild(entry.element);
    }
    // The initial window holds the last assistant message, so these never show Regenerate.
    for (const e of created) {
      if (e instanceof UserMessageElement) e.setBusy(this.busy);
      else e.setCanRegenerate(false);
    }
    this.entries.unshift(...created);
    this.page ??= h(this.doc, 'div', { className: 'transcript-page' });
    this.page.insertBefore(frag, this.page.firstChild);
    this.pageCount += n;
    if (now || this.pageCount >= PAGE_MESSAGES || this.older.length === 0) this.insertPage(now);
    return this.older.length > 0 || this.page !== null;
  }

  /** Older messages for a scroll near the top: as many as fit in one slice, then the page goes in. */
  private renderOlderForScroll(): void {
    const end = this.now() + MAX_IDLE_SLICE_MS;
    let n = 0;
    do {
      this.renderOlder(1, false);
      n++;
    } while (this.older.length && n < SCROLL_MAX_MESSAGES && this.now() < end);
    this.insertPage(true);
  }

  private insertPage(measure: boolean): void {
    const page = this.page;
    if (!page) return;
    this.page = null;
    this.pageCount = 0;
    const el = this.element;
    // Scroll anchoring keeps the view in place unless the view is at offset 0 (then nothing is
    // anchored): only then, or when asked (a scroll near the top), is the layout measured.
    measure ||= this.scroll.knownTop <= 0;
    const heightBefore = measure ? el.scrollHeight : 0;
    const topBefore = measure ? el.scrollTop : 0;
    el.insertBefore(page, el.firstChild);
    if (measure) this.scroll.keepContent(topBefore, heightBefore);
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
    this.scroll.follow();
  }

  private onScroll(): void {
    const el = this.element;
    this.scroll.onScroll();
    // The user scrolled up to near the top with older messages still waiting: show the next ones
    // now, not on idle. Only the user's scroll: the first window is about one view tall, so our
    // own scroll to the bottom of it also lands "near the top".
    if ((this.older.length || this.page) && !this.scroll.pinned && el.scrollTop < el.clientHeight) this.renderOlderForScroll();
  }

  private imagesOf(messageId: string): (partId: string) => readonly ShownImage[] | undefined {
    return (partId) => this.shownImages.get(`${messageId}\n${partId}`);
  }

  /** A click inside a message: the host routes it (transcriptClicks.ts); edit and Regenerate wait while an answer runs. */
  private onClick(e: MouseEvent): void {
    routeTranscriptClick(e, {
      doc: this.doc,
      post: (message) => this.callbacks.post(message),
      editMessage: (id) => {
        const entry = this.byId.get(id);
        if (entry instanceof UserMessageElement && !this.busy) this.callbacks.edit(id, entry.message.text);
      },
      regenerate: () => {
        if (!this.busy) this.callbacks.post({ type: 'regenerate' });
      },
    });
  }
}

function messageIdOf(e: Entry): string {
  return e instanceof UserMessageElement ? e.message.id : e.id;
}
