// Chat history on disk: JSON files in a folder under the extension's global storage (shared by
// all windows of this user, independent of the workspace). Written through workspace.fs; a
// file is replaced by writing a temporary file and renaming it over the old one, so a window
// closed in the middle of a write leaves the previous version, not half a file. Several windows
// share the folder: see conversationStore.ts for how their writes are merged.
import * as vscode from 'vscode';
import type { StorageBackend } from './conversationStorage';
import { replaceFile, watchFolder } from '../../services/storageFiles';

const POLL_MS = 2000;
/**
 * A temporary file older than this is what a window killed mid-write left behind (a live
 * write renames its own within milliseconds): the first write of a backend removes them.
 */
export const STALE_TEMP_MS = 60_000;

export class FileBackend implements StorageBackend {
  private ensured: Promise<void> | undefined;

  constructor(readonly folder: vscode.Uri) {}

  private ensureFolder(): Promise<void> {
    this.ensured ??= (async () => {
      await vscode.workspace.fs.createDirectory(this.folder);
      await this.removeStaleTemporaries();
    })();
    return this.ensured;
  }

  /** Removes temporary files left by a write that never reached its rename (a killed window). */
  private async removeStaleTemporaries(): Promise<void> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.folder);
    } catch {
      return;
    }
    const now = Date.now();
    for (const [name, type] of entries) {
      if (type !== vscode.FileType.File || !name.endsWith('.tmp')) continue;
      const uri = vscode.Uri.joinPath(this.folder, name);
      try {
        const { mtime } = await vscode.workspace.fs.stat(uri);
        if (now - mtime > STALE_TEMP_MS) await vscode.workspace.fs.delete(uri);
      } catch {
        // Gone already, or another window's: either way not ours to fail on.
      }
    }
  }

  async list(): Promise<string[]> {
    try {
      const entries = await vscode.workspace.fs.readDirectory(this.folder);
      return entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return [];
      throw err;
    }
  }

  async read(name: string): Promise<string | undefined> {
    try {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.folder, name));
      return new TextDecoder().decode(bytes);
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return undefined;
      throw err;
    }
  }

  async write(name: string, text: string): Promise<void> {
    await this.ensureFolder();
    await replaceFile(this.folder, name, text);
  }

  /** Another window wrote to the folder, or this window got the focus back (it may have missed events). */
  watch(onChange: () => void): vscode.Disposable {
    return vscode.Disposable.from(
      watchFolder(this.folder, onChange, POLL_MS),
      vscode.window.onDidChangeWindowState((s) => {
        if (s.focused) onChange();
      }),
    );
  }

  async delete(name: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.folder, name));
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return;
      throw err;
    }
  }
}
