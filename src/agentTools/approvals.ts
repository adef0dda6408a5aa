// The user's say before a tool acts (run a command, read or write a file that may hold secrets,
// use a tool from VS Code, generate an image): what the tools ask, and the one method they need of
// whoever shows the question. The chat panel implements it with a card in the answer
// (PanelApprovals); the wiring hands it in (src/chat/index.ts), so the tools never import the panel.
import type * as vscode from 'vscode';
import type { ApprovalChoiceView } from './toolViews';

export interface ApprovalQuestion {
  conversationId: string;
  /** the answer the card is shown in */
  messageId: string;
  title: string;
  detail?: string[];
  /** shown as code, e.g. the exact command */
  code?: string;
  choices: ApprovalChoiceView[];
  /** must be one of `choices`: the default button and the answer on cancellation */
  safeChoiceId: string;
}

export interface Approvals {
  /**
   * Asks `question` and resolves with the id of the choice the user pressed; with the safe choice
   * when the token fires or the question cannot be shown any more.
   */
  ask(question: ApprovalQuestion, token: vscode.CancellationToken): Promise<string>;
}
