// The write guard: the one check every write that a model's output can steer goes through (Apply's
// Accept, the edit tools when they stage and on Keep, checkpoint restore, image saving), run right
// before the write, not only when the write was proposed. The rules themselves are pure (src/core/workspace/writeRules.ts).
//
//   guardWrite(uri)       -> { ok: true, realUri, ... } | { ok: false, message }
//   createNoFollow(uri)   -> guardWrite again, then creates the missing folders and the file without
//                            following a link at any component
//
// On `file` folders (where Node's fs exists) every link of the target and of each parent is
// resolved (realpath, src/core/workspace/pathGuard.ts); the write is refused when the real path is
// outside the workspace, or when the path as asked or as resolved is inside `.git` or `.vscode`
// or is a `*.code-workspace` file. Then each existing component of the real path is checked with
// lstat: a link found there now was swapped in after the resolve, and the write is refused.
// Writers write to `realUri` (the resolved path, shown to the user when it differs), never
// through the name they were given.
// On other schemes (remote and virtual folders, every folder of the web build) nothing can say
// where a link leads, so a path that goes through any link below the workspace folder is refused.
import * as vscode from 'vscode';
import { guardPath, type GuardRoot } from '../core/workspace/pathGuard';
import { checkNoLinks, protectedArea, toolConfigKind, type PathKind, type ProtectedArea, type ToolConfigKind } from '../core/workspace/writeRules';
import { nodeFs } from '../platform/fs';
import { path } from '../platform/path';

export interface WriteTarget {
  ok: true;
  /** the location as asked */
  uri: vscode.Uri;
  /**
   * where the write lands: with every link below the workspace folder resolved ('file' folders;
   * `uri` itself when no such link is on the way); the same as `uri` on other schemes
   */
  realUri: vscode.Uri;
  /** every link resolved, the workspace folder's own included: where the bytes go on disk */
  diskUri: vscode.Uri;
  /** the workspace folder of `uri`, and the one that holds `realUri` */
  folder: vscode.WorkspaceFolder;
  realFolder: vscode.WorkspaceFolder;
  /** workspace-relative names as shown (multi-root: `folder/…`), as asked and as resolved */
  display: string;
  realDisplay: string;
  /** something (file or folder) is at the real path */
  exists: boolean;
  /** set when the file configures tools, tasks, CI or packages (the diff warns) */
  configures?: ToolConfigKind;
}

export type WriteRefusalReason = 'noWorkspace' | 'outside' | 'protected' | 'link' | 'inaccessible';

export interface WriteRefusal {
  ok: false;
  reason: WriteRefusalReason;
  /** says what was refused and why; ends with a full stop */
  message: string;
}

export type WriteCheck = WriteTarget | WriteRefusal;

/** The part of vscode.workspace.fs the guard uses on non-file schemes (tests pass a wrapped one). */
export type GuardFileSystem = Pick<vscode.FileSystem, 'stat' | 'createDirectory' | 'writeFile'>;

export interface WriteGuardOptions {
  /** default: the window's workspace folders */
  folders?: readonly vscode.WorkspaceFolder[];
  /** default: vscode.workspace.fs */
  fs?: GuardFileSystem;
}

const refuse = (reason: WriteRefusalReason, message: string): WriteRefusal => ({ ok: false, reason, message });

function realpathable(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && nodeFs !== undefined;
}

function shownPath(folders: readonly vscode.WorkspaceFolder[], folder: vscode.WorkspaceFolder, relative: string): string {
  if (folders.length <= 1) return relative === '' ? '.' : relative;
  return relative === '' ? folder.name : `${folder.name}/${relative}`;
}

function areaMessage(shown: string, area: ProtectedArea): string {
  switch (area) {
    case 'git':
      return vscode.l10n.t('{0} is inside .git, which Modelgate never changes.', shown);
    case 'vscode':
      return vscode.l10n.t(
        '{0} is inside .vscode: its settings and tasks run programs when the folder opens, so Modelgate never changes them. Edit them yourself if you mean to.',
        shown,
      );
    case 'workspaceFile':
      return vscode.l10n.t(
        '{0} is a workspace file: its settings and tasks run programs when it opens, so Modelgate never changes it. Edit it yourself if you mean to.',
        shown,
      );
  }
}

async function uriKind(fs: GuardFileSystem, uri: vscode.Uri): Promise<PathKind> {
  try {
    const type = (await fs.stat(uri)).type;
    if (type & vscode.FileType.SymbolicLink) return 'link';
    return type & vscode.FileType.Directory ? 'directory' : type & vscode.FileType.File ? 'file' : 'other';
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return 'missing';
    if ((e as { code?: string })?.code === 'FileNotFound' || (e as { code?: string })?.code === 'ENOENT') return 'missing';
    throw e;
  }
}

/**
 * Whether `uri` may be written now, and where the write really lands. Call it right before the
 * write (again, if it was called when the write was proposed), and write to `realUri`.
 */
export async function guardWrite(uri: vscode.Uri, options: WriteGuardOptions = {}): Promise<WriteCheck> {
  const all = options.folders ?? vscode.workspace.workspaceFolders ?? [];
  const asked = uri.scheme === 'file' ? uri.fsPath : uri.path;
  const outside = () =>
    refuse(
      'outside',
      vscode.l10n.t(
        '{0} is outside the workspace; Modelgate writes only inside the workspace folders.',
        uri.scheme === 'file' ? uri.fsPath : uri.toString(true),
      ),
    );
  if (all.length === 0) return refuse('noWorkspace', vscode.l10n.t('No workspace folder is open; Modelgate writes only inside the workspace folders.'));

  if (realpathable(uri)) {
    const folders = all.filter((f) => f.uri.scheme === 'file');
    if (folders.length === 0) return outside();
    const roots: GuardRoot[] = folders.map((f) => ({ name: f.name, path: f.uri.fsPath, kind: 'fs' }));
    const g = await guardPath(asked, roots);
    if (!g.ok) {
      if (g.reason === 'outside' && g.message.includes('symbolic link')) {
        return refuse(
          'outside',
          vscode.l10n.t(
            '{0} leads through a symbolic link to a place outside the workspace; Modelgate writes only inside the workspace folders.',
            vscode.workspace.asRelativePath(uri, all.length > 1),
          ),
        );
      }
      return g.reason === 'outside' || g.reason === 'invalid' ? outside() : refuse('inaccessible', g.message);
    }
    const folder = folders[g.rootIndex]!;
    const realFolder = folders[g.realRootIndex]!;
    const display = shownPath(all, folder, g.relative);
    const realDisplay = shownPath(all, realFolder, g.realRelative);
    for (const [rel, shown] of [
      [g.relative, display],
      [g.realRelative, realDisplay],
    ] as const) {
      const area = protectedArea(rel);
      if (area) return refuse('protected', areaMessage(shown === display ? display : `${display} (${vscode.l10n.t('which leads to {0}', shown)})`, area));
    }
    // Everything on the real path is resolved: a link there now was put there after the realpath.
    const realRoot = await nodeFs!.realpath(realFolder.uri.fsPath);
    const walk = await checkNoLinks(
      realRoot,
      g.realRelative,
      (p) => nodeFs!.lstatKind(p),
      (a, b) => path.join(a, b),
    );
    if (!walk.ok) return refuse('link', linkMessage(display, walk.cause, walk.at));
    if (g.exists && (await nodeFs!.hardLinks(g.realPath)) > 1) return refuse('link', hardLinkMessage(display));
    const configures = toolConfigKind(g.relative) ?? toolConfigKind(g.realRelative);
    // Only a link below a workspace folder moves the target; a folder that is itself reached
    // through a link (/tmp -> /private/tmp) keeps the name the editor knows the file by.
    const linked = g.realRootIndex !== g.rootIndex || g.realRelative !== g.relative;
    const realUri = linked ? vscode.Uri.file(path.join(realFolder.uri.fsPath, g.realRelative)) : uri; // named under its workspace folder
    return {
      ok: true,
      uri,
      realUri,
      diskUri: vscode.Uri.file(g.realPath),
      folder,
      realFolder,
      display,
      realDisplay,
      exists: g.exists,
      ...(configures ? { configures } : {}),
    };
  }

  // No realpath here: lexical containment, and no link anywhere below the folder.
  const folders = all.filter((f) => f.uri.scheme === uri.scheme && f.uri.authority === uri.authority);
  if (folders.length === 0) return outside();
  const roots: GuardRoot[] = folders.map((f) => ({ name: f.name, path: f.uri.path, kind: 'uri' }));
  const g = await guardPath(uri.path, roots);
  if (!g.ok) return g.reason === 'outside' || g.reason === 'invalid' ? outside() : refuse('inaccessible', g.message);
  const folder = folders[g.rootIndex]!;
  const display = shownPath(all, folder, g.relative);
  const area = protectedArea(g.relative);
  if (area) return refuse('protected', areaMessage(display, area));
  const fs = options.fs ?? vscode.workspace.fs;
  const kindOf = (p: string) => uriKind(fs, folder.uri.with({ path: p }));
  const walk = await checkNoLinks(path.posix.normalize(folder.uri.path), g.relative, kindOf, (a, b) => path.posix.join(a, b));
  if (!walk.ok) return refuse('link', linkMessage(display, walk.cause, walk.at));
  const exists = (await kindOf(path.posix.join(path.posix.normalize(folder.uri.path), g.relative || '.'))) !== 'missing';
  const configures = toolConfigKind(g.relative);
  return {
    ok: true,
    uri,
    realUri: uri,
    diskUri: uri,
    folder,
    realFolder: folder,
    display,
    realDisplay: display,
    exists,
    ...(configures ? { configures } : {}),
  };
}

function hardLinkMessage(shown: string): string {
  return vscode.l10n.t(
    '{0} is a hard link: the same file has another name, which may be outside the workspace, so Modelgate does not change it. Edit it yourself if you mean to.',
    shown,
  );
}

function linkMessage(shown: string, cause: 'link' | 'notDirectory', at: string): string {
  return cause === 'link'
    ? vscode.l10n.t('{0} goes through a symbolic link ({1}), and Modelgate does not write through links there.', shown, at)
    : vscode.l10n.t('{0} cannot be written: {1} is not a folder.', shown, at);
}

export type CreateOutcome = { ok: true; uri: vscode.Uri; result: 'created' | 'taken' } | WriteRefusal;

/**
 * Creates a new file at `uri` with `bytes`, guarded right before: the missing folders are created
 * one at a time (each checked to be a real folder, not a link, after it exists), and the file is
 * created only when nothing is at its name (a link planted there, even a dangling one, counts as
 * taken and is never written through). Writes to the resolved location.
 */
export async function createNoFollow(uri: vscode.Uri, bytes: Uint8Array, options: WriteGuardOptions = {}): Promise<CreateOutcome> {
  const w = await guardWrite(uri, options);
  if (!w.ok) return w;
  if (w.exists) return { ok: true, uri: w.realUri, result: 'taken' };
  const parent = (u: vscode.Uri) => u.with({ path: path.posix.dirname(u.path) });
  const missing: vscode.Uri[] = [];
  const fs = options.fs ?? vscode.workspace.fs;
  const kindAt = (u: vscode.Uri) => (realpathable(u) ? nodeFs!.lstatKind(u.fsPath) : uriKind(fs, u));
  for (let dir = parent(w.diskUri); ; dir = parent(dir)) {
    const kind = await kindAt(dir);
    if (kind === 'directory') break;
    if (kind !== 'missing') return refuse('link', linkMessage(w.display, kind === 'link' ? 'link' : 'notDirectory', dir.path));
    missing.unshift(dir);
    if (parent(dir).path === dir.path) break;
  }
  for (const dir of missing) {
    if (realpathable(dir)) await nodeFs!.mkdir(dir.fsPath).catch((e: { code?: string }) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
    else await fs.createDirectory(dir);
    if ((await kindAt(dir)) !== 'directory') return refuse('link', linkMessage(w.display, 'link', dir.path));
  }
  if (realpathable(w.diskUri)) return { ok: true, uri: w.realUri, result: await nodeFs!.createExclusive(w.diskUri.fsPath, bytes) };
  if ((await kindAt(w.diskUri)) !== 'missing') return { ok: true, uri: w.realUri, result: 'taken' };
  await fs.writeFile(w.diskUri, bytes);
  return { ok: true, uri: w.realUri, result: 'created' };
}

export type WriteOutcome = { ok: true; uri: vscode.Uri } | WriteRefusal;

/**
 * Replaces the content of the existing file that `w` (guardWrite's answer, just now) found, at
 * its resolved location, without following a link: on `file` folders the folders above are
 * checked with lstat, the file is opened with O_NOFOLLOW and must be the regular file the checks
 * saw (src/platform/fs.ts, writeExisting); on other schemes (no such access) the file must be a
 * regular file and no link, then vscode.workspace.fs writes it.
 */
export async function writeExistingNoFollow(w: WriteTarget, bytes: Uint8Array, options: WriteGuardOptions = {}): Promise<WriteOutcome> {
  if (realpathable(w.diskUri)) {
    const r = await nodeFs!.writeExisting(w.diskUri.fsPath, bytes);
    if (r.ok) return { ok: true, uri: w.realUri };
    switch (r.cause) {
      case 'link':
      case 'changed':
        return refuse(
          'link',
          vscode.l10n.t('{0} was changed into a symbolic link (or swapped for another file) just before the write, so nothing was written.', w.display),
        );
      case 'hardLink':
        return refuse('link', hardLinkMessage(w.display));
      case 'notDirectory':
        return refuse('link', linkMessage(w.display, 'notDirectory', r.at));
      case 'notFile':
        return refuse('inaccessible', vscode.l10n.t('{0} is not a regular file, so nothing was written.', w.display));
      case 'missing':
        return refuse('inaccessible', vscode.l10n.t('{0} was removed just before the write, so nothing was written.', w.display));
    }
  }
  const fs = options.fs ?? vscode.workspace.fs;
  const kind = await uriKind(fs, w.diskUri);
  if (kind === 'link') return refuse('link', linkMessage(w.display, 'link', w.diskUri.path));
  if (kind === 'missing') return refuse('inaccessible', vscode.l10n.t('{0} was removed just before the write, so nothing was written.', w.display));
  if (kind !== 'file') return refuse('inaccessible', vscode.l10n.t('{0} is not a regular file, so nothing was written.', w.display));
  await fs.writeFile(w.diskUri, bytes);
  return { ok: true, uri: w.realUri };
}

/** The warning a review (Apply's diff, the edits' diff and row) carries for a file that configures how tools run. */
export function configWarning(kind: ToolConfigKind): string {
  switch (kind) {
    case 'editor':
      return vscode.l10n.t('⚠ editor settings or tasks: they can run programs');
    case 'ci':
      return vscode.l10n.t('⚠ a CI workflow: it runs on every push');
    case 'packages':
      return vscode.l10n.t('⚠ package configuration: scripts and registries run at install');
    case 'build':
      return vscode.l10n.t('⚠ build configuration: it runs code when you build');
    case 'hooks':
      return vscode.l10n.t('⚠ hooks or dev container: they run programs');
  }
}
