// The chat panel: lays out header, transcript, notices and composer, and applies the host's
// messages to them. Handshake: post `ready` once running; show nothing of a conversation until
// a snapshot arrives; apply deltas after that; a later snapshot replaces everything.
import type { ComposerState, ErrorAction, HostMessage, NoticeTopic, WebviewMessage } from '../chat/protocol';
import type { ChatInitialState } from '../chat/protocol';
import { cachedShareOf, costUnknown } from '../core/spend/answerCost';
import { Composer } from './composer';
import { h } from './dom';
import type { FrameHost } from './frameScheduler';
import { Header } from './header';
import { asHostMessage } from './hostMessages';
import { ACTION_LABELS } from './messageViews';
import { Notices } from './notices';
import { EditsView } from './editsView';
import type { StreamingMarkdownOptions } from './streamingMarkdown';
import { TranscriptView } from './transcriptView';
import { HostChannel, type VsCodeApi } from './vscodeApi';
import { l10n } from './panelL10n';
import { QuoteBadge } from './quoteView';
import { CompactionDivider } from './compactionDivider';

export interface ChatAppOptions {
  window: Window;
  api: VsCodeApi;
  /** element to render into (default: document.body) */
  root?: HTMLElement;
  /** animation frames and timers (default: the window) */
  frameHost?: FrameHost;
  draftDebounceMs?: number;
  markdown?: StreamingMarkdownOptions;
}

export class ChatApp {
  readonly header: Header;
  readonly transcript: TranscriptView;
  private readonly divider: CompactionDivider;
  readonly composer: Composer;
  readonly notices: Notices;
  readonly edits: EditsView;
  private readonly host: HostChannel;
  private readonly emptyState: HTMLElement;
  private readonly loading: HTMLElement;
  private conversationId: string | undefined;
  /** what sending now will cost, beside the context meter under Send */
  readonly quote: QuoteBadge;
  private ready = false;
  private busy = false;
  /** ids of finished answers with no known cost, for the header total */
  private unpriced = new Set<string>();
  private lastTotal: number | undefined;
  /** each answer's prompt tokens and the part the cache served (the header's share cached), by message */
  private usages = new Map<string, { promptTokens: number; cachedTokens: number }>();
  /** model and channel of the last composer state */
  private route: string | undefined;

  constructor(options: ChatAppOptions) {
    const win = options.window;
    const doc = win.document;
    this.host = new HostChannel(options.api);
    const post = (m: WebviewMessage) => this.host.post(m);

    this.header = new Header(doc, { post, beforeLeave: () => this.composer.flushDraft() });
    this.transcript = new TranscriptView(
      doc,
      { post, edit: (id, text) => this.composer.startEdit(id, text), focusComposer: () => this.composer.focus() },
      options.frameHost ?? (win as unknown as FrameHost),
      options.markdown,
    );
    this.divider = new CompactionDivider(doc, this.transcript.element, post);
    const timers = options.frameHost ?? (win as unknown as FrameHost);
    this.notices = new Notices(doc, (action) => post({ type: 'action', action }), timers);
    this.edits = new EditsView(doc, post);
    this.composer = new Composer(
      doc,
      {
        post,
        saveDraft: (draft) => this.host.writeState({ draft, conversationId: this.conversationId }),
        notice: (level, message, actions) =>
          this.notices.show(level, message, actions, { conversationId: this.conversationId, ...(actions?.includes('pickModel') ? { topic: 'model' } : {}) }),
      },
      options.draftDebounceMs,
    );
    this.composer.onEditChanged = (id) => this.transcript.markEditing(id);
    this.quote = new QuoteBadge(doc, { post });
    this.composer.addStatus(this.quote.element, this.quote.details);

    this.emptyState = h(doc, 'div', { className: 'empty-state' }, [
      h(doc, 'div', { className: 'empty-title', text: l10n.t('Ask about your code') }),
      h(doc, 'div', {
        className: 'empty-hint',
        text: l10n.t('Attach the selection or a file for context. Enter sends, Shift+Enter starts a new line, Escape stops an answer.'),
      }),
    ]);
    this.emptyState.hidden = true;
    this.loading = h(doc, 'div', { className: 'loading', text: l10n.t('Loading conversation…'), attrs: { role: 'status' } });

    const root = options.root ?? doc.body;
    root.appendChild(
      h(doc, 'div', { className: 'chat' }, [
        this.header.element,
        h(doc, 'div', { className: 'chat-main' }, [this.transcript.element, this.emptyState, this.loading]),
        this.edits.element,
        this.notices.element,
        this.composer.element,
      ]),
    );

    // Whatever was typed before a reload is back at once, before the host answers.
    const saved = this.host.readState();
    this.conversationId = saved.conversationId;
    if (saved.draft) this.composer.setDraft(saved.draft);

    // The view's title-bar actions (New chat, Open Conversation) and the quick pick take the focus
    // out of the panel before they switch conversation: the draft is handed to the host first.
    win.addEventListener('blur', () => this.composer.flushDraft());

    doc.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      if (this.busy) {
        e.preventDefault();
        this.host.post({ type: 'stop' });
      } else if (this.composer.isEditing) {
        e.preventDefault();
        this.composer.cancelEdit();
      }
    });
  }

  /** Applies one message from the host; malformed or unknown messages are ignored. */
  handle(data: unknown): void {
    const msg = asHostMessage(data);
    if (!msg) return;
    if (!this.ready && msg.type !== 'snapshot') {
      // Before the first snapshot only messages that do not describe the conversation apply.
      if (msg.type === 'notice') this.showNotice(msg);
      else if (msg.type === 'noticeResolved') this.notices.resolve(msg.topic);
      else if (msg.type === 'focusInput') this.composer.focus();
      return;
    }
    switch (msg.type) {
      case 'snapshot':
        return this.applySnapshot(msg);
      case 'messageAdded':
        this.transcript.addMessage(msg.message);
        // a message went out: what refused the last send is fixed
        if (msg.message.role === 'user' && this.conversationId) for (const t of SEND_TOPICS) this.notices.resolve(t, this.conversationId);
        return this.refreshEmpty();
      case 'textDelta':
        return this.transcript.textDelta(msg.messageId, msg.text);
      case 'thinkingDelta':
        return this.transcript.thinkingDelta(msg.messageId, msg.text);
      case 'thinkingDone':
        return this.transcript.thinkingDone(msg.messageId, msg.ms);
      case 'toolCall':
        return this.transcript.toolCall(msg.messageId, msg.call);
      case 'messageFinished':
        this.transcript.finish(msg.messageId, msg.status, msg.usage, msg.error, msg.channel);
        if (msg.costUnknown) this.unpriced.add(msg.messageId);
        else this.unpriced.delete(msg.messageId);
        if (msg.totalCost !== undefined) this.lastTotal = msg.totalCost;
        if (msg.usage) this.usages.set(msg.messageId, msg.usage);
        this.header.setTotalCost(this.lastTotal, this.unpriced.size, this.cachedShare());
        return;
      case 'compaction':
        return this.divider.set(msg.compaction);
      case 'truncated':
        this.transcript.truncate(msg.fromMessageId);
        for (const id of this.unpriced) if (!this.transcript.has(id)) this.unpriced.delete(id);
        for (const id of this.usages.keys()) if (!this.transcript.has(id)) this.usages.delete(id);
        this.header.setTotalCost(this.lastTotal, this.unpriced.size, this.cachedShare());
        return this.refreshEmpty();
      case 'composer':
        this.setComposer(msg.composer);
        return;
      case 'conversations':
        this.notices.keepConversations(msg.conversations.map((c) => c.id));
        return this.header.setConversations(msg.conversations, msg.activeId);
      case 'busy':
        return this.setBusy(msg.busy);
      case 'setDraft':
        this.composer.setDraft(msg.text, { notifyHost: true });
        return this.composer.focus();
      case 'notice':
        return this.showNotice(msg);
      case 'noticeResolved':
        return this.notices.resolve(msg.topic);
      case 'focusInput':
        return this.composer.focus();
      case 'edits':
        if (msg.conversationId === this.conversationId) this.edits.set(msg);
        return;
      case 'approvalRequest':
        return this.transcript.showApproval(msg.approval);
      case 'approvalDone':
        return this.transcript.approvalDone(msg.id);
      case 'images':
        return this.transcript.images(msg.messageId, msg.partId, msg.images);
      case 'quote':
        if (msg.quote.conversationId === this.conversationId && !this.busy) this.quote.set(msg.quote);
        return;
      default:
        msg satisfies never; // every host message of protocol.ts has a case above: a new one without a case does not compile
        return;
    }
  }

  private applySnapshot(msg: Extract<HostMessage, { type: 'snapshot' }>): void {
    const { conversation } = msg;
    const saved = this.host.readState();
    const first = !this.ready;
    // Typed before the first snapshot, or while another conversation was on its way (New Chat
    // clicked, then typing at once on a busy host): the host may not have that text yet, so it
    // goes with the conversation now shown.
    const typed = first ? this.composer.takeTypedBeforeReady() : this.conversationId !== conversation.id ? this.composer.takeUnpostedDraft() : undefined;
    if (this.conversationId !== conversation.id) this.quote.set(undefined);
    this.conversationId = conversation.id;
    this.notices.setConversation(conversation.id);
    this.notices.keepConversations(msg.conversations.map((c) => c.id));
    this.ready = true;
    this.loading.hidden = true;
    if (this.composer.isEditing) this.composer.cancelEdit();
    this.transcript.reset(conversation.messages);
    this.divider.set(conversation.compaction);
    this.edits.clear();
    this.header.setActive(conversation.id, conversation.title);
    this.header.setConversations(msg.conversations, conversation.id);
    // answers with no known cost (no price, or no usage reported): the header says so
    this.unpriced = new Set(conversation.messages.filter((m) => m.role === 'assistant' && costUnknown(m)).map((m) => m.id));
    this.lastTotal = conversation.totalCost;
    this.usages = new Map(conversation.messages.flatMap((m) => (m.role === 'assistant' && m.usage ? [[m.id, m.usage] as const] : [])));
    this.header.setTotalCost(conversation.totalCost, this.unpriced.size, this.cachedShare());
    this.header.setReady(true);
    this.setComposer(msg.composer);
    this.setBusy(msg.busy);
    this.composer.setReady(true);
    // After a reload the webview's own state is the freshest copy of the draft (the debounced
    // post may not have reached the host); for any other conversation its own draft applies.
    const local = saved.conversationId === conversation.id && saved.draft !== conversation.draft;
    this.composer.noteHostDraft(conversation.draft ?? '');
    if (typed?.trim()) this.composer.setDraft(withDraft(conversation.draft, typed), { notifyHost: true });
    else this.composer.setDraft(local ? saved.draft : (conversation.draft ?? ''), { notifyHost: local });
    this.refreshEmpty();
    if (first) this.focusComposerWhenOpened();
  }

  /**
   * Opened by "Open Chat" (the view took focus before it was ready): the cursor goes into the
   * message box, where the host's focusInput could not yet be delivered. A view opened cold may get
   * the keyboard only after its first snapshot, so the first focus that the workbench gives the
   * frame (not a click: a pointer press cancels this) also goes to the message box.
   */
  private focusComposerWhenOpened(): void {
    const doc = this.notices.element.ownerDocument;
    if (doc.hasFocus()) return this.composer.focus();
    const win = doc.defaultView;
    if (!win) return;
    const done = () => {
      win.removeEventListener('focus', onFocus);
      win.removeEventListener('pointerdown', done, true);
      win.removeEventListener('keydown', done, true);
    };
    const onFocus = () => {
      done();
      if (doc.activeElement === doc.body || doc.activeElement === null) this.composer.focus();
    };
    win.addEventListener('focus', onFocus);
    win.addEventListener('pointerdown', done, true);
    win.addEventListener('keydown', done, true);
  }

  private showNotice(msg: Extract<HostMessage, { type: 'notice' }>): void {
    this.notices.show(msg.level, msg.message, validActions(msg.actions), {
      ...(typeof msg.conversationId === 'string' ? { conversationId: msg.conversationId } : {}),
      ...(msg.topic && (NOTICE_TOPICS as readonly string[]).includes(msg.topic) ? { topic: msg.topic } : {}),
      transient: msg.transient === true,
    });
  }

  /** The composer's state; a notice about the model leaves once the model or channel changed. */
  private setComposer(state: ComposerState): void {
    const route = `${state.model}\n${state.channel}`;
    if (this.route !== undefined && route !== this.route) this.notices.resolve('model');
    this.route = route;
    this.composer.setState(state);
    this.notices.setHasKey(state.hasKey);
  }

  private setBusy(busy: boolean): void {
    if (!busy) this.notices.resolve('busy');
    this.busy = busy;
    // the quote is for the next send: while an answer runs it would be stale (the host posts a new one when it ends)
    if (busy) this.quote.set(undefined);
    this.composer.setBusy(busy);
    this.transcript.setBusy(busy);
  }

  private cachedShare(): number | undefined {
    return cachedShareOf(this.usages.values());
  }

  private refreshEmpty(): void {
    this.emptyState.hidden = !this.ready || this.transcript.messageCount > 0;
  }
}

const NOTICE_TOPICS: readonly NoticeTopic[] = ['setup', 'model', 'budget', 'busy', 'cache'];
/** what may have refused a send: a message that went out in that conversation fixed it */
const SEND_TOPICS: readonly NoticeTopic[] = ['model', 'budget', 'busy'];

function validActions(actions: unknown): ErrorAction[] {
  return Array.isArray(actions) ? actions.filter((a): a is ErrorAction => typeof a === 'string' && a in ACTION_LABELS) : [];
}

/** `typed` kept together with the conversation's `draft`, once (typed may start with it: typing went on after a restored draft). */
function withDraft(draft: string | undefined, typed: string): string {
  return !draft || typed.startsWith(draft) ? typed : `${draft}\n\n${typed}`;
}

/** Reads the optional initial state the host put into `data-initial-state` (never a script). */
export function readInitialState(doc: Document): ChatInitialState | undefined {
  const raw = doc.body?.getAttribute('data-initial-state');
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return typeof v === 'object' && v !== null ? (v as ChatInitialState) : undefined;
  } catch {
    return undefined;
  }
}

/** Starts the panel in `win`: builds it, listens to the host, and says `ready`. */
export function startChatApp(win: Window, api: VsCodeApi, options: Partial<ChatAppOptions> = {}): ChatApp {
  const app = new ChatApp({ window: win, api, ...options });
  win.addEventListener('message', (e: MessageEvent) => app.handle(e.data));
  const initial = readInitialState(win.document);
  if (initial?.snapshot) app.handle(initial.snapshot);
  // Whether the page already holds the keyboard (Open Chat then leaves the focus where it is), and
  // each change after it: the workbench may give the page the keyboard while the host is still busy
  // with `ready`, and Open Chat must not take it away again then.
  api.postMessage({ type: 'ready', hasFocus: win.document.hasFocus() } satisfies WebviewMessage);
  win.addEventListener('focus', () => api.postMessage({ type: 'keyboardFocus', hasFocus: true } satisfies WebviewMessage));
  win.addEventListener('blur', () => api.postMessage({ type: 'keyboardFocus', hasFocus: false } satisfies WebviewMessage));
  return app;
}
