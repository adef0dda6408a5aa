// The chat feature: the webview view, its commands and the public chat API. src/featureLoading/lazyFeatures.ts calls
// registerChat on first use (the view resolving, a chat command, the API) and pushes the
// disposables; it registers the view's provider itself (from activation), and hands it to `provider`.
import * as vscode from 'vscode';
import { CHAT_COMMANDS, commandTable } from '../shared/featureIds';
import type { Services } from '../services/serviceContainer';
import { ChatController } from './chatController';
import { ChatViewProvider, CHAT_VIEW_ID } from './view/chatViewProvider';
import { controllerListHost, showConversationList, type ConversationListOptions, type ConversationListSession } from './conversations/conversationList';
import { registerApply, type ChatApply } from '../workspaceEdits/apply';
import { FileBackend } from './conversations/conversationFiles';
import { createWorkspaceTools } from '../agentTools';
import { withPanelImageTool, type PanelImageToolLike } from '../agentTools/imageGeneration';
import { createChatEdits, type ChatEdits } from '../workspaceEdits/toolEdits';
import { PanelApprovals } from './cards/panelApprovals';
import { sensitiveReadInPanel } from '../agentTools/sensitiveAccess';
import { withVscodeTools } from '../agentTools/vscodeTools';

export { ChatController } from './chatController';
export { CHAT_VIEW_ID } from './view/chatViewProvider';

export interface ChatApi {
  /** The controller behind the chat view (replaced by `reload`). */
  readonly controller: ChatController;
  /**
   * Closes the controller the way a window reload does (an answer still streaming stays as it
   * was last written) and opens a new one from the stored history; the view switches to it.
   */
  reload(): Promise<ChatController>;
  /** Folder of the stored chat history (JSON files). */
  readonly storageUri: vscode.Uri;
  /** The view's message entry, what it served and what it posted, and whether its page holds the keyboard (for the CSP, fuzz, image and focus tests). */
  readonly view: Pick<ChatViewProvider, 'receive' | 'served' | 'onDidDeliver' | 'pageHasFocus'>;
  /** Opens the conversation list (what "Modelgate: Open Conversation…" does); the session drives it. */
  conversationList(options?: ConversationListOptions): Promise<ConversationListSession>;
  /** Apply of code blocks: proposed changes, Accept/Discard (src/workspaceEdits/apply). */
  readonly apply: ChatApply;
  /** The model's edits under review: Keep, Undo, checkpoints (src/workspaceEdits/toolEdits). */
  readonly edits: ChatEdits;
}

/**
 * On start (and on ChatApi.reload): removes the edit checkpoints of conversations that were
 * deleted (also in another window) or are not in the history any more (src/workspaceEdits/toolEdits/checkpoints.ts).
 */
async function sweepCheckpoints(controller: ChatController, edits: ChatEdits): Promise<void> {
  try {
    const store = await controller.history();
    const live = new Set(store.list().map((s) => s.id));
    await edits.sweep((id) => (live.has(id) ? 'live' : store.wasDeleted(id) ? 'deleted' : 'unknown'));
  } catch {
    // a window closing meanwhile; the next start sweeps
  }
}

export function registerChat(
  services: Services,
  /** Modelgate's generate_image tool for the panel (built on first use by src/featureLoading/lazyFeatures.ts) */
  imageTool?: () => PanelImageToolLike,
): { disposables: vscode.Disposable[]; api: ChatApi; provider: vscode.WebviewViewProvider } {
  const storageUri = vscode.Uri.joinPath(services.context.globalStorageUri, 'chat');
  const approvals = new PanelApprovals();
  const edits = createChatEdits(services.context.storageUri, (m) => services.log.info(m), approvals);
  const workspaceTools = createWorkspaceTools({
    edits,
    approveSensitiveRead: sensitiveReadInPanel(approvals),
    commands: { approvals, settings: () => services.settings(), log: services.log },
  });
  const tools = withVscodeTools(withPanelImageTool(workspaceTools, imageTool, approvals), {
    approvals,
    defaults: () => services.settings().vscodeTools,
    inputPrice: () => {
      const s = services.settings();
      return services.catalogue().price(s.chatModel, s.channel)?.input;
    },
    log: (line) => services.log.warn(line),
  });
  const { apply, disposables: applyDisposables } = registerApply(services.log);
  const open = () => {
    const c = new ChatController({ services, backend: new FileBackend(storageUri), tools, apply, edits, approvals });
    void sweepCheckpoints(c, edits);
    return c;
  };
  let controller = open();
  const provider = new ChatViewProvider(services.context.extensionUri, controller, services.log);

  const focus = () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  const listHost = controllerListHost(() => controller, focus);
  const api: ChatApi = {
    get controller() {
      return controller;
    },
    async reload() {
      await controller.close();
      edits.reset();
      controller = open();
      provider.setController(controller);
      await controller.ready;
      return controller;
    },
    storageUri,
    view: provider,
    conversationList: (options) => showConversationList(listHost, options),
    apply,
    edits,
  };

  // exactly the commands of CHAT_COMMANDS (src/shared/featureIds.ts: src/featureLoading/lazyFeatures.ts proxies them until now)
  const commands = commandTable(CHAT_COMMANDS, {
    openChat: async () => {
      await focus();
      // A view opened cold may not take the keyboard until its page has loaded: the workbench's
      // focus can reach an empty frame. Once the page has said `ready`, focus it again (what a
      // second press did) unless it holds the keyboard by then: focusing the view again takes the
      // keyboard away for a moment, and what the user types then is lost. The page also says when
      // the workbench gives it the focus after `ready` (while the host was still sending it the
      // conversation), so that focus is not taken away either.
      if (!provider.isReady && (await provider.whenReady(10_000)) && !provider.pageHasFocus) await focus();
      controller.focusInput();
    },
    newChat: async () => {
      await controller.newChat();
      await focus();
    },
    openConversation: async () => {
      await showConversationList(listHost);
    },
    askAboutSelection: async () => {
      const editor = vscode.window.activeTextEditor; // before the panel takes focus
      await focus();
      await controller.attachSelection(editor);
      controller.focusInput();
    },
    attachProblems: async () => {
      const editor = vscode.window.activeTextEditor; // before the panel takes focus
      await focus();
      await controller.attachProblems(editor);
      controller.focusInput();
    },
    compactConversation: async (instructions?: unknown) => {
      await focus();
      await controller.compact(typeof instructions === 'string' ? instructions : undefined);
    },
    undoCompaction: async () => {
      await controller.undoCompaction();
    },
    exportConversation: async (target?: unknown) => {
      await controller.exportConversation(target instanceof vscode.Uri ? target : undefined);
    },
  });

  const disposables: vscode.Disposable[] = [
    ...commands.map(([id, run]) => vscode.commands.registerCommand(id, run)),
    provider,
    ...applyDisposables,
    workspaceTools,
    edits,
    { dispose: () => controller.dispose() },
    approvals,
  ];
  return { disposables, api, provider };
}
