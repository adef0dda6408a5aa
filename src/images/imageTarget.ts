// Where generated images go, for each way the command can start, and the guarantee that it is
// inside the workspace:
//  - Explorer on a folder: that folder. Explorer on a file, or the editor's context menu /
//    title bar (VS Code passes the document's Uri): beside that file. The editor case saves
//    beside the document because that is where its relative link is shortest and most stable.
//  - Palette (no argument) and programmatic calls without `folder`: `modelgate.image.folder`
//    (workspace-relative, '' = root) in the workspace folder of the active editor; with several
//    workspace folders and no editor the palette asks, a programmatic call takes the first.
//  - Programmatic `folder`: a Uri, or a path relative to that same workspace folder (an absolute
//    path is accepted when it is inside a workspace folder).
// Containment: `..` segments are refused outright; the rest is decided by the write guard
// (src/shared/writeGuard.ts), the one every write goes through: on `file` folders it resolves
// symlinks of the folder and the workspace roots; on remote and virtual folders, where nothing
// can say where a link leads, a folder reached through any link is refused (as the tools refuse
// such paths). imageSaver.ts asks the guard again right before it writes.
import { path } from '../platform/path';
import * as vscode from 'vscode';
import { isContained } from '../core/workspace/pathGuard';
import { guardWrite } from '../shared/writeGuard';

export interface ImageTarget {
  /** folder the images are written to; may not exist yet (created on save) */
  folder: vscode.Uri;
  workspaceFolder: vscode.WorkspaceFolder;
}

/** A target the user or caller asked for that cannot be used; the message says why. */
export class ImageTargetError extends Error {
  override name = 'ImageTargetError';
}

/** True when any segment of a `/` or `\\` separated path is `..`: refused outright, even when it
 * would land inside (a folder argument that climbs is a mistake or an attack, never needed). */
export function hasParentSegment(p: string): boolean {
  return p.split(/[\\/]+/).some((segment) => segment === '..');
}

function noWorkspace(): ImageTargetError {
  return new ImageTargetError(vscode.l10n.t('Open a folder first: generated images are saved into the workspace.'));
}

/** Shown path: workspace-relative when possible. */
function shown(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, true) || uri.toString(true);
}

/**
 * Checks that `folder` is inside a workspace folder, lexically and, for folders on disk, after
 * resolving symlinks of both. Refuses `..` segments and an existing file in place of the folder.
 */
export async function checkImageFolder(
  folder: vscode.Uri,
  folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? [],
): Promise<ImageTarget> {
  if (hasParentSegment(folder.path))
    throw new ImageTargetError(vscode.l10n.t('“{0}” contains “..”: images are saved only inside the workspace.', folder.toString(true)));
  const outside = () =>
    new ImageTargetError(vscode.l10n.t('“{0}” is outside the workspace: images are saved only inside a workspace folder.', folder.toString(true)));
  const workspaceFolder = folders
    .filter(
      (f) => f.uri.scheme === folder.scheme && f.uri.authority === folder.authority && isContained(f.uri.path, path.posix.normalize(folder.path), path.posix),
    )
    .sort((a, b) => b.uri.path.length - a.uri.path.length)[0];
  if (
    !workspaceFolder ||
    workspaceFolder.uri.scheme !== folder.scheme ||
    workspaceFolder.uri.authority !== folder.authority ||
    !isContained(workspaceFolder.uri.path, path.posix.normalize(folder.path), path.posix)
  ) {
    throw outside();
  }
  // The write guard resolves symlinks of the folder and of every workspace root (realpath)
  // before checking containment again; elsewhere it refuses any link below the workspace folder.
  const guarded = await guardWrite(folder, { folders });
  if (!guarded.ok) {
    if (guarded.reason === 'outside' && folder.scheme === 'file') {
      throw new ImageTargetError(
        vscode.l10n.t('“{0}” leads outside the workspace (through a symbolic link): images are saved only inside the workspace.', shown(folder)),
      );
    }
    throw new ImageTargetError(vscode.l10n.t('Cannot save images in “{0}”: {1}', shown(folder), guarded.message));
  }
  const stat = await vscode.workspace.fs.stat(folder).then(
    (s) => s,
    () => undefined,
  );
  if (stat && !(stat.type & vscode.FileType.Directory)) throw new ImageTargetError(vscode.l10n.t('“{0}” is a file, not a folder.', shown(folder)));
  return { folder, workspaceFolder };
}

/** Explorer or editor menu: a folder means "save here", a file means "save beside it". */
export async function targetForResource(resource: vscode.Uri): Promise<ImageTarget> {
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(resource);
  } catch {
    throw new ImageTargetError(vscode.l10n.t('“{0}” does not exist any more.', shown(resource)));
  }
  const folder = stat.type & vscode.FileType.Directory ? resource : resource.with({ path: path.posix.dirname(resource.path) });
  return checkImageFolder(folder);
}

/** A workspace-relative (or absolute, inside the workspace) folder path. */
export async function targetForPath(folderPath: string, base: vscode.WorkspaceFolder, what = vscode.l10n.t('folder')): Promise<ImageTarget> {
  const p = folderPath.trim();
  if (hasParentSegment(p)) throw new ImageTargetError(vscode.l10n.t('The {0} “{1}” contains “..”: give a folder inside the workspace.', what, folderPath));
  if (path.isAbsolute(p) || path.win32.isAbsolute(p)) return checkImageFolder(vscode.Uri.file(p));
  const segments = p.split(/[\\/]+/).filter((s) => s && s !== '.');
  return checkImageFolder(segments.length ? vscode.Uri.joinPath(base.uri, ...segments) : base.uri);
}

/** The workspace folder of the active editor, else the only one; undefined when that is ambiguous. */
export function workspaceFolderOf(editor: vscode.TextEditor | undefined): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const own = editor && vscode.workspace.getWorkspaceFolder(editor.document.uri);
  return own ?? (folders.length === 1 ? folders[0] : undefined);
}

/**
 * The configured images folder (`modelgate.image.folder`) of the editor's workspace folder.
 * `ask` picks the workspace folder when there are several and no editor says which; returns
 * undefined when the user dismissed that question. Without `ask` the first folder is used.
 */
export async function configuredTarget(editor: vscode.TextEditor | undefined, imageFolder: string, ask: boolean): Promise<ImageTarget | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.length) throw noWorkspace();
  let base = workspaceFolderOf(editor);
  if (!base) {
    if (!ask) base = folders[0];
    else {
      base = await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Save the generated image in which workspace folder?') });
      if (!base) return undefined;
    }
  }
  return targetForPath(imageFolder, base, vscode.l10n.t('setting “modelgate.image.folder”'));
}

export function requireWorkspace(): void {
  if (!vscode.workspace.workspaceFolders?.length) throw noWorkspace();
}
