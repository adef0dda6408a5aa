import type * as vscode from 'vscode';

// Where a tool call comes from: the panel shows a tool's questions (approval cards) in that answer.
export interface ToolRunContext {
  conversationId: string;
  messageId: string;
  /** the answer's model takes image input (a tool's images may go to it) */
  imageInput?: boolean;
}

/**
 * What the answer's edit tools staged (src/workspaceEdits/toolEdits), as the read-only tools of the same answer
 * see it: read_file, list_files and search_text show the answer's own changes, not the disk.
 */
export interface StagedView {
  /** the staged text of the file at `key` (a resolved URI; undefined text: deleted), or undefined: nothing staged */
  lookup(key: string): { text: string | undefined } | undefined;
  /** where the files the answer created (not saved yet) will be */
  created(): vscode.Uri[];
}
