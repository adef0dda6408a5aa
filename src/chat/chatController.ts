// The chat's host side: owns the conversations, turns what the user does (through the webview
// or the API) into requests, and tells the webview what changed as small messages (a snapshot
// only when it (re)loads or switches conversation; deltas after that).
//
// The parts live beside it: ChatMessageRouter (the webview's messages, chatMessages.ts), ChatTurns
// (send, regenerate, edit), ChatOutput (what is posted to the webview), AnswerRuns (the answers
// being written), ChatAttachments (context for the next message). This file owns them and keeps
// the conversation-level operations.
//
// It is also the extension's public chat API (activate() returns it), which the integration
// tests use to drive a chat without a DOM. Services are held in a #private field: other
// extensions that read our exports get the chat, not the key store.
import * as vscode from 'vscode';
import type { ChatMessage } from '../core/client/types';
import type { ComposerState, ConversationSummary, ConversationView, ErrorView, HostMessage, WebviewMessage } from './protocol';
import type { Services } from '../services/serviceContainer';
import { describeError } from '../shared/userErrors';
import { AnswerRuns } from './answers/answerRuns';
import { errorText } from '../core/errorText';
import type { ChatTools } from '../agentTools/chatTools';
import { ChatTurns } from './answers/chatTurns';
import { ChatMessageRouter } from './chatMessages';
import { CacheLossNotices } from './answers/cacheLossWarning';
import { ChatAttachments } from './context/chatAttachments';
import { ChatOutput } from './view/chatOutput';
import type { ChatScope } from './chatScope';
import type { ChatApply } from '../workspaceEdits/apply';
import type { ChatEdits } from '../workspaceEdits/toolEdits';
import { EditsPanel } from './cards/editsPanel';
import type { ApprovalChange, PanelApprovals } from './cards/panelApprovals';
import { ConversationStore } from './conversations/conversationStore';
import type { StorageBackend } from './conversations/conversationStorage';
import { budgetStillRefuses } from './answers/sendChecks';
import { ProjectRules } from './context/rulesFiles';
import { requestMessages } from './context/turnContext';
import { conversationView, type Conversation } from './conversations/conversationTranscript';
import { ComposerQuotes } from './quote/composerQuotes';
import { ConversationCompactor } from './compaction/conversationCompactor';
import { compactCommand } from './compaction/overflowErrors';
import type { CompactionAsk } from './compaction/compactionTriggers';
import { exportConversation } from './conversations/conversationExport';
import { ConversationActions } from './conversationActions';
import { PanelFacts } from './context/panelFacts';
import { ESTIMATE_RULE } from '../core/quote/promptCount';

export interface ChatControllerOptions {
  services: Services;
  backend: StorageBackend;
  tools: ChatTools;
  apply: Pick<ChatApply, 'propose'>;
  /** the model's edits under review (src/workspaceEdits/toolEdits); absent: the panel has no edits */
  edits?: ChatEdits;
  /** the panel's approval cards (src/chat/cards/panelApprovals.ts), shared with the tools */
  approvals: PanelApprovals;
}

export class ChatController implements vscode.Disposable {
  readonly #services: Services;
  readonly #tools: ChatTools;
  readonly #approvals: PanelApprovals;
  readonly #rules: ProjectRules;
  readonly #facts: PanelFacts;
  #store: ConversationStore | undefined;
  readonly #out: ChatOutput;
  readonly #scope: ChatScope;
  readonly #runs: AnswerRuns;
  readonly #attachments: ChatAttachments;
  readonly #edits: EditsPanel | undefined;
  readonly #turns: ChatTurns;
  readonly #compactor: ConversationCompactor;
  readonly #quotes: ComposerQuotes;
  readonly #router: ChatMessageRouter;
  readonly #conversations: ConversationActions;
  readonly #subscriptions: vscode.Disposable[] = [];
  #closing: Promise<void> | undefined;

  /** Every message for the webview, in order (text deltas coalesced). */
  readonly onDidPost: vscode.Event<HostMessage>;
  /** Resolves once the history is loaded; every method waits for it. */
  readonly ready: Promise<void>;

  constructor(options: ChatControllerOptions) {
    this.#services = options.services;
    // the chips switched off, per conversation, kept across reloads (the rules files are this workspace's)
    this.#rules = new ProjectRules(options.services.context.workspaceState);
    this.#tools = options.tools;
    this.#facts = new PanelFacts(options.services, options.tools, this.#rules);
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
      modelInfo: (id) => this.#facts.modelInfo(id),
      toolsFor: (info, conversationId) => this.#facts.toolsFor(info, conversationId),
      postComposer: () => this.#postComposer(),
      refreshKey: () => this.#facts.refreshKey(),
      get closing() {
        return !!controller.#closing;
      },
    };
    this.#edits = options.edits ? new EditsPanel(options.edits, this.#scope) : undefined;
    // the panel counts with the calibrated estimate: the tokenizers load with the lm feature, not here
    this.#quotes = new ComposerQuotes(
      this.#scope,
      (id) => this.#runs.has(id),
      () => ESTIMATE_RULE,
    );
    const ended = this.#edits ? (c: Conversation, answerId: string) => this.#edits!.answerEnded(c, answerId) : undefined;
    this.#compactor = new ConversationCompactor(this.#scope, (c) => this.#turns.isBusy(c), this.#quotes);
    this.#runs = new AnswerRuns(this.#scope, this.#tools, ended, this.#quotes, options.approvals, this.#compactor);
    this.#attachments = new ChatAttachments(this.#scope);
    this.#turns = new ChatTurns(this.#scope, this.#runs, this.#compactor);
    this.#conversations = new ConversationActions(this.#scope, {
      runs: this.#runs,
      approvals: options.approvals,
      tools: this.#tools,
      edits: this.#edits,
      postSnapshot: () => this.postSnapshot(),
    });
    this.#router = new ChatMessageRouter({
      scope: this.#scope,
      actions: this,
      apply: options.apply,
      approvals: options.approvals,
      edits: this.#edits,
      vscodeTools: this.#tools.vscodeTools,
      quotes: this.#quotes,
    });
    const s = options.services;
    const rules = this.#rules;
    const facts = this.#facts;
    this.ready = (async () => {
      this.#store = await ConversationStore.open(options.backend, { warn: (m) => s.log.warn(m), onExternalChange: () => void this.postSnapshot() });
      s.log.info(`Chat history: ${this.#store.list().length} conversation(s); active has ${this.#store.active.messages.length} message(s).`);
      await facts.refreshKey();
      // the composer's rules chips (read again before each turn)
      void rules.refresh().then(() => this.#postComposer());
    })();
    this.ready.catch((err: unknown) => s.log.error(`Chat history could not be loaded: ${errorText(err)}`));
    this.#subscriptions.push(
      s.onDidChangeSettings(() => {
        this.#postComposer();
        this.#budgetMayBeFixed();
      }),
      s.onDidChangeCatalogue(() => this.#postComposer()),
      s.keys.onDidChange(() => void this.#facts.refreshKey().then(() => this.#postComposer())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.#postComposer()),
      new CacheLossNotices(this.#scope),
      this.#quotes,
      ...(this.#edits ? [this.#edits] : []),
      options.approvals.onDidChange((change) => this.#postApproval(change)),
      // the picker of tools from VS Code follows VS Code's list (an MCP server started, an extension came)
      ...(this.#tools.vscodeTools ? [this.#tools.vscodeTools.onDidChange(() => this.#postComposer())] : []),
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
    return this.#facts.composerState(this.store.active);
  }

  /** Whether an answer is being produced in the active conversation. */
  get busy(): boolean {
    return !!this.#store && this.#runs.has(this.#store.active.id);
  }

  /** The quote next to Send (what sending now would cost) and the conversation's spending limit. */
  get quotes(): Pick<ComposerQuotes, 'refresh' | 'last' | 'setEnvelope' | 'whenSettled'> {
    return this.#quotes;
  }

  /** Resolves when no answer is running (in any conversation). */
  whenIdle(): Promise<void> {
    return this.#runs.whenIdle();
  }

  /** The wire messages the next request of the active conversation would start with. */
  async requestPreview(): Promise<ChatMessage[]> {
    await this.ready;
    const c = this.store.active;
    const tools = this.#facts.toolsFor(this.#facts.modelInfo(this.#services.settings().chatModel), c.id).tools;
    return requestMessages(c, tools, this.#rules.inUse(c.id));
  }

  /** Posts the full state of the active conversation (the webview (re)loaded or switched). */
  async postSnapshot(): Promise<void> {
    await this.ready;
    const c = this.store.active;
    this.#out.snapshot({
      type: 'snapshot',
      conversation: conversationView(c),
      conversations: this.store.list(),
      composer: this.#facts.composerState(c),
      busy: this.#runs.has(c.id),
    });
    await this.#edits?.post(c);
    // the webview lost its cards with its page: the one waiting for an answer comes back
    const shown = this.#approvals.shownIn(c.id);
    if (shown) this.#out.post({ type: 'approvalRequest', approval: shown });
    this.#quotes.schedule(0);
  }

  #postApproval(change: ApprovalChange): void {
    if (!this.#store || this.#store.active.id !== change.conversationId) return;
    if (change.kind === 'shown') this.#out.post({ type: 'approvalRequest', approval: change.approval });
    else this.#out.post({ type: 'approvalDone', id: change.id });
  }

  // ---------- webview messages (chatMessages.ts) ----------

  /** Handles a message from the webview (already validated with parseWebviewMessage). */
  async handle(msg: WebviewMessage): Promise<void> {
    try {
      await this.ready;
    } catch (err) {
      this.#services.log.error(`Chat: ${msg.type} failed: ${errorText(err)}`);
      return this.#out.notice('error', describeError(err).message);
    }
    return this.#router.handle(msg);
  }

  // ---------- turns ----------

  /**
   * Sends a user message in the active conversation with what is attached, and resolves when
   * the answer is finished. Refused (with a notice, and the text put back into the input)
   * when nothing can be sent: no key, an image for a text-only model, a request too large.
   */
  async send(text: string): Promise<void> {
    await this.ready;
    const slash = compactCommand(text);
    if (slash === undefined) return this.#turns.send(text);
    if (!(await this.compact(slash))) this.#out.post({ type: 'setDraft', text });
  }

  /** Compacts the active conversation (`instructions`: what the summary must keep); false when it was not. */
  async compact(instructions?: string): Promise<boolean> {
    await this.ready;
    return this.#compactor.compactFromPanel(this.store.active, instructions);
  }

  /** Restores what was sent before the last compaction (until the next send). */
  async undoCompaction(): Promise<boolean> {
    await this.ready;
    return this.#compactor.undoFromPanel(this.store.active);
  }

  /** Replaces the question `modelgate.chat.compaction: ask` puts (a modal the tests cannot click); undefined: the modal again. */
  setCompactionAsk(ask: CompactionAsk | undefined): void {
    this.#compactor.setAsk(ask);
  }

  /** The error card's Compact and Retry: compacts, then answers the last request again. */
  async compactAndRetry(): Promise<void> {
    if (await this.compact()) await this.regenerate();
  }

  /** Writes the active conversation, its whole history, as Markdown (`target`, else where the save dialog says). */
  async exportConversation(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    await this.ready;
    return exportConversation(this.#scope, this.store.active, target);
  }

  /** Stops the answer of the active conversation at once; its partial text is kept. */
  stop(): void {
    if (!this.#store) return;
    this.#runs.stop(this.store.active.id);
  }

  /** Replaces the last answer of the active conversation with a new one. */
  async regenerate(): Promise<void> {
    await this.ready;
    return this.#turns.regenerate();
  }

  /** Replaces user message `messageId` with `text` (same attachments), drops what followed, and answers again. */
  async editAndResend(messageId: string, text: string): Promise<void> {
    await this.ready;
    return this.#turns.editAndResend(messageId, text);
  }

  // ---------- conversations ----------

  async newChat(): Promise<void> {
    await this.ready;
    return this.#conversations.newChat();
  }

  async switchConversation(id: string): Promise<boolean> {
    await this.ready;
    return this.#conversations.switchTo(id);
  }

  async deleteConversation(id: string): Promise<void> {
    await this.ready;
    return this.#conversations.delete(id);
  }

  /** Gives a conversation the user's title (the conversation list's Rename). */
  async renameConversation(id: string, title: string): Promise<boolean> {
    await this.ready;
    return this.#conversations.rename(id, title);
  }

  /** The stored history, once loaded (for the conversation list, conversationList.ts). */
  async history(): Promise<ConversationStore> {
    await this.ready;
    return this.store;
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
    this.#out.post({ type: 'composer', composer: this.#facts.composerState(this.store.active) });
    this.#quotes.schedule();
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
