// The spend ledger's folder (src/core/spend/spendFolder.ts) on VS Code's file system: the
// extension's global storage, shared by every window of the user. A file is replaced through a
// temporary file and a rename (storageFiles.ts), so a reader in another window finds the old
// content or the new, whole; a reader that still meets a missing file keeps its last good copy.
import * as vscode from 'vscode';
import type { SpendFiles } from '../core/spend/spendFolder';
import { replaceFile, watchFolder } from './storageFiles';

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
    await replaceFile(this.folder, name, text);
  }

  async remove(name: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.folder, name));
    } catch (err) {
      if (!notFound(err)) throw err;
    }
  }

  /** Another window wrote to the folder. */
  watch(onChange: () => void): vscode.Disposable {
    return watchFolder(this.folder, onChange, POLL_MS);
  }
}
