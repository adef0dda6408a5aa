// Enumerates workspace files through VS Code's file search (files.exclude applied by VS Code itself),
// then drops every hit whose real location is outside the workspace: the search follows symlinks
// (search.followSymlinks defaults to true), so a linked folder that points elsewhere would
// otherwise show up in listings and searches.
import { path } from '../platform/path';
import * as vscode from 'vscode';
import { mapLimited } from './cancellation';
import { ToolError } from './errors';
import { excludeGlob } from './globs';
import type { StagedView } from './toolContext';
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

/**
 * The files this answer created (staged, not on disk yet, so the file search cannot find them)
 * that `pattern` matches in `folder`, unless files.exclude, `extraExclude` (search.exclude) or the
 * always-skipped folders hide them: matched by VS Code's own globs (languages.match, which reads
 * only a document's uri and language), as the file search would match them once saved. Sorted.
 */
export async function createdFilesIn(
  staged: StagedView | undefined,
  folder: vscode.WorkspaceFolder,
  pattern: string,
  extraExclude?: Record<string, unknown>,
): Promise<Target[]> {
  const uris = staged?.created() ?? [];
  if (uris.length === 0) return [];
  const filesExclude = vscode.workspace.getConfiguration('files', folder.uri).get<Record<string, unknown>>('exclude') ?? {};
  const include = new vscode.RelativePattern(folder, pattern);
  const exclude = new vscode.RelativePattern(folder, excludeGlob({ ...filesExclude, ...extraExclude }));
  const out: Target[] = [];
  for (const uri of uris) {
    const t = await resolveUri(uri);
    if (!t || t.realFolder.uri.toString() !== folder.uri.toString()) continue;
    const doc = { uri: t.uri, languageId: '' } as unknown as vscode.TextDocument;
    if (vscode.languages.match({ pattern: include }, doc) === 0 || vscode.languages.match({ pattern: exclude }, doc) > 0) continue;
    out.push(t);
  }
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** The answer deleted this file (staged): listings and searches leave it out. */
export function deletedIn(staged: StagedView | undefined, t: Target): boolean {
  const own = staged?.lookup(t.uri.toString());
  return own !== undefined && own.text === undefined;
}
