// Routes each (already validated) message of the chat webview to what handles it: the user's
// turns and conversation operations on the controller, the code-block actions, Apply, the
// edits under review, the rules chips, the picker of tools from VS Code and the approval cards. A failure becomes a notice in
// the panel, never an unhandled rejection.
import * as vscode from 'vscode';
import type { WebviewMessage } from './protocol';
import type { ChatScope } from './chatScope';
import type { ChatApply } from '../workspaceEdits/apply';
import type { EditsPanel } from './cards/editsPanel';
import type { PanelApprovals } from './cards/panelApprovals';
import type { VscodeToolsPanel } from '../agentTools/vscodeToolsPanel';
import { describeError, runErrorAction } from '../shared/userErrors';
import { errorText } from '../core/errorText';
import { copyCode, insertCode, openLink } from './view/codeActions';
import { decodePastedImage } from '../core/prompt/imageInput';
import type { ComposerQuotes } from './quote/composerQuotes';
import { askEnvelope } from './quote/envelopeLimit';

/** What the router asks of the controller (ChatController implements it). */
export interface ChatActions {
  postSnapshot(): Promise<void>;
  send(text: string): Promise<void>;
  stop(): void;
  regenerate(): Promise<void>;
  editAndResend(messageId: string, text: string): Promise<void>;
  newChat(): Promise<void>;
  switchConversation(id: string): Promise<boolean>;
  deleteConversation(id: string): Promise<void>;
  attachSelection(): Promise<boolean>;
  attachFile(): Promise<boolean>;
  attachImage(): Promise<boolean>;
  attachProblems(): Promise<boolean>;
  attachImageBytes(bytes: Uint8Array, name: string): Promise<boolean>;
  removeAttachment(id: string): void;
  undoCompaction(): Promise<boolean>;
  compactAndRetry(): Promise<void>;
}

export interface ChatMessageRouterOptions {
  scope: ChatScope;
  actions: ChatActions;
  apply: Pick<ChatApply, 'propose'>;
  approvals: PanelApprovals;
  edits: EditsPanel | undefined;
  /** the picker of tools from VS Code (src/agentTools/vscodeTools) */
  vscodeTools?: VscodeToolsPanel | undefined;
  /** the quote next to Send: recomputed as the draft changes */
  quotes: Pick<ComposerQuotes, 'schedule'>;
}

export class ChatMessageRouter {
  #simulatorDemoNoted = false;

  constructor(private readonly o: ChatMessageRouterOptions) {}

  /** Handles a message from the webview (already validated with parseWebviewMessage). */
  async handle(msg: WebviewMessage): Promise<void> {
    const { scope, actions } = this.o;
    const { out, services } = scope;
    // the demo's seeder may say so only after a panel restored on reload was ready: said on the next message then
    if (msg.type !== 'ready') this.#noteSimulatorDemo();
    try {
      switch (msg.type) {
        case 'ready':
          await actions.postSnapshot();
          return this.#noteSimulatorDemo();
        case 'send':
          return await actions.send(msg.text);
        case 'stop':
          return actions.stop();
        case 'regenerate':
          return await actions.regenerate();
        case 'editAndResend':
          return await actions.editAndResend(msg.messageId, msg.text);
        case 'newChat':
          return await actions.newChat();
        case 'switchConversation':
          await actions.switchConversation(msg.conversationId);
          return;
        case 'deleteConversation':
          return await this.#confirmAndDelete(msg.conversationId);
        case 'openConversations':
          await vscode.commands.executeCommand('modelgate.openConversation');
          return;
        case 'attachSelection':
          await actions.attachSelection();
          return;
        case 'attachFile':
          await actions.attachFile();
          return;
        case 'attachImage':
          await actions.attachImage();
          return;
        case 'attachDiagnostics':
          await actions.attachProblems();
          return;
        case 'pasteImage':
          await actions.attachImageBytes(decodePastedImage(msg.base64), msg.name ?? 'pasted image');
          return;
        case 'removeAttachment':
          return actions.removeAttachment(msg.attachmentId);
        case 'copyCode':
          await copyCode(msg.code);
          return out.notice('info', vscode.l10n.t('Code copied to the clipboard.'), [], { conversation: 'panel', transient: true });
        case 'insertCode':
          await insertCode(msg.code);
          return;
        case 'applyCode': {
          const conversation = scope.store().active;
          const r = await this.o.apply.propose({ code: msg.code, language: msg.language, conversation });
          if (r.kind === 'refused') out.notice('warning', r.message, [], { conversation });
          return;
        }
        case 'openLink':
          if (!(await openLink(msg.href))) services.log.warn('The chat view asked to open a link that is not http(s); ignored.');
          return;
        case 'action':
          if (msg.action === 'retry') return await actions.regenerate();
          if (msg.action === 'newChat') return await actions.newChat();
          if (msg.action === 'compactRetry') return await actions.compactAndRetry();
          if (msg.action === 'undoCompaction') return void (await actions.undoCompaction());
          await runErrorAction(msg.action, services);
          await scope.refreshKey();
          return scope.postComposer();
        case 'draft':
          this.#setDraft(msg.text);
          return this.o.quotes.schedule();
        case 'editReview':
        case 'restoreAnswer':
        case 'setAutoAccept':
          return await this.o.edits?.handle(msg, scope.store().active);
        case 'toggleRules':
          if (scope.rules.toggle(scope.store().active.id, msg.path)) scope.postComposer();
          return;
        case 'refreshVscodeTools':
          // sent on every focus of the panel: nothing is posted (nothing redrawn) unless the list changed
          if (this.o.vscodeTools?.changedSinceListed()) scope.postComposer();
          return;
        case 'toggleVscodeTool':
          if (this.o.vscodeTools?.toggle(scope.store().active.id, msg.name)) scope.postComposer();
          return;
        case 'approvalAnswer':
          if (!this.o.approvals.answer(msg.id, msg.choiceId)) services.log.warn('The chat view answered a question that is not open; ignored.');
          return;
        case 'setEnvelope': {
          const c = scope.store().active;
          if (await askEnvelope(scope, c)) this.o.quotes.schedule(0);
          return;
        }
        case 'openImage':
          return; // the view provider opens it (chatViewProvider.receive): it owns the images' webview URIs
        case 'keyboardFocus':
          return; // the view provider keeps it (chatViewProvider.pageHasFocus), for Open Chat
        default:
          msg satisfies never; // every message of protocol.ts has a case above: a new one without a case does not compile
          return;
      }
    } catch (err) {
      services.log.error(`Chat: ${msg.type} failed: ${errorText(err)}`);
      out.notice('error', describeError(err).message);
    }
  }

  /**
   * The demo only (services.simulatorDemo, set through the public API by `npm start`'s seeder with
   * a loopback gateway): says once per window that the answers are scripted, and how to leave. A
   * notice of the panel, not of a conversation: New Chat or another conversation keeps it.
   */
  #noteSimulatorDemo(): void {
    if (this.#simulatorDemoNoted || !this.o.scope.services.simulatorDemo.on) return;
    this.#simulatorDemoNoted = true;
    this.o.scope.out.notice(
      'info',
      vscode.l10n.t(
        'Demo: this gateway is the Modelgate simulator on your machine, and its answers are scripted (try "What does mean() do?"). To use a real gateway, run "Modelgate: Set Gateway Address" and "Modelgate: Set API Key".',
      ),
      [],
      { conversation: 'panel' },
    );
  }

  async #confirmAndDelete(id: string): Promise<void> {
    const title =
      this.o.scope
        .store()
        .list()
        .find((s) => s.id === id)?.title ?? vscode.l10n.t('this conversation');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t('Delete “{0}”?', title),
      { modal: true, detail: vscode.l10n.t('Its messages are removed from the chat history.') },
      vscode.l10n.t('Delete'),
    );
    if (pick === vscode.l10n.t('Delete')) await this.o.actions.deleteConversation(id);
  }

  #setDraft(text: string): void {
    const store = this.o.scope.store();
    const c = store.active;
    if (c.draft === text) return;
    c.draft = text;
    store.changed(c);
  }
}
