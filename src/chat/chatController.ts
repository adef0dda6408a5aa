// The chat's host side: owns the conversations, turns what the user does (through the webview
// or the API) into requests, and tells the webview what changed as small messages (a snapshot
// only when it (re)loads or switches conversation; deltas after that).
//
// The parts live beside it: ChatOutput (what is posted to the webview), sendChecks (the checks
// before a request), AnswerRuns (the answers being written), ChatAttachments (context for the
// next message). This file routes messages and keeps the conversation-level operations.
//
// It is also the extension's public chat API (activate() returns it), which the integration
// tests use to drive a chat without a DOM. Services are held in a #private field: other
// extensions that read our exports get the chat, not the key store.
import * as vscode from 'vscode';
import type { ChatModelInfo } from '../core/catalogue/modelCatalogue';
import { imagesOf, layoutPrompt, userMessage, type ImageInput, type VolatileContext } from '../core/prompt/promptLayout';
import type { ChatMessage } from '../core/client/types';
import type { AttachmentView, ComposerState, ConversationSummary, ConversationView, ErrorView, HostMessage, WebviewMessage } from './protocol';
import type { Services } from '../services/serviceContainer';
import { describeError, runErrorAction } from '../services/userErrors';
import { AnswerRuns, errorText, type ChatTools } from './answers/activeAnswers';
import { CacheLossNotices } from './answers/cacheLossWarning';
import { ChatAttachments } from './context/chatAttachments';
import { ChatOutput } from './view/chatOutput';
import type { ChatScope } from './chatScope';
import type { ChatApply } from './apply';
import type { ChatEdits } from './edits';
import { EditsPanel } from './edits/editsPanel';
import type { ApprovalChange, PanelApprovals } from './tools/panelApproval';
import { copyCode, insertCode, openLink } from './view/codeActions';
import { ConversationStore, type StorageBackend } from './conversations/conversationStore';
import { decodePastedImage } from '../core/prompt/imageInput';
import { budgetStillRefuses, checkSendable, refuse } from './answers/sendChecks';
import { SYSTEM_PROMPT } from './context/systemPrompt';
import { ProjectRules } from './context/rulesFiles';
import { systemPromptWithRules } from '../core/prompt/projectRules';
import { chatModelInfo, composerState, nextMessageContext, pinnedFor, toolOffer, type ToolOffer } from './context/turnContext';
import {
  conversationView,
  lastAssistant,
  messageView,
  newId,
  titleFrom,
  truncateFrom,
  wireHistory,
  NEW_CHAT_TITLE,
  type Conversation,
  type UserRecord,
} from './conversations/conversationTranscript';

export type { ChatTools } from './answers/activeAnswers';

export interface ChatControllerOptions {
  services: Services;
  backend: StorageBackend;
  tools: ChatTools;
  apply: Pick<ChatApply, 'propose'>;
  /** the model's edits under review (src/chat/edits); absent: the panel has no edits */
  edits?: ChatEdits;
  /** the panel's approval cards (src/chat/tools/panelApproval.ts), shared with the tools */
  approvals: PanelApprovals;
}

export class ChatController implements vscode.Disposable {
  readonly #services: Services;
  readonly #tools: ChatTools;
  readonly #apply: Pick<ChatApply, 'propose'>;
  readonly #approvals: PanelApprovals;
  readonly #rules = new ProjectRules();
  #store: ConversationStore | undefined;
  readonly #out: ChatOutput;
  readonly #scope: ChatScope;
  readonly #runs: AnswerRuns;
  readonly #attachments: ChatAttachments;
  readonly #edits: EditsPanel | undefined;
  /** conversations whose next turn is being checked (key prompt, ...): a second send waits its turn */
  readonly #preparing = new Set<string>();
  readonly #subscriptions: vscode.Disposable[] = [];
  #hasKey = false;
  #closing: Promise<void> | undefined;

  /** Every message for the webview, in order (text deltas coalesced). */
  readonly onDidPost: vscode.Event<HostMessage>;
  /** Resolves once the history is loaded; every method waits for it. */
  readonly ready: Promise<void>;

  constructor(options: ChatControllerOptions) {
    this.#services = options.services;
    this.#tools = options.tools;
    this.#apply = options.apply;
    this.#approvals = options.approvals;
    this.#out = new ChatOutput(
      (c) => this.#isActive(c),
      () => this.#store?.active.id,
    );
    this.onDidPost = this.#out.onDidPost;
    const controller = this;
    this.#scope = {
      services: options.services,
      out: this.#out,
      rules: this.#rules,
      store: () => this.store,
      modelInfo: (id) => this.#modelInfo(id),
      toolsFor: (info) => this.#toolsFor(info),
      postComposer: () => this.#postComposer(),
      refreshKey: () => this.#refreshKey(),
      get closing() {
        return !!controller.#closing;
      },
    };
    this.#edits = options.edits ? new EditsPanel(options.edits, this.#scope) : undefined;
    this.#runs = new AnswerRuns(this.#scope, this.#tools, this.#edits ? (c, answerId) => this.#edits!.answerEnded(c, answerId) : undefined);
    this.#attachments = new ChatAttachments(this.#scope);
    const s = options.services;
    this.ready = (async () => {
      this.#store = await ConversationStore.open(options.backend, { warn: (m) => s.log.warn(m), onExternalChange: () => void this.postSnapshot() });
      s.log.info(`Chat history: ${this.#store.list().length} conversation(s); active has ${this.#store.active.messages.length} message(s).`);
      await this.#refreshKey();
      // the composer's rules chips (read again before each turn)
      void this.#rules.refresh().then(() => this.#postComposer());
    })();
    this.ready.catch((err: unknown) => s.log.error(`Chat history could not be loaded: ${errorText(err)}`));
    this.#subscriptions.push(
      s.onDidChangeSettings(() => {
        this.#postComposer();
        this.#budgetMayBeFixed();
      }),
      s.onDidChangeCatalogue(() => this.#postComposer()),
      s.keys.onDidChange(() => void this.#refreshKey().then(() => this.#postComposer())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.#postComposer()),
      new CacheLossNotices(this.#scope),
      ...(this.#edits ? [this.#edits] : []),
      options.approvals.onDidChange((change) => this.#postApproval(change)),
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
  whenIdle(): Promise<void> {
    return this.#runs.whenIdle();
  }

  /** The wire messages the next request of the active conversation would start with. */
  async requestPreview(): Promise<ChatMessage[]> {
    await this.ready;
    const c = this.store.active;
    return layoutPrompt({ systemPrompt: systemPromptWithRules(SYSTEM_PROMPT, this.#rules.inUse(c.id)), pinned: pinnedFor(c), history: wireHistory(c) });
  }

  /** Posts the full state of the active conversation (the webview (re)loaded or switched). */
  async postSnapshot(): Promise<void> {
    await this.ready;
    const c = this.store.active;
    this.#out.snapshot({
      type: 'snapshot',
      conversation: conversationView(c),
      conversations: this.store.list(),
      composer: this.#composerState(c),
      busy: this.#runs.has(c.id),
    });
    await this.#edits?.post(c);
    // the webview lost its cards with its page: the one waiting for an answer comes back
    const shown = this.#approvals.shownIn(c.id);
    if (shown) this.#out.post({ type: 'approvalRequest', approval: shown });
  }

  #postApproval(change: ApprovalChange): void {
    if (!this.#store || this.#store.active.id !== change.conversationId) return;
    if (change.kind === 'shown') this.#out.post({ type: 'approvalRequest', approval: change.approval });
    else this.#out.post({ type: 'approvalDone', id: change.id });
  }

  #simulatorDemoNoted = false;

  /**
   * The demo only (services.simulatorDemo, set through the public API by `npm start`'s seeder with
   * a loopback gateway): says once per window that the answers are scripted, and how to leave.
   */
  #noteSimulatorDemo(): void {
    if (this.#simulatorDemoNoted || !this.#services.simulatorDemo.on) return;
    this.#simulatorDemoNoted = true;
    this.#out.notice(
      'info',
      vscode.l10n.t(
        'Demo: this gateway is the Modelgate simulator on your machine, and its answers are scripted (try "What does mean() do?"). To use a real gateway, run "Modelgate: Set Gateway Address" and "Modelgate: Set API Key".',
      ),
    );
  }

  // ---------- webview messages ----------

  /** Handles a message from the webview (already validated with parseWebviewMessage). */
  async handle(msg: WebviewMessage): Promise<void> {
    try {
      await this.ready;
      switch (msg.type) {
        case 'ready':
          await this.postSnapshot();
          return this.#noteSimulatorDemo();
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
        case 'openConversations':
          await vscode.commands.executeCommand('modelgate.openConversation');
          return;
        case 'attachSelection':
          await this.attachSelection();
          return;
        case 'attachFile':
          await this.attachFile();
          return;
        case 'attachImage':
          await this.attachImage();
          return;
        case 'attachDiagnostics':
          await this.attachProblems();
          return;
        case 'pasteImage':
          await this.attachImageBytes(decodePastedImage(msg.base64), msg.name ?? 'pasted image');
          return;
        case 'removeAttachment':
          return this.removeAttachment(msg.attachmentId);
        case 'copyCode':
          await copyCode(msg.code);
          return this.#out.notice('info', vscode.l10n.t('Code copied to the clipboard.'), [], { conversation: 'panel', transient: true });
        case 'insertCode':
          await insertCode(msg.code);
          return;
        case 'applyCode': {
          const r = await this.#apply.propose({ code: msg.code, language: msg.language, conversation: this.store.active });
          if (r.kind === 'refused') this.#out.notice('warning', r.message, [], { conversation: this.store.active });
          return;
        }
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
        case 'editReview':
        case 'restoreAnswer':
        case 'setAutoAccept':
          return await this.#edits?.handle(msg, this.store.active);
        case 'toggleRules':
          if (this.#rules.toggle(this.store.active.id, msg.path)) this.#postComposer();
          return;
        case 'approvalAnswer':
          if (!this.#approvals.answer(msg.id, msg.choiceId)) this.#services.log.warn('The chat view answered a question that is not open; ignored.');
          return;
      }
    } catch (err) {
      this.#services.log.error(`Chat: ${msg.type} failed: ${errorText(err)}`);
      this.#out.notice('error', describeError(err).message);
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
      this.#out.post({ type: 'setDraft', text });
      return this.#out.notice('info', vscode.l10n.t('An answer is still being written: stop it (Escape) or wait for it, then send.'), [], {
        conversation: c,
        topic: 'busy',
      });
    }
    const { contexts, images, attachments } = nextMessageContext(c);
    if (!text.trim() && contexts.length === 0 && images.length === 0) return;
    const user = await this.#preparingTurn(c, () => this.#prepareTurn(c, text, contexts, images, attachments, c.messages.length));
    if (!user || this.#closing) return;
    c.pending = [];
    c.draft = '';
    this.#addUser(c, user);
    this.#postComposer();
    await this.#runs.answer(c);
  }

  /** Stops the answer of the active conversation at once; its partial text is kept. */
  stop(): void {
    if (!this.#store) return;
    this.#runs.stop(this.store.active.id);
  }

  /** Replaces the last answer of the active conversation with a new one. */
  async regenerate(): Promise<void> {
    await this.ready;
    const c = this.store.active;
    if (this.#isBusy(c)) return;
    const last = lastAssistant(c);
    if (!last && c.messages[c.messages.length - 1]?.role !== 'user') return;
    const refusal = await this.#preparingTurn(c, () => checkSendable(this.#scope, c, wireHistory(c, last ? c.messages.length - 1 : c.messages.length)));
    if (refusal) return refuse(this.#scope, c, refusal);
    if (this.#closing || this.#isBusy(c) || (last && lastAssistant(c) !== last)) return;
    if (last) {
      truncateFrom(c, last.id);
      this.#out.postFor(c, { type: 'truncated', fromMessageId: last.id });
    }
    await this.#runs.answer(c);
  }

  /** Replaces user message `messageId` with `text` (same attachments), drops what followed, and answers again. */
  async editAndResend(messageId: string, text: string): Promise<void> {
    await this.ready;
    const c = this.store.active;
    if (this.#isBusy(c))
      return this.#out.notice('info', vscode.l10n.t('Stop the current answer before editing a message.'), [], { conversation: c, topic: 'busy' });
    const index = c.messages.findIndex((m) => m.id === messageId);
    const old = c.messages[index];
    if (!old || old.role !== 'user') return;
    if (!text.trim()) return this.#out.notice('info', vscode.l10n.t('The edited message is empty.'), [], { conversation: c, transient: true });
    const user = await this.#preparingTurn(c, () => this.#prepareTurn(c, text, old.context, imagesOf(old.wire), old.attachments, index));
    if (!user || this.#closing || this.#isBusy(c) || c.messages[index] !== old) return;
    truncateFrom(c, messageId);
    this.#out.postFor(c, { type: 'truncated', fromMessageId: messageId });
    this.#addUser(c, user);
    await this.#runs.answer(c);
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
    const refusal = await checkSendable(this.#scope, c, [...wireHistory(c, historyEnd), wire]);
    if (refusal) {
      this.#out.post({ type: 'setDraft', text });
      refuse(this.#scope, c, refusal);
      return undefined;
    }
    return { id: newId(), role: 'user', text, attachments, createdAt: Date.now(), context: contexts, wire };
  }

  #addUser(c: Conversation, user: UserRecord): void {
    if (!c.renamed && (c.messages.length === 0 || c.title === NEW_CHAT_TITLE)) c.title = titleFrom(user.text);
    c.messages.push(user);
    this.store.changed(c, { touch: true });
    this.#out.postFor(c, { type: 'messageAdded', message: messageView(user) });
    this.#out.postFor(c, { type: 'conversations', conversations: this.store.list(), activeId: this.store.active.id });
  }

  // ---------- conversations ----------

  async newChat(): Promise<void> {
    await this.ready;
    this.store.create();
    await this.postSnapshot();
    this.#out.post({ type: 'focusInput' });
  }

  async switchConversation(id: string): Promise<boolean> {
    await this.ready;
    const c = await this.store.activate(id);
    if (!c) {
      this.#out.post({ type: 'conversations', conversations: this.store.list(), activeId: this.store.active.id });
      this.#out.notice('warning', vscode.l10n.t('That conversation could not be opened; it may have been deleted.'), [], { conversation: this.store.active });
      return false;
    }
    await this.postSnapshot();
    return true;
  }

  async deleteConversation(id: string): Promise<void> {
    await this.ready;
    this.#runs.discard(id);
    this.#approvals.cancelConversation(id);
    const wasActive = this.store.active.id === id;
    await this.store.delete(id);
    if (wasActive) await this.postSnapshot();
    else this.#out.post({ type: 'conversations', conversations: this.store.list(), activeId: this.store.active.id });
  }

  /** Gives a conversation the user's title (the conversation list's Rename). */
  async renameConversation(id: string, title: string): Promise<boolean> {
    await this.ready;
    if (!(await this.store.rename(id, title))) return false;
    this.#out.post({ type: 'conversations', conversations: this.store.list(), activeId: this.store.active.id });
    return true;
  }

  /** The stored history, once loaded (for the conversation list, conversationList.ts). */
  async history(): Promise<ConversationStore> {
    await this.ready;
    return this.store;
  }

  async #confirmAndDelete(id: string): Promise<void> {
    const title = this.store.list().find((s) => s.id === id)?.title ?? vscode.l10n.t('this conversation');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete “{0}”?', title),
      { modal: true, detail: vscode.l10n.t('Its messages are removed from the chat history.') },
      vscode.l10n.t('Delete'),
    );
    if (pick === vscode.l10n.t('Delete')) await this.deleteConversation(id);
  }

  #setDraft(text: string): void {
    const c = this.store.active;
    if (c.draft === text) return;
    c.draft = text;
    this.store.changed(c);
  }

  /** Moves the keyboard focus to the message input (when the view is showing). */
  focusInput(): void {
    this.#out.post({ type: 'focusInput' });
  }

  // ---------- context (see ChatAttachments) ----------

  /** Attaches the editor's selection to the next message. */
  async attachSelection(editor = vscode.window.activeTextEditor): Promise<boolean> {
    await this.ready;
    return this.#attachments.attachSelection(editor);
  }

  /** Attaches the editor file's problems (else the workspace's errors) to the next message. */
  async attachProblems(editor = vscode.window.activeTextEditor): Promise<boolean> {
    await this.ready;
    return this.#attachments.attachProblems(editor);
  }

  /** Pins files to the conversation: `uri`, else the files the user picks (the open ones offered first). */
  async attachFile(uri?: vscode.Uri): Promise<boolean> {
    await this.ready;
    return this.#attachments.attachFile(uri);
  }

  /** Attaches an image file (picked when `uri` is not given) to the next message. */
  async attachImage(uri?: vscode.Uri): Promise<boolean> {
    await this.ready;
    return this.#attachments.attachImage(uri);
  }

  /** Attaches image bytes (pasted, or read from a file) to the next message. */
  async attachImageBytes(bytes: Uint8Array, name: string): Promise<boolean> {
    await this.ready;
    return this.#attachments.attachImageBytes(bytes, name);
  }

  removeAttachment(id: string): void {
    if (!this.#store) return;
    this.#attachments.remove(id);
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
    const state = composerState(c, info, s.channel, this.#toolsFor(info), this.#hasKey);
    const rules = this.#rules.chips(c.id);
    if (rules.length) state.rules = rules;
    return state;
  }

  async #refreshKey(): Promise<void> {
    try {
      this.#hasKey = !!(await this.#services.keys.get());
    } catch {
      this.#hasKey = false;
    }
  }

  /** A budget notice leaves once the settings no longer stop a send (the budget raised or removed, a price set). */
  #budgetMayBeFixed(): void {
    const s = this.#services.settings();
    if (!budgetStillRefuses(this.#services, s.chatModel, s.channel)) this.#out.resolved('budget');
  }

  #isActive(c: Conversation): boolean {
    return !!this.#store && this.#store.active.id === c.id;
  }

  #postComposer(): void {
    if (!this.#store || this.#closing) return;
    this.#out.post({ type: 'composer', composer: this.#composerState(this.store.active) });
  }

  /**
   * Stops posting and writes the history as it is now, like a window that closes: an answer
   * still streaming stays marked streaming on disk and is shown as interrupted next time.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#runs.detachAll();
      this.#out.close();
      await this.ready.catch(() => undefined);
      const written = this.#store?.close() ?? Promise.resolve();
      this.#runs.abortAll();
      for (const d of this.#subscriptions) d.dispose();
      await written;
      this.#out.dispose();
    })();
    return this.#closing;
  }

  dispose(): void {
    void this.close();
  }
}

export type { ErrorView };
