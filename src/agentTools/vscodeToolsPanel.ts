// What the chat (composer state, message routing) needs of the tools from VS Code
// (src/agentTools/vscodeTools): the picker's rows and its switches. Types only, so the answer runs can
// name it without depending on that folder.
import type * as vscode from 'vscode';
import type { VscodeToolView } from './toolViews';

export interface VscodeToolsPanel {
  /** the picker's rows for a conversation (every foreign tool VS Code lists now) */
  picker(conversationId: string): VscodeToolView[];
  /** whether VS Code's tools (or the price) differ from what picker() last listed; records them */
  changedSinceListed(): boolean;
  /** switches a tool on or off for a conversation; false when VS Code lists no such tool */
  toggle(conversationId: string, name: string): boolean;
  /** the conversation was deleted */
  forget(conversationId: string): void;
  /** VS Code's list of tools changed (an MCP server started or stopped, an extension came) */
  onDidChange(listener: () => void): vscode.Disposable;
}
