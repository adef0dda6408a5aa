// Writes the images of one request, all of them or none. The bytes are complete and verified
// before the first write (the caller downloads everything first); each file goes to its final
// name in one write; an existing file is never overwritten: a name is reserved by creating the
// file exclusively (exclusiveCreate.ts: two runs at once get two files, and a symbolic link
// planted at the name is never written through, it counts as taken), each file after the write
// guard ran again for it (a link swapped in above it during the run refuses); and if a write fails or
// the user cancels half-way, every file this run wrote (and every folder it created) is removed again.
import * as vscode from 'vscode';
import { guardWrite } from '../shared/writeGuard';
import { candidateNames } from './fileNames';
import { createExclusive } from './exclusiveCreate';

export interface PreparedImage {
  /** file name without extension, e.g. sunset-20261122-101530-1 */
  baseName: string;
  /** png | jpg | webp, from the real bytes */
  ext: string;
  bytes: Uint8Array;
}

/** The part of vscode.workspace.fs the saver uses; tests wrap the real one to inject a failure. */
export type SaverFileSystem = Pick<vscode.FileSystem, 'stat' | 'writeFile' | 'delete' | 'createDirectory'>;

export interface SaveOptions {
  fs?: SaverFileSystem;
  /** checked before every write; true stops the run and rolls back */
  isCancelled?: () => boolean;
  /** the workspace folders the write guard checks against (default: the window's) */
  folders?: readonly vscode.WorkspaceFolder[];
}

function isNotFound(err: unknown): boolean {
  return err instanceof vscode.FileSystemError
    ? err.code === 'FileNotFound'
    : (err as { code?: string })?.code === 'FileNotFound' || (err as { code?: string })?.code === 'ENOENT';
}

async function exists(fs: SaverFileSystem, uri: vscode.Uri): Promise<boolean> {
  try {
    await fs.stat(uri);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** Folders between the nearest existing ancestor and `folder`, outermost first. */
async function missingFolders(fs: SaverFileSystem, folder: vscode.Uri): Promise<vscode.Uri[]> {
  const missing: vscode.Uri[] = [];
  let current = folder;
  while (!(await exists(fs, current))) {
    missing.unshift(current);
    const parent = vscode.Uri.joinPath(current, '..');
    if (parent.path === current.path) break;
    current = parent;
  }
  return missing;
}

export async function saveAllOrNothing(folder: vscode.Uri, images: readonly PreparedImage[], options: SaveOptions = {}): Promise<vscode.Uri[]> {
  const fs = options.fs ?? vscode.workspace.fs;
  const written: vscode.Uri[] = [];
  let created: vscode.Uri[] = [];
  const checkCancelled = () => {
    if (options.isCancelled?.()) throw new vscode.CancellationError();
  };
  // the write guard again, right before the first write: a link swapped in since the folder was
  // chosen (the download takes seconds) must not take the images out of the workspace
  const guarded = await guardWrite(folder, { folders: options.folders, fs });
  if (!guarded.ok) throw new Error(vscode.l10n.t('No image was saved: {0}', guarded.message));
  try {
    checkCancelled();
    created = await missingFolders(fs, folder);
    if (created.length) await fs.createDirectory(folder);
    const reserved = new Set<string>();
    for (const image of images) {
      checkCancelled();
      written.push(await writeUnderFreeName(fs, folder, image, reserved, options.folders));
    }
    checkCancelled();
    return written;
  } catch (err) {
    await rollBack(fs, written, created, options.folders);
    throw err;
  }
}

/**
 * Writes the image under the first candidate name nothing is at (checked and taken in one
 * exclusive create), skipping names this run already used (lower-cased: case-insensitive disks).
 * Each file runs the write guard on the folder again right before its create (a link swapped in
 * for the folder or above it during the run refuses the image, and the run rolls back), and is
 * created in the resolved folder, never through a link (a link at the name counts as taken).
 */
async function writeUnderFreeName(
  fs: SaverFileSystem,
  folder: vscode.Uri,
  image: PreparedImage,
  reserved: Set<string>,
  folders: readonly vscode.WorkspaceFolder[] | undefined,
): Promise<vscode.Uri> {
  // the folder guarded again for this file; whatever is at a name (a link too) counts as taken
  const w = await guardWrite(folder, { folders, fs });
  if (!w.ok) throw new Error(vscode.l10n.t('No image was saved: {0}', w.message));
  for (const name of candidateNames(image.baseName, image.ext)) {
    if (reserved.has(name.toLowerCase())) continue;
    // a wrapped file system (tests) keeps its stat/writeFile seam
    const result = await createExclusive(vscode.Uri.joinPath(w.diskUri, name), image.bytes, fs === vscode.workspace.fs ? undefined : fs);
    if (result === 'taken') continue;
    reserved.add(name.toLowerCase());
    return vscode.Uri.joinPath(w.realUri, name);
  }
  throw new Error(vscode.l10n.t('No free file name for {0}: too many files with that name.', `${image.baseName}.${image.ext}`));
}

/**
 * Best effort: files first, then the folders this run created, innermost first, only if empty;
 * each after the write guard (a link swapped in meanwhile is not deleted through).
 */
async function rollBack(
  fs: SaverFileSystem,
  written: readonly vscode.Uri[],
  created: readonly vscode.Uri[],
  folders: readonly vscode.WorkspaceFolder[] | undefined,
): Promise<void> {
  const guarded = async (uri: vscode.Uri) => (await guardWrite(uri, { folders, fs }).catch(() => undefined))?.ok === true;
  for (const uri of written) {
    if (await guarded(uri)) await Promise.resolve(fs.delete(uri, { useTrash: false })).catch(() => undefined);
  }
  for (const dir of [...created].reverse()) {
    if (await guarded(dir)) await Promise.resolve(fs.delete(dir, { recursive: false, useTrash: false })).catch(() => undefined);
  }
}
