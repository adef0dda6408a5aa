// What the panel does to whole conversations: open a new one, switch, delete (its answer, its
// approval cards, its tools from VS Code, its rules chips and its edits go with it) and rename.
// The controller (chatController.ts) owns this and exposes each as its public method.
import * as vscode from 'vscode';
import type { ChatScope } from './chatScope';
import type { AnswerRuns } from './answers/answerRuns';
import type { PanelApprovals } from './cards/panelApprovals';
import type { EditsPanel } from './cards/editsPanel';
import type { ChatTools } from '../agentTools/chatTools';

export class ConversationActions {
  constructor(
    private readonly scope: ChatScope,
    private readonly parts: {
      runs: AnswerRuns;
      approvals: PanelApprovals;
      tools: ChatTools;
      edits: EditsPanel | undefined;
      /** posts the whole active conversation (the webview switched) */
      postSnapshot(): Promise<void>;
    },
  ) {}

  #postList(): void {
    const store = this.scope.store();
    this.scope.out.post({ type: 'conversations', conversations: store.list(), activeId: store.active.id });
  }

  async newChat(): Promise<void> {
    this.scope.store().create();
    await this.parts.postSnapshot();
    this.scope.out.post({ type: 'focusInput' });
  }

  async switchTo(id: string): Promise<boolean> {
    const store = this.scope.store();
    const c = await store.activate(id);
    if (!c) {
      this.#postList();
      this.scope.out.notice('warning', vscode.l10n.t('That conversation could not be opened; it may have been deleted.'), [], { conversation: store.active });
      return false;
    }
    await this.parts.postSnapshot();
    return true;
  }

  async delete(id: string): Promise<void> {
    const store = this.scope.store();
    this.parts.runs.discard(id);
    this.parts.approvals.cancelConversation(id);
    this.parts.tools.vscodeTools?.forget(id);
    const wasActive = store.active.id === id;
    await store.delete(id);
    this.scope.rules.forget(id);
    if (wasActive) await this.parts.postSnapshot();
    else this.#postList();
    await this.parts.edits?.conversationDeleted(id);
  }

  async rename(id: string, title: string): Promise<boolean> {
    if (!(await this.scope.store().rename(id, title))) return false;
    this.#postList();
    return true;
  }
}
