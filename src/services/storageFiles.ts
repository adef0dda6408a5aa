// Files that several windows share in the extension's global storage (the chat history, the
// spend ledger): replacing one so that a reader finds the old content or the new, whole, and
// hearing another window write into the folder.
import * as vscode from 'vscode';

/**
 * Writes `text` to `folder/name` through a temporary file of its own and a rename. A name of its
 * own per write: two windows saving the same file at once must not rename each other's temporary
 * file away (ENOENT on rename). workspace.fs renames with overwrite as "delete the target, then
 * rename": another window doing the same at that moment makes the delete fail (the file is
 * already gone); the temporary file is still ours, so it tries again.
 */
export async function replaceFile(folder: vscode.Uri, name: string, text: string, attempts = 8): Promise<void> {
  const target = vscode.Uri.joinPath(folder, name);
  const temp = vscode.Uri.joinPath(folder, `${name}.${globalThis.crypto.randomUUID()}.tmp`);
  await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
  for (let attempt = 1; ; attempt++) {
    try {
      await vscode.workspace.fs.rename(temp, target, { overwrite: true });
      return;
    } catch (err) {
      if (attempt >= attempts || !(err instanceof vscode.FileSystemError)) {
        await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
        throw err;
      }
    }
  }
}

/**
 * Hears another window write into `folder`. File events for a folder outside the workspace are
 * not delivered everywhere (the VS Code server does not report the global storage folder), so
 * the folder's modification time, which every create, replace (rename) and delete changes, is
 * checked every `pollMs` as well.
 */
export function watchFolder(folder: vscode.Uri, onChange: () => void, pollMs: number): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '*.json'));
  let lastMtime: number | undefined;
  const poll = setInterval(() => {
    vscode.workspace.fs.stat(folder).then(
      (s) => {
        if (lastMtime !== undefined && s.mtime !== lastMtime) onChange();
        lastMtime = s.mtime;
      },
      () => undefined,
    );
  }, pollMs);
  return vscode.Disposable.from(
    { dispose: () => clearInterval(poll) },
    watcher,
    watcher.onDidChange(onChange),
    watcher.onDidCreate(onChange),
    watcher.onDidDelete(onChange),
  );
}
