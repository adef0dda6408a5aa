// What happens after the files are on disk: a link in the Markdown/HTML document the command
// started from, the image opened, the others revealed, and the model's revised prompt shown.
// None of this can undo the saved files, so failures here are logged, not thrown.
import * as vscode from 'vscode';
import type { Log } from '../services/log';
import { imageLinkText, linkLanguage } from './imageLinks';
import { errorText } from '../core/errorText';

/** The editor a link goes into, and where its cursor was when the command started. */
export interface LinkSpot {
  editor: vscode.TextEditor;
  document: vscode.TextDocument;
  position: vscode.Position;
}

/** The spot for a link when `editor` holds a Markdown or HTML document; undefined otherwise. */
export function linkSpotFor(editor: vscode.TextEditor | undefined): LinkSpot | undefined {
  if (!editor || !linkLanguage(editor.document.languageId)) return undefined;
  return { editor, document: editor.document, position: cursorOf(editor) };
}

/** The cursor, or the end of a selection (the selected text was the prompt; it is kept). */
function cursorOf(editor: vscode.TextEditor): vscode.Position {
  return editor.selection.isEmpty ? editor.selection.active : editor.selection.end;
}

/** Inserts the links; returns the inserted text, or undefined when nothing was inserted. */
export async function insertImageLinks(spot: LinkSpot, uris: readonly vscode.Uri[], prompt: string, workspaceRoot: vscode.Uri): Promise<string | undefined> {
  const language = linkLanguage(spot.document.languageId);
  if (!language || spot.document.isClosed || !uris.length) return undefined;
  // An untitled document has no folder yet: link relative to the workspace folder, where it is
  // most likely to be saved.
  const docUri = spot.document.isUntitled ? vscode.Uri.joinPath(workspaceRoot, 'untitled') : spot.document.uri;
  if (uris.some((u) => u.scheme !== docUri.scheme || u.authority !== docUri.authority)) return undefined;
  const text = imageLinkText(
    language,
    docUri.path,
    uris.map((u) => u.path),
    prompt,
  );

  // Prefer the live editor (the user may have moved the cursor while waiting); when it is no
  // longer visible, insert where the cursor was when the command started.
  const live = vscode.window.visibleTextEditors.find((e) => e.document === spot.document);
  if (live) {
    const at = cursorOf(live);
    if (await live.edit((b) => b.insert(at, text))) return text;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.insert(spot.document.uri, spot.position, text);
  return (await vscode.workspace.applyEdit(edit)) ? text : undefined;
}

/** Opens the first image (beside the document when a link went into one) and reveals the rest. */
export async function openImages(uris: readonly vscode.Uri[], beside: boolean, log: Log): Promise<void> {
  if (!uris.length) return;
  try {
    await vscode.commands.executeCommand(
      'vscode.open',
      uris[0],
      beside ? { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true } : { preview: true },
    );
    for (const uri of uris.slice(1)) await vscode.commands.executeCommand('revealInExplorer', uri);
  } catch (err) {
    log.warn(`images: could not open ${uris[0].toString(true)}: ${errorText(err)}`);
  }
}

export function showRevisedPrompts(revised: readonly string[]): void {
  if (!revised.length) return;
  const text = revised.map((r) => (r.length > 600 ? `${r.slice(0, 600)}…` : r)).join(' · ');
  // Not awaited: a notification without buttons stays until it is dismissed.
  void vscode.window.showInformationMessage(vscode.l10n.t('Modelgate: the model revised your prompt to: “{0}”', text));
}
