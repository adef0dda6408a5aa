// Enumerates workspace files through VS Code's file search (files.exclude applied by VS Code itself),
// then drops every hit whose real location is outside the workspace: the search follows symlinks
// (search.followSymlinks defaults to true), so a linked folder that points elsewhere would
// otherwise show up in listings and searches.
import { path } from '../../platform/path';
import type * as vscode from 'vscode';
import { mapLimited } from './cancellation';
import { ToolError } from './errors';
import { assertNotExcluded, findFilesIn, resolveUri, type Target } from './workspaceAccess';

export interface FileSearchResult {
  files: Target[];
  /** the search returned more than `limit` files */
  limitHit: boolean;
}

export async function findWorkspaceFiles(
  folder: vscode.WorkspaceFolder,
  pattern: string,
  exclude: string,
  limit: number,
  token: vscode.CancellationToken,
): Promise<FileSearchResult> {
  // Ask for some more than needed: hits the guard drops must not make a full page look short.
  const ask = limit + 1 + Math.min(limit, 100);
  const uris = await findFilesIn(folder, pattern, exclude, ask, token);
  const candidates = uris
    .map((uri) => ({ uri, rel: path.posix.relative(folder.uri.path, uri.path) }))
    .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
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
  const allowed = resolved.filter((t): t is Target => t !== undefined);
  return {
    files: allowed.slice(0, limit),
    limitHit: allowed.length > limit || uris.length >= ask,
  };
}
