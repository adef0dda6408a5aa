// Stat and read one file. `file` URIs are read with Node's fs in the Node build; other schemes, and
// everything in the web build (src/platform/fs.web.ts: no Node fs), through vscode.workspace.fs.
//
// Why not vscode.workspace.fs for everything: in a remote or web setup (code-server, measured in
// this project's harness) each workspace.fs call is a round trip to the server, about 1.2 ms; a
// search over 3,000 files spent 11 s there, and Node's fs read the same files 14x faster. A
// `file` URI in the extension host always names a file on the machine the extension host runs
// on (remote extension hosts run next to the files), so Node's fs reaches it; realpath, which the
// path guard needs, is only meaningful there too.
import * as vscode from 'vscode';
import { nodeFs } from '../platform/fs';
import { raceCancellation } from './cancellation';

export interface FileInfo {
  kind: 'file' | 'directory' | 'other';
  size: number;
}

export class FileMissing extends Error {
  override readonly name = 'FileMissing';
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || (e instanceof vscode.FileSystemError && e.code === 'FileNotFound');
}

/** Throws FileMissing when there is nothing at `uri`. */
export async function statUri(uri: vscode.Uri, token: vscode.CancellationToken): Promise<FileInfo> {
  try {
    if (uri.scheme === 'file' && nodeFs) {
      const st = await raceCancellation(nodeFs.stat(uri.fsPath), token);
      return { kind: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other', size: st.size };
    }
    const st = await raceCancellation(vscode.workspace.fs.stat(uri), token);
    const kind = st.type & vscode.FileType.Directory ? 'directory' : st.type & vscode.FileType.File ? 'file' : 'other';
    return { kind, size: st.size };
  } catch (e) {
    if (isMissing(e)) throw new FileMissing(uri.toString());
    throw e;
  }
}

/** Reads a regular file (callers check statUri first: a FIFO would block a read forever). */
export async function readUri(uri: vscode.Uri, token: vscode.CancellationToken): Promise<Uint8Array> {
  try {
    if (uri.scheme === 'file' && nodeFs) return await raceCancellation(nodeFs.readFile(uri.fsPath), token);
    return await raceCancellation(vscode.workspace.fs.readFile(uri), token);
  } catch (e) {
    if (isMissing(e)) throw new FileMissing(uri.toString());
    throw e;
  }
}

/** A short reason for a failed file-system call, for the model (no paths outside the workspace). */
export function fileErrorReason(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (e instanceof vscode.FileSystemError) {
    if (e.code === 'NoPermissions') return 'permission denied';
    if (e.code === 'Unavailable') return 'the file system is unavailable';
    return e.code || 'file system error';
  }
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return undefined;
}
