// Chat history on disk: JSON files in a folder under the extension's global storage (shared by
// all windows of this user, independent of the workspace). Written through workspace.fs; a
// file is replaced by writing a temporary file and renaming it over the old one, so a window
// closed in the middle of a write leaves the previous version, not half a file. Several windows
// share the folder: see conversationStore.ts for how their writes are merged.
import * as vscode from 'vscode';
import type { StorageBackend } from './conversationStore';

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
    const target = vscode.Uri.joinPath(this.folder, name);
    // A name of its own per write: two windows saving the same file at once must not rename
    // each other's temporary file away (ENOENT on rename).
    const temp = vscode.Uri.joinPath(this.folder, `${name}.${globalThis.crypto.randomUUID()}.tmp`);
    await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
    // workspace.fs renames with overwrite as "delete the target, then rename": another window
    // doing the same at that moment makes the delete fail (the file is already gone). The
    // temporary file is still ours: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await vscode.workspace.fs.rename(temp, target, { overwrite: true });
        return;
      } catch (err) {
        if (attempt >= 8 || !(err instanceof vscode.FileSystemError)) {
          await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
          throw err;
        }
      }
    }
  }

  /** Another window wrote to the folder, or this window got the focus back (it may have missed events). */
  watch(onChange: () => void): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '*.json'));
    // File events for a folder outside the workspace are not delivered everywhere (the VS Code
    // server does not report the global storage folder): the folder's modification time, which
    // every replace (rename) changes, is checked every few seconds as well.
    let lastMtime: number | undefined;
    const poll = setInterval(() => {
      vscode.workspace.fs.stat(this.folder).then(
        (s) => {
          if (lastMtime !== undefined && s.mtime !== lastMtime) onChange();
          lastMtime = s.mtime;
        },
        () => undefined,
      );
    }, POLL_MS);
    return vscode.Disposable.from(
      { dispose: () => clearInterval(poll) },
      watcher,
      watcher.onDidChange(onChange),
      watcher.onDidCreate(onChange),
      watcher.onDidDelete(onChange),
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
