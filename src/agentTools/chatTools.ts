// What an answer calls on the tools (src/chat/answers): the definitions to offer and the calls of
// one round, and what each call returns. The workspace tools implement it; VS Code's tools
// (./vscodeTools) and generate_image (./imageGeneration.ts) wrap it and add their own.
import type * as vscode from 'vscode';
import type { ToolCall, ToolDefinition } from '../core/client/types';
import type { ToolRunContext } from './toolContext';
import type { VscodeToolsPanel } from './vscodeToolsPanel';

export interface ToolResult {
  content: string;
  isError: boolean;
  /** the user declined the call (shown as not run) */
  denied?: boolean;
  /** images a tool from VS Code returned (data URLs), for a model that takes image input: sent after the tool results */
  modelImages?: string[];
  /** image files the tool saved (workspace paths as the content names them): shown inline after the call */
  images?: string[];
}

/** The tools the chat offers: only what the chat needs of them. */
export interface ChatTools {
  /** the tools to offer; with a conversation, also the tools from VS Code switched on there (./vscodeTools) */
  definitions(conversationId?: string): ToolDefinition[];
  runAll(calls: ToolCall[], token: vscode.CancellationToken, context?: ToolRunContext): Promise<ToolResult[]>;
  /** USD the tools spent in this conversation's answer (generated images), taken once */
  takeImageCost?(conversationId: string): number | undefined;
  /** VS Code's tools (MCP servers, other extensions) and the panel's picker of them */
  vscodeTools?: VscodeToolsPanel;
}
