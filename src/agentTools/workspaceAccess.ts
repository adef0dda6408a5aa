// The one place where workspace tools turn a model-supplied path into something readable.
// Every read goes: guardPath (lexical + realpath containment) -> .git / files.exclude check -> read
// (fileAccess.ts: Node's fs for `file` URIs, vscode.workspace.fs for virtual file systems).
import * as vscode from 'vscode';
import { guardPath, type GuardRoot, type GuardedPath } from '../core/workspace/pathGuard';
import { nodeFs } from '../platform/fs';
import { assertNoSymlinkBelow } from './symlinkGuard';
import { ToolError } from './errors';
import { FileMissing, readUri, statUri, type FileInfo } from './fileAccess';
import { escapeGlob } from './globs';
import { LIMITS } from './limits';
import { SearchGate, MAX_RUNNING_FILE_SEARCHES } from './searchGate';
import { decodeText, looksBinary } from './text';

export interface Target {
  /** the folder the model addressed */
  folder: vscode.WorkspaceFolder;
  /** path inside that folder as the model addressed it, '/'-separated, '' for the folder itself */
  relative: string;
  /** how results name it: `relative`, or `folderName/relative` in a multi-root workspace */
  display: string;
  /** the resolved location (symlinks followed): read from this */
  uri: vscode.Uri;
  /** the location as addressed (diagnostics and open editors are keyed by it) */
  lexicalUri: vscode.Uri;
  /** the folder that contains the resolved location, and the path inside it */
  realFolder: vscode.WorkspaceFolder;
  realRelative: string;
  exists: boolean;
}

export function workspaceFolders(): readonly vscode.WorkspaceFolder[] {
  return vscode.workspace.workspaceFolders ?? [];
}

/** `file` folders get realpath containment where Node's fs exists (not in the web build: src/platform/fs.web.ts). */
function realpathable(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && nodeFs !== undefined;
}

function guardRoots(folders: readonly vscode.WorkspaceFolder[]): GuardRoot[] {
  return folders.map((f) =>
    realpathable(f.uri) ? { name: f.name, path: f.uri.fsPath, kind: 'fs' as const } : { name: f.name, path: f.uri.path, kind: 'uri' as const },
  );
}

export function displayPath(folder: vscode.WorkspaceFolder, relative: string): string {
  const multi = workspaceFolders().length > 1;
  if (!multi) return relative === '' ? '.' : relative;
  return relative === '' ? folder.name : `${folder.name}/${relative}`;
}

function toTarget(folders: readonly vscode.WorkspaceFolder[], g: GuardedPath): Target {
  const folder = folders[g.rootIndex]!;
  const realFolder = folders[g.realRootIndex]!;
  const isFile = realpathable(folder.uri);
  return {
    folder,
    relative: g.relative,
    display: displayPath(folder, g.relative),
    uri: isFile ? vscode.Uri.file(g.realPath) : vscode.Uri.joinPath(folder.uri, g.relative),
    lexicalUri: isFile ? vscode.Uri.file(g.lexicalPath) : vscode.Uri.joinPath(folder.uri, g.relative),
    realFolder,
    realRelative: g.realRelative,
    exists: g.exists,
  };
}

/** Resolves a model-supplied path; throws ToolError when it is not inside the workspace. */
export async function resolvePath(requested: string): Promise<Target> {
  const folders = workspaceFolders();
  const g = await guardPath(requested, guardRoots(folders));
  if (!g.ok) throw new ToolError(g.message);
  const t = toTarget(folders, g);
  if (!realpathable(t.folder.uri)) await assertNoSymlinkBelow(t.folder.uri, t.relative, t.display); // no realpath for URI roots
  return t;
}

/**
 * Resolves a URI that VS Code handed us (an editor's document, a diagnostics entry). Returns
 * undefined when it is not inside the workspace: untitled buffers, files opened from elsewhere,
 * output panes, and symlinks that lead out.
 */
export async function resolveUri(uri: vscode.Uri): Promise<Target | undefined> {
  const folders = workspaceFolders();
  if (realpathable(uri)) {
    if (!folders.some((f) => f.uri.scheme === 'file')) return undefined;
    const g = await guardPath(uri.fsPath, guardRoots(folders));
    return g.ok ? toTarget(folders, g) : undefined;
  }
  // A virtual file system: only folders of the same scheme and authority can contain it.
  const same = folders.filter((f) => f.uri.scheme === uri.scheme && f.uri.authority === uri.authority);
  if (same.length === 0) return undefined;
  const g = await guardPath(uri.path, guardRoots(same));
  if (!g.ok) return undefined;
  const t = toTarget(same, g);
  try {
    await assertNoSymlinkBelow(t.folder.uri, t.relative, t.relative); // no realpath for URI roots
  } catch (e) {
    if (e instanceof ToolError) return undefined;
    throw e;
  }
  return { ...t, display: displayPath(t.folder, t.relative) };
}

function insideGit(relative: string): boolean {
  return relative.split('/').some((s) => s.toLowerCase() === '.git');
}

/** Is this existing file shown by VS Code's file search, i.e. not hidden by files.exclude? */
async function visibleToFileSearch(folder: vscode.WorkspaceFolder, relative: string, token: vscode.CancellationToken): Promise<boolean> {
  if (relative === '') return true;
  // `undefined` as exclude = apply files.exclude, exactly as the Explorer and Quick Open do.
  const found = await findFilesIn(folder, escapeGlob(relative), undefined, 1, token);
  return found.length > 0;
}

const fileSearches = new SearchGate<vscode.Uri[]>(MAX_RUNNING_FILE_SEARCHES, () => new vscode.CancellationTokenSource());

/**
 * vscode.workspace.findFiles in one folder, through the window's search gate (searchGate.ts: a few
 * at a time, identical ones shared). `exclude` undefined applies files.exclude. The result is
 * shared: never change it.
 */
export function findFilesIn(
  folder: vscode.WorkspaceFolder,
  pattern: string,
  exclude: string | undefined,
  maxResults: number,
  token: vscode.CancellationToken,
): Promise<readonly vscode.Uri[]> {
  const key = JSON.stringify([folder.uri.toString(), pattern, exclude ?? null, maxResults]);
  return fileSearches.run(key, (t) => vscode.workspace.findFiles(new vscode.RelativePattern(folder, pattern), exclude, maxResults, t), token);
}

/**
 * Refuses files inside .git and files hidden by files.exclude, checked for the path as addressed
 * AND for its resolved location (a symlink named `notes.txt` that points at `.env.secret` inside
 * the workspace is judged by both names). Fails closed: a file the search cannot see is refused.
 */
export async function assertNotExcluded(t: Target, token: vscode.CancellationToken): Promise<void> {
  if (insideGit(t.relative) || insideGit(t.realRelative)) {
    throw new ToolError(`"${t.display}" is inside a .git folder, which the workspace tools never read.`);
  }
  const checks: Promise<boolean>[] = [visibleToFileSearch(t.folder, t.relative, token)];
  if (t.realFolder !== t.folder || t.realRelative !== t.relative) checks.push(visibleToFileSearch(t.realFolder, t.realRelative, token));
  const visible = await Promise.all(checks);
  if (visible.some((v) => !v)) {
    throw new ToolError(`"${t.display}" is hidden by the files.exclude setting, so the workspace tools do not read it.`);
  }
}

export async function statTarget(t: Target, token: vscode.CancellationToken): Promise<FileInfo> {
  if (!t.exists) throw notFound(t);
  try {
    return await statUri(t.uri, token);
  } catch (e) {
    if (e instanceof FileMissing) throw notFound(t);
    throw e;
  }
}

export function notFound(t: Target): ToolError {
  return new ToolError(`"${t.display}" does not exist. Use list_files or search_text to find the right path.`);
}

export function binaryError(t: Target): ToolError {
  return new ToolError(`"${t.display}" is a binary file; the workspace tools only return text.`);
}

/**
 * The text of a file: the editor's buffer when the file is open with unsaved changes (that is what
 * the user sees and what diagnostics refer to), the bytes on disk otherwise.
 */
export async function readText(t: Target, token: vscode.CancellationToken): Promise<{ text: string; unsaved: boolean }> {
  const keys = new Set([t.uri.toString(), t.lexicalUri.toString()]);
  const doc = vscode.workspace.textDocuments.find((d) => keys.has(d.uri.toString()));
  if (doc?.isDirty) return { text: doc.getText(), unsaved: true };
  let bytes: Uint8Array;
  try {
    bytes = await readUri(t.uri, token);
  } catch (e) {
    if (e instanceof FileMissing) throw notFound(t);
    throw e;
  }
  if (looksBinary(bytes)) throw binaryError(t);
  return { text: decodeText(bytes), unsaved: false };
}

export function tooLarge(t: Target, size: number, max: number = LIMITS.readMaxFileBytes): ToolError {
  return new ToolError(`"${t.display}" is ${(size / 1024 / 1024).toFixed(1)} MB; files larger than ${max / 1024 / 1024} MB are not read.`);
}
