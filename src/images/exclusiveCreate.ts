// Creates a file only when nothing is at its name: the reservation of an image's file name.
// For `file:` URIs an exclusive create (open 'wx' = O_CREAT|O_EXCL) makes "is the name free?" and
// "take it" one step, so two image runs saving the same name at once get two files, and a
// symbolic link planted at the name (even a dangling one) counts as taken: O_EXCL never
// follows a link. The bytes go through the handle that was created, not the path again.
// Other schemes (remote, virtual, and every folder of the web build, where src/platform/fs.web.ts
// has no direct file system) have no exclusive create in workspace.fs: a stat (a link, dangling or
// not, counts as taken) then writeFile, one name at a time in this extension host, so two saves
// of one window never both take a name; between two windows a narrow race remains there.
import * as vscode from 'vscode';
import { nodeFs } from '../platform/fs';

export type CreateResult = 'created' | 'taken';

/** The part of vscode.workspace.fs a non-file scheme uses. */
export type CreateFileSystem = Pick<vscode.FileSystem, 'stat' | 'writeFile'>;

/**
 * Creates `uri` with `bytes` unless something (a file, folder or link) is at that name.
 * `fs`: a wrapped file system (tests inject failures through it) takes the check-then-write path.
 */
export async function createExclusive(uri: vscode.Uri, bytes: Uint8Array, fs?: CreateFileSystem): Promise<CreateResult> {
  if (uri.scheme === 'file' && !fs && nodeFs) return nodeFs.createExclusive(uri.fsPath, bytes);
  const via = fs ?? vscode.workspace.fs;
  const key = uri.toString();
  const before = pending.get(key) ?? Promise.resolve();
  const mine = before.then(() => checkThenWrite(via, uri, bytes));
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  pending.set(key, settled);
  void settled.then(() => {
    if (pending.get(key) === settled) pending.delete(key);
  });
  return mine;
}

/** per name: the check-then-write in progress in this extension host (the next waits for it) */
const pending = new Map<string, Promise<void>>();

async function checkThenWrite(via: CreateFileSystem, uri: vscode.Uri, bytes: Uint8Array): Promise<CreateResult> {
  try {
    await via.stat(uri); // VS Code's stat reports a link, dangling or not, instead of failing
    return 'taken'; // anything there, a link included
  } catch (err) {
    const code = err instanceof vscode.FileSystemError ? err.code : (err as { code?: string })?.code;
    if (code !== 'FileNotFound' && code !== 'ENOENT') throw err;
  }
  await via.writeFile(uri, bytes);
  return 'created';
}
