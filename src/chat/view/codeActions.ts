// What the buttons on a code block and the links of an answer do. Model output is untrusted:
// nothing here writes to a file without the user's click. Apply lives in ./apply: it shows the
// change as a diff and writes it only when the user accepts.
import * as vscode from 'vscode';

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

/** Replaces the selection of the active editor (the user clicked Insert), or opens a new document. */
export async function insertCode(code: string): Promise<vscode.TextEditor> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const ok = await editor.edit((b) => {
      for (const s of editor.selections) b.replace(s, code);
    });
    if (ok) {
      await vscode.window.showTextDocument(editor.document, editor.viewColumn);
      return editor;
    }
  }
  const doc = await vscode.workspace.openTextDocument({ content: code });
  return vscode.window.showTextDocument(doc);
}
