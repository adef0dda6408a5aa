// Finds what the user wants to attach: the editor's selection, files (the active document or a
// file dialog), image files or pasted image bytes. Each returns the attachment or a sentence
// that says why not; the controller decides where it goes.
import * as vscode from 'vscode';
import { documentAttachment, fileAttachment, isProblem, selectionAttachment, type Problem } from './editorContext';
import { prepareImage } from '../../core/prompt/imageInput';
import { newId, type PendingAttachment, type PinnedRecord } from '../conversations/conversationTranscript';

export function pickSelection(editor: vscode.TextEditor | undefined): PendingAttachment | Problem {
  if (!editor) return { problem: vscode.l10n.t('Open a file and select the code to ask about, then attach it.') };
  return selectionAttachment(editor) ?? { problem: vscode.l10n.t('Nothing is selected. Select some code first, or attach the whole file.') };
}

/** `uri`, else the active editor's document, else the files the user picks. */
export async function pickFiles(uri?: vscode.Uri): Promise<{ files: PinnedRecord[]; problems: string[] }> {
  const sources: (vscode.Uri | vscode.TextDocument)[] = [];
  if (uri) sources.push(uri);
  else if (vscode.window.activeTextEditor) sources.push(vscode.window.activeTextEditor.document);
  else {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: true,
      openLabel: vscode.l10n.t('Attach'),
      title: vscode.l10n.t('Attach files to the conversation'),
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    sources.push(...(picked ?? []));
  }
  const out: { files: PinnedRecord[]; problems: string[] } = { files: [], problems: [] };
  for (const s of sources) {
    const r = s instanceof vscode.Uri ? await fileAttachment(s) : documentAttachment(s);
    if (isProblem(r)) out.problems.push(r.problem);
    else out.files.push(r);
  }
  return out;
}

/** The bytes and name of an image file: `uri`, or one the user picks; undefined when cancelled. */
export async function pickImageFile(uri?: vscode.Uri): Promise<{ bytes: Uint8Array; name: string } | undefined> {
  let target = uri;
  if (!target) {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: vscode.l10n.t('Attach'),
      title: vscode.l10n.t('Attach an image'),
      filters: { Images: ['png', 'jpg', 'jpeg', 'webp', 'gif'] },
    });
    target = picked?.[0];
  }
  if (!target) return undefined;
  return { bytes: await vscode.workspace.fs.readFile(target), name: target.path.split('/').pop() || 'image' };
}

/** An image (checked by its bytes, size-capped) as context for the next message. */
export function imageAttachment(bytes: Uint8Array, name: string): PendingAttachment | Problem {
  const img = prepareImage(bytes);
  if ('problem' in img) return img;
  const label = name.replace(/[\r\n]+/g, ' ').slice(0, 100) || 'image';
  return { id: newId(), kind: 'image', label, mime: img.mime, dataUrl: img.dataUrl, ...(img.thumbnail ? { thumbnail: img.thumbnail } : {}) };
}
