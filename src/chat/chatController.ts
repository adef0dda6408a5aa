// The chat's host side: owns the conversations, turns what the user does (through the webview
// or the API) into requests, and tells the webview what changed as small messages (a snapshot
// only when it (re)loads or switches conversation; deltas after that).
//
// It is also the extension's public chat API (activate() returns it), which the integration
// tests use to drive a chat without a DOM. Services are held in a #private field: other
// extensions that read our exports get the chat, not the key store.
import * as vscode from 'vscode';
import type { ChatModelInfo } from '../core/catalogue';
import { hasImages, imagesOf, layoutPrompt, userMessage, type ImageInput, type VolatileContext } from '../core/promptLayout';
import { estimateRequestTokens, outputReserve } from '../core/tokens';
import type { ChatMessage, ToolCall, ToolDefinition } from '../core/types';
import type {
  AttachmentView,
  ComposerState,
  ConversationSummary,
  ConversationView,
  ErrorAction,
  ErrorView,
  HostMessage,
  WebviewMessage,
} from '../protocol';
import type { Services } from '../services';
import { describeError, runErrorAction } from '../userErrors';
import { runAnswer, type ToolResult } from './answerRunner';
import { applyCode, copyCode, insertCode, openLink, type ProposalDocuments } from './codeActions';
import { ConversationStore, type StorageBackend } from './conversationStore';
import { DeltaCoalescer } from './deltaCoalescer';
import { imageAttachment, pickFiles, pickImageFile, pickSelection } from './attachmentPicker';
import { isProblem } from './editorContext';
import { decodePastedImage } from './imageInput';
import { SYSTEM_PROMPT } from './systemPrompt';
import { addPending, chatModelInfo, composerState, nextMessageContext, pinFile, removeAttachment, toolOffer, type ToolOffer } from './turnContext';
import {
  conversationView,
  lastAssistant,
  messageView,
  newId,
  titleFrom,
  truncateFrom,
  wireHistory,
  NEW_CHAT_TITLE,
  type AssistantRecord,
  type Conversation,
  type UserRecord,
} from './transcript';

/** The tools the chat offers (src/chat/tools): only what the controller needs of them. */
export interface ChatTools {
  definitions(): ToolDefinition[];
  runAll(calls: ToolCall[], token: vscode.CancellationToken): Promise<ToolResult[]>;
}

export interface ChatControllerOptions {
  services: Services;
  backend: StorageBackend;
  tools: ChatTools;
  proposals: ProposalDocuments;
}

interface Run {
  conversation: Conversation;
  abort: AbortController;
  done: Promise<void>;
  /** set when the controller is disposed mid-answer: nothing more is written or posted */
  detached: boolean;
}

/** What a refused send tells the user (nothing was sent, the text goes back to the input). */
class Refusal {
  constructor(
    readonly message: string,
    readonly actions: ErrorAction[] = [],
    readonly level: 'info' | 'warning' | 'error' = 'warning',
  ) {}
}

export class ChatController implements vscode.Disposable {
  readonly #services: Services;
  readonly #tools: ChatTools;
  readonly #proposals: ProposalDocuments;
  #store: ConversationStore | undefined;
  readonly #runs = new Map<string, Run>();
  /** conversations whose next turn is being checked (key prompt, ...): a second send waits its turn */
  readonly #preparing = new Set<string>();
  readonly #posted = new vscode.EventEmitter<HostMessage>();
  readonly #coalescer = new DeltaCoalescer((m) => this.#posted.fire(m));
  readonly #subscriptions: vscode.Disposable[] = [];
  #hasKey = false;
  #closing: Promise<void> | undefined;

  /** Every message for the webview, in order (text deltas coalesced). */
  readonly onDidPost: vscode.Event<HostMessage> = this.#posted.event;
  /** Resolves once the history is loaded; every method waits for it. */
  readonly ready: Promise<void>;

  constructor(options: ChatControllerOptions) {
    this.#services = options.services;
    this.#tools = options.tools;
    this.#proposals = options.proposals;
    const s = options.services;
    this.ready = (async () => {
      this.#store = await ConversationStore.open(options.backend, { warn: (m) => s.log.warn(m), onExternalChange: () => void this.postSnapshot() });
      s.log.info(`Chat history: ${this.#store.list().length} conversation(s); active has ${this.#store.active.messages.length} message(s).`);
      await this.#refreshKey();
    })();
    this.ready.catch((err: unknown) => s.log.error(`Chat history could not be loaded: ${errorText(err)}`));
    this.#subscriptions.push(
      s.onDidChangeSettings(() => this.#postComposer()),
      s.onDidChangeCatalogue(() => this.#postComposer()),
      s.keys.onDidChange(() => void this.#refreshKey().then(() => this.#postComposer())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.#postComposer()),
    );
  }

  // ---------- state (for the webview and for tests) ----------

  private get store(): ConversationStore {
    if (!this.#store) throw new Error('The chat history is not loaded yet.');
    return this.#store;
  }

  /** The active conversation as the webview sees it. */
  async conversation(): Promise<ConversationView> {
    await this.ready;
    return conversationView(this.store.active);
  }

  async conversations(): Promise<ConversationSummary[]> {
    await this.ready;
    return this.store.list();
  }

  async composer(): Promise<ComposerState> {
    await this.ready;
    return this.#composerState(this.store.active);
  }

  /** Whether an answer is being produced in the active conversation. */
  get busy(): boolean {
    return !!this.#store && this.#runs.has(this.#store.active.id);
  }

  /** Resolves when no answer is running (in any conversation). */
  async whenIdle(): Promise<void> {
    while (this.#runs.size) await Promise.all([...this.#runs.values()].map((r) => r.done));
  }

  /** The wire messages the next request of the active conversation would start with. */
  async requestPreview(): Promise<ChatMessage[]> {
    await this.ready;
    const c = this.store.active;
    return layoutPrompt({ systemPrompt: SYSTEM_PROMPT, pinned: c.pinned, history: wireHistory(c) });
  }

  /** Posts the full state of the active conversation (the webview (re)loaded or switched). */
  async postSnapshot(): Promise<void> {
    await this.ready;
    const c = this.store.active;
    const message: HostMessage = {
      type: 'snapshot',
      conversation: conversationView(c),
      conversations: this.store.list(),
      composer: this.#composerState(c),
      busy: this.#runs.has(c.id),
    };
    // The snapshot already holds every streamed character: pending deltas would double them.
    this.#coalescer.discard();
    this.#posted.fire(message);
  }

  // ---------- webview messages ----------

  /** Handles a message from the webview (already validated with parseWebviewMessage). */
  async handle(msg: WebviewMessage): Promise<void> {
    try {
      await this.ready;
      switch (msg.type) {
        case 'ready':
          return await this.postSnapshot();
        case 'send':
          return await this.send(msg.text);
        case 'stop':
          return this.stop();
        case 'regenerate':
          return await this.regenerate();
        case 'editAndResend':
          return await this.editAndResend(msg.messageId, msg.text);
        case 'newChat':
          return await this.newChat();
        case 'switchConversation':
          await this.switchConversation(msg.conversationId);
          return;
        case 'deleteConversation':
          return await this.#confirmAndDelete(msg.conversationId);
        case 'attachSelection':
          await this.attachSelection();
          return;
        case 'attachFile':
          await this.attachFile();
          return;
        case 'attachImage':
          await this.attachImage();
          return;
        case 'pasteImage':
          await this.attachImageBytes(decodePastedImage(msg.base64), msg.name ?? 'pasted image');
          return;
        case 'removeAttachment':
          return this.removeAttachment(msg.attachmentId);
        case 'copyCode':
          await copyCode(msg.code);
          return this.#notice('info', 'Code copied to the clipboard.');
        case 'insertCode':
          await insertCode(msg.code);
          return;
        case 'applyCode':
          return await this.#applyCode(msg.code);
        case 'openLink':
          if (!(await openLink(msg.href))) this.#services.log.warn('The chat view asked to open a link that is not http(s); ignored.');
          return;
        case 'action':
          if (msg.action === 'retry') return await this.regenerate();
          await runErrorAction(msg.action, this.#services);
          await this.#refreshKey();
          return this.#postComposer();
        case 'draft':
          return this.#setDraft(msg.text);
      }
    } catch (err) {
      this.#services.log.error(`Chat: ${msg.type} failed: ${errorText(err)}`);
      this.#notice('error', describeError(err).message);
    }
  }

  // ---------- turns ----------

  /**
   * Sends a user message in the active conversation with what is attached, and resolves when
   * the answer is finished. Refused (with a notice, and the text put back into the input)
   * when nothing can be sent: no key, an image for a text-only model, a request too large.
   */
  async send(text: string): Promise<void> {
    await this.ready;
    const c = this.store.active;
    if (this.#isBusy(c)) {
      this.#post({ type: 'setDraft', text });
      return this.#notice('info', 'An answer is still being written: stop it (Escape) or wait for it, then send.');
    }
    const { contexts, images, attachments } = nextMessageContext(c);
    if (!text.trim() && contexts.length === 0 && images.length === 0) return;
    const user = await this.#preparingTurn(c, () => this.#prepareTurn(c, text, contexts, images, attachments, c.messages.length));
    if (!user || this.#closing) return;
    c.pending = [];
    c.draft = '';
    this.#addUser(c, user);
    this.#postComposer();
    await this.#answer(c);
  }

  /** Stops the answer of the active conversation at once; its partial text is kept. */
  stop(): void {
    if (!this.#store) return;
    this.#runs.get(this.store.active.id)?.abort.abort();
  }

  /** Replaces the last answer of the active conversation with a new one. */
  async regenerate(): Promise<void> {
    await this.ready;
    const c = this.store.active;
    if (this.#isBusy(c)) return;
    const last = lastAssistant(c);
    if (!last && c.messages[c.messages.length - 1]?.role !== 'user') return;
    const refusal = await this.#preparingTurn(c, () => this.#checkSendable(c, wireHistory(c, last ? c.messages.length - 1 : c.messages.length)));
    if (refusal) return this.#refuse(refusal);
    if (this.#closing || this.#isBusy(c) || (last && lastAssistant(c) !== last)) return;
    if (last) {
      truncateFrom(c, last.id);
      this.#postFor(c, { type: 'truncated', fromMessageId: last.id });
    }
    await this.#answer(c);
  }

  /** Replaces user message `messageId` with `text` (same attachments), drops what followed, and answers again. */
  async editAndResend(messageId: string, text: string): Promise<void> {
    await this.ready;
    const c = this.store.active;
    if (this.#isBusy(c)) return this.#notice('info', 'Stop the current answer before editing a message.');
    const index = c.messages.findIndex((m) => m.id === messageId);
    const old = c.messages[index];
    if (!old || old.role !== 'user') return;
    if (!text.trim()) return this.#notice('info', 'The edited message is empty.');
    const user = await this.#preparingTurn(c, () => this.#prepareTurn(c, text, old.context, imagesOf(old.wire), old.attachments, index));
    if (!user || this.#closing || this.#isBusy(c) || c.messages[index] !== old) return;
    truncateFrom(c, messageId);
    this.#postFor(c, { type: 'truncated', fromMessageId: messageId });
    this.#addUser(c, user);
    await this.#answer(c);
  }

  #isBusy(c: Conversation): boolean {
    return this.#runs.has(c.id) || this.#preparing.has(c.id);
  }

  /** Runs the checks before a turn with the conversation marked busy (no second send meanwhile). */
  async #preparingTurn<T>(c: Conversation, prepare: () => Promise<T>): Promise<T> {
    this.#preparing.add(c.id);
    try {
      return await prepare();
    } finally {
      this.#preparing.delete(c.id);
    }
  }

  /** Builds the user message and checks that the request can go out; undefined when refused. */
  async #prepareTurn(
    c: Conversation,
    text: string,
    contexts: VolatileContext[],
    images: ImageInput[],
    attachments: AttachmentView[],
    historyEnd: number,
  ): Promise<UserRecord | undefined> {
    const wire = userMessage(text, contexts, images);
    const refusal = await this.#checkSendable(c, [...wireHistory(c, historyEnd), wire]);
    if (refusal) {
      this.#post({ type: 'setDraft', text });
      this.#refuse(refusal);
      return undefined;
    }
    return { id: newId(), role: 'user', text, attachments, createdAt: Date.now(), context: contexts, wire };
  }

  /** Everything that must hold before a request is sent; a Refusal when something does not. */
  async #checkSendable(c: Conversation, history: ChatMessage[]): Promise<Refusal | undefined> {
    const s = this.#services.settings();
    const info = this.#modelInfo(s.chatModel);
    const messages = layoutPrompt({ systemPrompt: SYSTEM_PROMPT, pinned: c.pinned, history });
    if (!info.imageInput && hasImages(messages)) {
      return new Refusal(this.#noImagesMessage(info.id, 'this conversation has images'), ['pickModel']);
    }
    try {
      this.#services.gateway.client();
    } catch (err) {
      const e = describeError(err);
      return new Refusal(e.message, e.actions, 'error');
    }
    const key = await this.#services.gateway.ensureKey();
    await this.#refreshKey();
    if (!key) return new Refusal('Nothing was sent: Modelgate needs an API key for the gateway.', ['setKey'], 'error');
    const tokens = estimateRequestTokens(messages, this.#toolsFor(info).tools);
    const reserve = outputReserve(info.contextWindow, info.maxOutput);
    if (tokens > info.contextWindow - reserve) {
      return new Refusal(
        `Nothing was sent: this request is about ${fmt(tokens)} tokens, and ${info.id} takes ${fmt(info.contextWindow)} ` +
          `(${fmt(reserve)} kept free for the answer). Remove attached files or start a new chat.`,
        ['pickModel'],
      );
    }
    return undefined;
  }

  #addUser(c: Conversation, user: UserRecord): void {
    if (c.messages.length === 0 || c.title === NEW_CHAT_TITLE) c.title = titleFrom(user.text);
    c.messages.push(user);
    this.store.changed(c, { touch: true });
    this.#postFor(c, { type: 'messageAdded', message: messageView(user) });
    this.#postFor(c, { type: 'conversations', conversations: this.store.list(), activeId: this.store.active.id });
  }

  /** Streams the answer to the end of the conversation's transcript. */
  async #answer(c: Conversation): Promise<void> {
    if (this.#closing) return;
    let client: ReturnType<Services['gateway']['client']>;
    try {
      client = this.#services.gateway.client();
    } catch (err) {
      const e = describeError(err);
      return this.#notice('error', e.message, e.actions);
    }
    const s = this.#services.settings();
    const model = s.chatModel;
    const channel = s.channel;
    const info = this.#modelInfo(model);
    const tools = this.#toolsFor(info).tools;
    const messages = layoutPrompt({ systemPrompt: SYSTEM_PROMPT, pinned: c.pinned, history: wireHistory(c) });
    const record: AssistantRecord = { id: newId(), role: 'assistant', parts: [], status: 'streaming', model, channel, createdAt: Date.now(), wire: [] };
    c.messages.push(record);
    this.store.changed(c, { touch: true });
    this.#postFor(c, { type: 'messageAdded', message: messageView(record) });

    let finish!: () => void;
    const run: Run = { conversation: c, abort: new AbortController(), done: new Promise<void>((r) => (finish = r)), detached: false };
    this.#runs.set(c.id, run);
    this.#postFor(c, { type: 'busy', busy: true });
    const started = Date.now();
    try {
      const outcome = await runAnswer({
        client,
        model,
        channel,
        messages,
        tools,
        maxToolRounds: s.maxToolRounds,
        signal: run.abort.signal,
        runTools: (calls, signal) => this.#runTools(calls, signal, !!tools),
        describeError: (err) => describeError(err),
        price: this.#services.catalogue().price(model, channel),
        record,
        events: {
          text: (t) => {
            if (run.detached) return;
            if (this.#isActive(c)) this.#coalescer.text(record.id, t);
            this.store.changed(c);
          },
          toolCall: (call) => {
            if (run.detached) return;
            this.#postFor(c, { type: 'toolCall', messageId: record.id, call: { ...call } });
            this.store.changed(c);
          },
        },
      });
      if (run.detached) return; // disposed mid-answer: the record stays as last written
      if (outcome.cost !== undefined) c.totalCost = (c.totalCost ?? 0) + outcome.cost;
      if (outcome.usage) {
        this.#services.usage.record({ source: 'chat', model, channel, usage: outcome.usage, cost: outcome.cost });
      }
      const u = outcome.usage;
      this.#services.log.info(
        `Chat answer ${record.status}: ${model} (${channel}), ${outcome.requests} request(s), ${Date.now() - started} ms` +
          (u ? `, tokens ${u.promptTokens} prompt / ${u.cachedTokens} cached / ${u.completionTokens} completion` : '') +
          (record.error ? `; ${record.error.message}` : ''),
      );
      this.store.changed(c, { touch: true });
      this.#postFor(c, {
        type: 'messageFinished',
        messageId: record.id,
        status: record.status,
        ...(record.usage ? { usage: { ...record.usage } } : {}),
        ...(record.error ? { error: record.error } : {}),
        ...(c.totalCost !== undefined ? { totalCost: c.totalCost } : {}),
      });
    } finally {
      this.#runs.delete(c.id);
      if (!run.detached) {
        this.#postFor(c, { type: 'busy', busy: false });
        if (this.#isActive(c)) this.#postComposer();
        await this.store.flush();
      }
      finish();
    }
  }

  async #runTools(calls: ToolCall[], signal: AbortSignal, offered: boolean): Promise<ToolResult[]> {
    if (!offered || !vscode.workspace.isTrusted) {
      return calls.map(() => ({ content: 'No tools are available in this workspace.', isError: true }));
    }
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort);
    try {
      return await this.#tools.runAll(calls, cts.token);
    } catch (err) {
      this.#services.log.warn(`Chat tools failed: ${errorText(err)}`);
      return calls.map(() => ({ content: `The tool failed: ${errorText(err)}`, isError: true }));
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  // ---------- conversations ----------

  async newChat(): Promise<void> {
    await this.ready;
    this.store.create();
    await this.postSnapshot();
    this.#post({ type: 'focusInput' });
  }

  async switchConversation(id: string): Promise<boolean> {
    await this.ready;
    const c = await this.store.activate(id);
    if (!c) {
      this.#post({ type: 'conversations', conversations: this.store.list(), activeId: this.store.active.id });
      this.#notice('warning', 'That conversation could not be opened; it may have been deleted.');
      return false;
    }
    await this.postSnapshot();
    return true;
  }

  async deleteConversation(id: string): Promise<void> {
    await this.ready;
    const run = this.#runs.get(id);
    if (run) {
      run.detached = true;
      run.abort.abort();
    }
    const wasActive = this.store.active.id === id;
    await this.store.delete(id);
    if (wasActive) await this.postSnapshot();
    else this.#post({ type: 'conversations', conversations: this.store.list(), activeId: this.store.active.id });
  }

  async #confirmAndDelete(id: string): Promise<void> {
    const title = this.store.list().find((s) => s.id === id)?.title ?? 'this conversation';
    const pick = await vscode.window.showWarningMessage(`Delete “${title}”?`, { modal: true, detail: 'Its messages are removed from the chat history.' }, 'Delete');
    if (pick === 'Delete') await this.deleteConversation(id);
  }

  #setDraft(text: string): void {
    const c = this.store.active;
    if (c.draft === text) return;
    c.draft = text;
    this.store.changed(c);
  }

  /** Moves the keyboard focus to the message input (when the view is showing). */
  focusInput(): void {
    this.#post({ type: 'focusInput' });
  }

  // ---------- context ----------

  /** Attaches the editor's selection to the next message. */
  async attachSelection(editor = vscode.window.activeTextEditor): Promise<boolean> {
    await this.ready;
    const a = pickSelection(editor);
    if (isProblem(a)) {
      this.#notice(editor ? 'warning' : 'info', a.problem);
      return false;
    }
    return this.#attached((c) => addPending(c, a));
  }

  /**
   * Pins files to the conversation: `uri`, else the active editor's document, else files the
   * user picks. Pinning a file again replaces its content in place.
   */
  async attachFile(uri?: vscode.Uri): Promise<boolean> {
    await this.ready;
    const { files, problems } = await pickFiles(uri);
    for (const p of problems) this.#notice('warning', p);
    return files.length > 0 && this.#attached((c) => files.forEach((f) => pinFile(c, f)));
  }

  /** Attaches an image file (picked when `uri` is not given) to the next message. */
  async attachImage(uri?: vscode.Uri): Promise<boolean> {
    await this.ready;
    if (!this.#checkImageInput()) return false;
    const file = await pickImageFile(uri);
    return !!file && this.attachImageBytes(file.bytes, file.name);
  }

  /** Attaches image bytes (pasted, or read from a file) to the next message. */
  async attachImageBytes(bytes: Uint8Array, name: string): Promise<boolean> {
    await this.ready;
    if (!this.#checkImageInput()) return false;
    const a = imageAttachment(bytes, name);
    if (isProblem(a)) {
      this.#notice('warning', a.problem);
      return false;
    }
    return this.#attached((c) => addPending(c, a));
  }

  removeAttachment(id: string): void {
    if (!this.#store) return;
    this.#attached((c) => removeAttachment(c, id));
  }

  /** Applies a change of the active conversation's attachments; true when it changed them. */
  #attached(change: (c: Conversation) => boolean | void): boolean {
    const c = this.store.active;
    if (change(c) === false) return false;
    this.store.changed(c);
    this.#postComposer();
    return true;
  }

  #checkImageInput(): boolean {
    const info = this.#modelInfo(this.#services.settings().chatModel);
    if (info.imageInput) return true;
    this.#notice('warning', this.#noImagesMessage(info.id, 'images cannot be attached'), ['pickModel']);
    return false;
  }

  #noImagesMessage(model: string, what: string): string {
    const alt = this.#services.catalogue().chatModels().find((m) => m.imageInput);
    return `${model} accepts text only, so ${what}. Nothing was sent.${alt ? ` Pick a model with image input (for example ${alt.id}) to use images.` : ''}`;
  }

  async #applyCode(code: string): Promise<void> {
    const r = await applyCode(code, this.#proposals);
    if (r === 'noEditor') this.#notice('info', 'Open the file to change (and select the code to replace), then click Apply again.');
    else if (r === 'changed') this.#notice('warning', 'The file changed while the diff was open; nothing was applied. Click Apply again.');
  }

  // ---------- helpers ----------

  #modelInfo(id: string): ChatModelInfo {
    return chatModelInfo(this.#services.catalogue(), id);
  }

  #toolsFor(info: ChatModelInfo): ToolOffer {
    return toolOffer(info, vscode.workspace.isTrusted, this.#services.settings().maxToolRounds, () => this.#tools.definitions());
  }

  #composerState(c: Conversation): ComposerState {
    const s = this.#services.settings();
    const info = this.#modelInfo(s.chatModel);
    return composerState(c, info, s.channel, this.#toolsFor(info), this.#hasKey);
  }


  async #refreshKey(): Promise<void> {
    try {
      this.#hasKey = !!(await this.#services.keys.get());
    } catch {
      this.#hasKey = false;
    }
  }

  #isActive(c: Conversation): boolean {
    return !!this.#store && this.#store.active.id === c.id;
  }

  #post(message: HostMessage): void {
    if (this.#closing) return;
    this.#coalescer.post(message);
  }

  /** Posts a message about conversation `c` only while it is the one on screen. */
  #postFor(c: Conversation, message: HostMessage): void {
    if (this.#isActive(c)) this.#post(message);
  }

  #postComposer(): void {
    if (!this.#store || this.#closing) return;
    this.#post({ type: 'composer', composer: this.#composerState(this.store.active) });
  }

  #notice(level: 'info' | 'warning' | 'error', message: string, actions?: ErrorAction[]): void {
    this.#post(actions?.length ? { type: 'notice', level, message, actions } : { type: 'notice', level, message });
  }

  #refuse(r: Refusal): void {
    this.#notice(r.level, r.message, r.actions);
  }

  /**
   * Stops posting and writes the history as it is now, like a window that closes: an answer
   * still streaming stays marked streaming on disk and is shown as interrupted next time.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const run of this.#runs.values()) run.detached = true;
      await this.ready.catch(() => undefined);
      const written = this.#store?.close() ?? Promise.resolve();
      for (const run of this.#runs.values()) run.abort.abort();
      this.#coalescer.dispose();
      for (const d of this.#subscriptions) d.dispose();
      await written;
      this.#posted.dispose();
    })();
    return this.#closing;
  }

  dispose(): void {
    void this.close();
  }
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export type { ErrorView };
