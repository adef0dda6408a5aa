// Chat history on disk: JSON files in a folder under the extension's global storage (shared by
// all windows of this user, independent of the workspace), read and written as a shared folder
// (services/storageFiles.ts): Node's fs where the folder is on the host's disk, workspace.fs in
// the web host. A file is replaced by writing a temporary file and renaming it over the old one,
// so a window closed in the middle of a write leaves the previous version, not half a file.
// Several windows share the folder: see conversationStore.ts for how their writes are merged.
import * as vscode from 'vscode';
import type { StorageBackend } from './conversationStorage';
import { SharedFolder } from '../../services/storageFiles';

/** how often the folder's modification time is checked where file events do not arrive */
const POLL_MS = 2000;

export class FileBackend extends SharedFolder implements StorageBackend {
  constructor(folder: vscode.Uri, options: { throughVsCode?: boolean } = {}) {
    super(folder, POLL_MS, options);
  }

  delete(name: string): Promise<void> {
    return this.remove(name);
  }

  /** Another window wrote to the folder, or this window got the focus back (it may have missed events). */
  override watch(onChange: () => void): vscode.Disposable {
    return vscode.Disposable.from(
      super.watch(onChange),
      vscode.window.onDidChangeWindowState((s) => {
        if (s.focused) onChange();
      }),
    );
  }
}
