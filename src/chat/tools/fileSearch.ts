// Enumerates workspace files through VS Code's file search (files.exclude applied by VS Code itself),
// then drops every hit whose real location is outside the workspace: the search follows symlinks
// (search.followSymlinks defaults to true), so a linked folder that points elsewhere would
// otherwise show up in listings and searches.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mapLimited, raceCancellation } from './cancellation';
import { ToolError } from './errors';
import { assertNotExcluded, resolveUri, type Target } from './workspaceAccess';

export interface FileSearchResult {
  files: Target[];
  /** the search returned more than `limit` files */
  limitHit: boolean;
  /** hits dropped because they resolve outside the workspace, into .git or onto an excluded file */
  escaped: number;
}

export async function findWorkspaceFiles(
  folder: vscode.WorkspaceFolder,
  pattern: string,
  exclude: string,
  limit: number,
  token: vscode.CancellationToken,
): Promise<FileSearchResult> {
  const uris = await raceCancellation(vscode.workspace.findFiles(new vscode.RelativePattern(folder, pattern), exclude, limit + 1, token), token);
  const limitHit = uris.length > limit;
  const candidates = uris
    .map((uri) => ({ uri, rel: path.posix.relative(folder.uri.path, uri.path) }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
    .slice(0, limit);
  const resolved = await mapLimited(candidates, 16, token, async (c) => {
    const t = await resolveUri(c.uri);
    if (!t || !t.exists) return undefined;
    if (t.realFolder === t.folder && t.realRelative === t.relative) return t; // the search already applied files.exclude
    // A symlink: judge it by where it leads too (.git, files.exclude).
    try {
      await assertNotExcluded(t, token);
      return t;
    } catch (e) {
      if (e instanceof ToolError) return undefined;
      throw e;
    }
  });
  const files = resolved.filter((t): t is Target => t !== undefined);
  return { files, limitHit, escaped: candidates.length - files.length };
}
