// The write of an existing file's new text that Apply's Accept, the edits' Keep and checkpoint
// restore share (no write through a link). VS Code's own save follows links, whatever
// the path is when it runs (a later save, or auto save a second after an edit), so the disk is
// written here, right after the write guard, through a handle opened without following links
// (src/shared/writeGuard.ts, writeExistingNoFollow), and the editor is then told that its buffer
// is what is on disk, with no second write by VS Code:
//
//   buffer not dirty  the file is written; VS Code reloads the unchanged buffer from disk (its
//                     file watcher), which it records as one undoable edit: Undo brings the old
//                     text back. If no reload comes within RELOAD_MS (a folder without a watcher),
//                     the file's editor is shown and reverted, which reads the file again.
//   buffer dirty      (unsaved text of the user) the file is written with that text and the
//                     change; then the change goes into the buffer as one WorkspaceEdit (one
//                     undo step), and the file's editor is reverted: the disk holds exactly the
//                     buffer, so the revert changes no text, keeps the undo stack and clears
//                     the dirty state. Nothing of VS Code writes the file again.
//
// The text is written in the document's encoding (UTF-8 with or without BOM, UTF-16, …) and its
// line ends; inserted text takes the document's line ends, as an editor edit would.
import * as vscode from 'vscode';
import { writeExistingNoFollow, type WriteOutcome, type WriteTarget } from '../shared/writeGuard';

/** how long the watcher's reload of a written, clean buffer is waited for */
export const RELOAD_MS = 3000;

export interface DocumentWriteOptions {
  /** show the file afterwards (Apply): its editor is reverted at once instead of waiting for the watcher */
  reveal?: boolean;
  log?: (message: string) => void;
}

/**
 * Replaces `range` of `doc` (the open document of the file `w`, guardWrite's answer just now)
 * with `text`, on disk without following links, and in the editor as one undo step; the
 * document is left not dirty. Nothing is written when the answer is a refusal.
 */
export async function writeDocumentNoFollow(
  w: WriteTarget,
  doc: vscode.TextDocument,
  range: vscode.Range,
  text: string,
  options: DocumentWriteOptions = {},
): Promise<WriteOutcome> {
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const inserted = text.replace(/\r\n|\r|\n/g, eol);
  const current = doc.getText();
  const after = current.slice(0, doc.offsetAt(range.start)) + inserted + current.slice(doc.offsetAt(range.end));
  const bytes = await vscode.workspace.encode(after, { encoding: doc.encoding });
  const wasDirty = doc.isDirty;
  const written = await writeExistingNoFollow(w, bytes);
  if (!written.ok) return written;
  if (wasDirty) {
    // the watcher never reloads a dirty buffer: the change goes in as an edit (one undo step)
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, range, inserted);
    if (!(await vscode.workspace.applyEdit(edit))) options.log?.(`Write: VS Code refused the edit of ${w.display}; its editor is read again from disk.`);
    await revertFromDisk(doc, options.log);
    return written;
  }
  if (!options.reveal && (await reloaded(doc, after, RELOAD_MS))) return written;
  if (doc.isDirty) {
    // typed into since the write: that text is the user's, the editor keeps it (a save will ask)
    options.log?.(`Write: ${w.display} was changed in the editor while it was written; the editor keeps that text.`);
    return written;
  }
  await revertFromDisk(doc, options.log);
  return written;
}

/** Whether `doc` holds `text` (the file watcher's reload) within `ms`. */
function reloaded(doc: vscode.TextDocument, text: string, ms: number): Promise<boolean> {
  if (doc.getText() === text) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(doc.getText() === text), ms);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && doc.getText() === text) finish(true);
    });
  });
}

/**
 * Shows `doc` and reverts its editor: VS Code reads the file again (no write) and the buffer is
 * no longer dirty. The revert command acts on the active editor (or a focused Open Editors
 * selection; showing the document moves the focus to it), so it runs only while `doc` is active.
 */
function revertFromDisk(doc: vscode.TextDocument, log?: (message: string) => void): Promise<void> {
  // one at a time: two files kept at once must not each show their editor before the other's revert
  const run = reverts.then(() => showAndRevert(doc, log));
  reverts = run.catch(() => undefined);
  return run;
}
let reverts: Promise<void> = Promise.resolve();

async function showAndRevert(doc: vscode.TextDocument, log?: (message: string) => void): Promise<void> {
  await vscode.window.showTextDocument(doc, { preview: false });
  if (vscode.window.activeTextEditor?.document !== doc) {
    log?.(`Write: ${vscode.workspace.asRelativePath(doc.uri)} was not the active editor, so it was not read again from disk.`);
    return;
  }
  await vscode.commands.executeCommand('workbench.action.files.revert');
}
