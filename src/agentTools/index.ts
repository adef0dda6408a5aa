// Read-only workspace tools the chat model may call: read_file, list_files, search_text,
// get_selection, get_diagnostics. None of them writes anything. They run only in a trusted
// workspace, never outside the workspace folders (see src/core/workspace/pathGuard.ts), and every result is
// plain text for the model, capped in size. Errors never throw: they become isError results that
// say what was wrong, so the model can correct its call. Files that may hold secrets (.env, private
// keys, credentials: src/core/workspace/sensitiveFiles.ts) are returned only after the user allows it, one
// question per read; search_text skips them (see sensitiveAccess.ts).
import * as vscode from 'vscode';
import type { ToolCall, ToolDefinition } from '../core/client/types';
import { throwIfCancelled } from './cancellation';
import { ToolCancelled, ToolError } from './errors';
import { fileErrorReason } from './fileAccess';
import { getDiagnosticsTool } from './getDiagnostics';
import { getSelectionTool } from './getSelection';
import { listFilesTool } from './listFiles';
import { readFileTool } from './readFile';
import { isEditToolName, isToolName, parseToolArgs, TOOL_DEFINITIONS, TOOL_NAMES, type ToolName } from './schemas';
import { searchTextTool } from './searchText';
import type { ApproveSensitiveRead } from './approvalQueue';
import { promptSensitiveRead, SensitiveReadGate } from './sensitiveAccess';
import { capResult } from './text';
import { stagedNote } from './stagedNote';
import { COMMANDS_SUPPORTED } from '../platform/commandProcess';
import { runCommandTool, type RunCommandDeps } from './runCommand';
import type { StagedView, ToolRunContext } from './toolContext';
import type { ToolResult } from './chatTools';
import { errorText } from '../core/errorText';
export type { StagedView, ToolRunContext } from './toolContext';
export type { ToolResult } from './chatTools';

export type { ApproveSensitiveRead } from './approvalQueue';
export type { SensitiveReadRequest, SensitiveReadTool } from './sensitivePrompt';

export interface WorkspaceToolsOptions {
  /**
   * Asked before a file that may hold secrets reaches the model (read_file, get_selection, and
   * get_diagnostics for one file). Default: a modal warning with "Allow Once". Tests pass their own.
   */
  approveSensitiveRead?: ApproveSensitiveRead;
  /** the edit tools (edit_file, create_file, delete_file) are offered only with one (src/workspaceEdits/toolEdits) */
  edits?: EditHost;
  /**
   * What run_command needs: the panel's approval cards, the user's command settings, the log.
   * Without it (and in the web extension host, which has no processes) run_command is not offered.
   */
  commands?: RunCommandDeps;
}

export type EditToolName = 'edit_file' | 'create_file' | 'delete_file';

/** What the tools need of the edits under review (src/workspaceEdits/toolEdits). */
export interface EditHost {
  /** false: no edit tool is offered (no workspace storage for checkpoints) */
  available(): boolean;
  /** runs an edit tool; throws ToolError for the model */
  run(name: EditToolName, args: unknown, context: ToolRunContext, token: vscode.CancellationToken): Promise<string>;
  /** the text answer `answerId` staged for the file at `key` (a resolved URI); undefined text: it deleted the file */
  staged(key: string, answerId: string): { text: string | undefined } | undefined;
  /** where the files answer `answerId` created (pending) will be */
  created(answerId: string): vscode.Uri[];
  /** the files with changes staged in conversation `conversationId` that the user has not kept (not on disk yet) */
  unsaved(conversationId: string): string[];
}

/** Why run_command may be missing; the model reads it in the system prompt (src/chat/context/systemPrompt.ts). */
export const NO_COMMANDS_MESSAGE =
  'run_command is not available: commands run only in a trusted workspace (not in Restricted Mode) and not in VS Code for the Web. Nothing was run. Tell the user the command to run instead.';

export interface WorkspaceTools extends vscode.Disposable {
  /** tool definitions to offer; [] in an untrusted workspace or when no folder is open */
  definitions(): ToolDefinition[];
  /** runs one call; never throws (errors become isError results the model can read); respects the token */
  run(call: ToolCall, token: vscode.CancellationToken, context?: ToolRunContext): Promise<ToolResult>;
  /** runs several calls concurrently (parallel tool calls), results in the same order */
  runAll(calls: ToolCall[], token: vscode.CancellationToken, context?: ToolRunContext): Promise<ToolResult[]>;
}

export const UNTRUSTED_MESSAGE =
  'Workspace tools are disabled because this workspace is not trusted (Restricted Mode). Nothing was read. Answer without workspace access, or ask the user to trust the workspace.';
export const CANCELLED_MESSAGE = 'Cancelled: the user stopped the request.';

const error = (content: string): ToolResult => ({ content: capResult(content), isError: true });

class WorkspaceToolsImpl implements WorkspaceTools {
  /** set when VS Code reports that trust was granted, in case `isTrusted` is read before it updates */
  private trustGranted = false;
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly sensitiveGate: SensitiveReadGate;
  private readonly edits: EditHost | undefined;
  private readonly commands: RunCommandDeps | undefined;

  constructor(options: WorkspaceToolsOptions) {
    this.edits = options.edits;
    this.commands = COMMANDS_SUPPORTED ? options.commands : undefined;
    this.sensitiveGate = new SensitiveReadGate(options.approveSensitiveRead ?? promptSensitiveRead);
    this.subscriptions.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.trustGranted = true;
      }),
    );
  }

  private get trusted(): boolean {
    return vscode.workspace.isTrusted || this.trustGranted;
  }

  private get hasFolder(): boolean {
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
  }

  definitions(): ToolDefinition[] {
    if (this.disposed || !this.trusted || !this.hasFolder) return [];
    const editing = this.edits?.available() === true;
    const offered = TOOL_DEFINITIONS.filter((d) => this.offered(d.function.name) && (editing || !isEditToolName(d.function.name)));
    return structuredClone(offered) as ToolDefinition[];
  }

  private offered(name: string): boolean {
    if (!isToolName(name)) return false;
    if (isEditToolName(name)) return this.edits?.available() === true;
    if (name === 'run_command') return !!this.commands;
    return true;
  }

  async run(call: ToolCall, token: vscode.CancellationToken, context?: ToolRunContext): Promise<ToolResult> {
    // Trust first: in Restricted Mode nothing below (path resolution, stat, search) may run.
    if (!this.trusted) return error(UNTRUSTED_MESSAGE);
    if (this.disposed) return error('Workspace tools are no longer available.');
    if (!this.hasFolder) return error('No folder is open in VS Code, so there are no workspace files to read.');
    // before the unknown-tool answer: the model is told why there is no run_command (web host)
    if (call.name === 'run_command' && !this.commands) return error(NO_COMMANDS_MESSAGE);
    if (!isToolName(call.name) || !this.offered(call.name)) {
      return error(`Unknown tool "${call.name}". Available tools: ${TOOL_NAMES.filter((n) => this.offered(n)).join(', ')}.`);
    }
    if (token.isCancellationRequested) return error(CANCELLED_MESSAGE);
    const parsed = parseToolArgs(call.name, typeof call.arguments === 'string' ? call.arguments : '');
    if (!parsed.ok) return error(parsed.message);
    try {
      const content = await this.dispatch(call.name, parsed.args, token, context);
      throwIfCancelled(token);
      return { content: capResult(content), isError: false };
    } catch (e) {
      if (e instanceof ToolCancelled || token.isCancellationRequested) return error(CANCELLED_MESSAGE);
      if (e instanceof ToolError) return error(e.message);
      // Node and VS Code file-system errors carry absolute paths in their message: report the code only.
      const reason = fileErrorReason(e);
      if (reason) return error(`${call.name} failed: ${reason}.`);
      const message = errorText(e);
      return error(`${call.name} failed unexpectedly: ${message.slice(0, 300)}`);
    }
  }

  runAll(calls: ToolCall[], token: vscode.CancellationToken, context?: ToolRunContext): Promise<ToolResult[]> {
    return Promise.all(calls.map((c) => this.run(c, token, context)));
  }

  private dispatch(name: ToolName, args: unknown, token: vscode.CancellationToken, context: ToolRunContext | undefined): Promise<string> {
    // args were validated against the schema of `name` by parseToolArgs.
    // The answer's own staged edits: its reads, listings and searches see them (not the disk).
    const edits = this.edits;
    const staged: StagedView | undefined =
      edits && context ? { lookup: (key) => edits.staged(key, context.messageId), created: () => edits.created(context.messageId) } : undefined;
    // A secret-looking file is asked about in this answer's card (the panel's approver), else a modal.
    const gate = this.sensitiveGate.for(context);
    // changes staged for review and not kept: a command and VS Code's problems do not see them
    const unsaved = () => (edits && context ? edits.unsaved(context.conversationId) : []);
    switch (name) {
      case 'read_file':
        return readFileTool(args as Parameters<typeof readFileTool>[0], gate, token, staged && ((key) => staged.lookup(key)));
      case 'edit_file':
      case 'create_file':
      case 'delete_file':
        if (!this.edits || !context) throw new ToolError('The edit tools are not available here. Nothing was changed.');
        return this.edits.run(name, args, context, token);
      case 'list_files':
        return listFilesTool(args as Parameters<typeof listFilesTool>[0], token, staged);
      case 'search_text':
        return searchTextTool(args as Parameters<typeof searchTextTool>[0], token, staged);
      case 'get_selection':
        return getSelectionTool(gate, token);
      case 'get_diagnostics':
        return getDiagnosticsTool(args as Parameters<typeof getDiagnosticsTool>[0], gate, token).then((r) => `${stagedNote(unsaved(), 'get_diagnostics')}${r}`);
      case 'run_command':
        return runCommandTool(args as Parameters<typeof runCommandTool>[0], context, token, this.commands!, unsaved);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }
}

export function createWorkspaceTools(options: WorkspaceToolsOptions = {}): WorkspaceTools {
  return new WorkspaceToolsImpl(options);
}
