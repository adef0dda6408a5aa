// What the buttons on a code block and the links of an answer do. Model output is untrusted:
// nothing here writes to a file without the user's click. Apply lives in ./apply: it shows the
// change as a diff and writes it only when the user accepts.
import * as vscode from 'vscode';
import { insertionText } from './insertion';

/** Only web links are opened; `command:`, `javascript:`, `file:`, `vscode:` ... never. */
export function isOpenableLink(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

export async function openLink(href: string): Promise<boolean> {
  if (!isOpenableLink(href)) return false;
  // strict parse: the link is opened as written, not re-encoded
  return vscode.env.openExternal(vscode.Uri.parse(href, true));
}

export async function copyCode(code: string): Promise<void> {
  await vscode.env.clipboard.writeText(code);
}

/**
 * Replaces the selection of the active editor (the user clicked Insert), or opens a new document.
 * The code goes on lines of its own (insertionText): never glued to the text around the cursor.
 */
export async function insertCode(code: string): Promise<vscode.TextEditor> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const doc = editor.document;
    const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    const ok = await editor.edit((b) => {
      for (const s of editor.selections) {
        const before = doc.lineAt(s.start.line).text.slice(0, s.start.character);
        const after = doc.lineAt(s.end.line).text.slice(s.end.character);
        b.replace(s, insertionText(code, { before, after, atEnd: s.end.isEqual(end), eol }));
      }
    });
    if (ok) {
      await vscode.window.showTextDocument(editor.document, editor.viewColumn);
      return editor;
    }
  }
  const doc = await vscode.workspace.openTextDocument({ content: code });
  return vscode.window.showTextDocument(doc);
}
