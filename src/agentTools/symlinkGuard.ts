// Symbolic links where the path guard cannot resolve them: workspace folders it treats as URI roots
// (virtual file systems in both builds; EVERY folder in the web build, which has no Node fs and so no
// realpath). vscode.workspace.fs cannot say where a link points, only that something is one
// (stat().type has the FileType.SymbolicLink bit), so the rule there is stricter than realpath's:
// a path that goes through any symbolic link below the workspace folder is refused, even one whose
// target would be inside. Same guarantee as the Node build (nothing outside the workspace is read),
// fewer files reachable. Cost: one stat per path segment (a round trip each in a web host).
import * as vscode from 'vscode';
import { ToolError } from './errors';

/** Throws ToolError when `relative` (below `folder`) is, or passes through, a symbolic link. Stops at the first missing segment. */
export async function assertNoSymlinkBelow(folder: vscode.Uri, relative: string, display: string): Promise<void> {
  const segments = relative.split('/').filter((s) => s !== '' && s !== '.');
  let cur = folder;
  for (const seg of segments) {
    cur = vscode.Uri.joinPath(cur, seg);
    let type: vscode.FileType;
    try {
      type = (await vscode.workspace.fs.stat(cur)).type;
    } catch (e) {
      if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return; // nothing further exists
      throw e;
    }
    if (type & vscode.FileType.SymbolicLink) {
      throw new ToolError(
        `"${display}" goes through a symbolic link. In this editor Modelgate cannot tell where a symbolic link leads, so the workspace tools do not follow any.`,
      );
    }
  }
}
