// The spend ledger's folder (src/core/spend/spendFolder.ts) on VS Code's file system: the
// extension's global storage, shared by every window of the user. A file is replaced through a
// temporary file of its own and a rename, so a reader in another window finds the old content or
// the new, whole; a reader that still meets a half-written or missing file keeps its last good copy.
import * as vscode from 'vscode';
import type { SpendFiles } from '../core/spend/spendFolder';

/** how often the folder's modification time is checked where file events do not arrive */
const POLL_MS = 3_000;

const notFound = (err: unknown) => err instanceof vscode.FileSystemError && err.code === 'FileNotFound';

export class SpendFolderFs implements SpendFiles {
  private made = false;

  constructor(readonly folder: vscode.Uri) {}

  async list(): Promise<string[]> {
    try {
      return (await vscode.workspace.fs.readDirectory(this.folder)).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
    } catch (err) {
      if (notFound(err)) return [];
      throw err;
    }
  }

  async read(name: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.folder, name)));
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  async write(name: string, text: string): Promise<void> {
    if (!this.made) {
      await vscode.workspace.fs.createDirectory(this.folder);
      this.made = true;
    }
    const target = vscode.Uri.joinPath(this.folder, name);
    const temp = vscode.Uri.joinPath(this.folder, `${name}.${globalThis.crypto.randomUUID()}.tmp`);
    await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
    // workspace.fs renames with overwrite as "delete the target, then rename"; a reader's open
    // handle can make the delete fail for a moment on some systems: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await vscode.workspace.fs.rename(temp, target, { overwrite: true });
        return;
      } catch (err) {
        if (attempt >= 5 || !(err instanceof vscode.FileSystemError)) {
          await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
          throw err;
        }
      }
    }
  }

  async remove(name: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.folder, name));
    } catch (err) {
      if (!notFound(err)) throw err;
    }
  }

  /** Another window wrote to the folder (file events, and the folder's time where they do not arrive). */
  watch(onChange: () => void): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.folder, '*.json'));
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
    );
  }
}
