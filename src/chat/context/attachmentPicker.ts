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

/**
 * `uri` (the explorer's or an editor's menu names it), else the files the user picks: a quick pick
 * of the open files, the active editor's first (Enter takes it), and "Choose files…" for a file
 * dialog. The panel's Attach file button asks rather than pinning whatever editor is active
 * (the user says which file the model sees). Cancelled: nothing.
 */
export async function pickFiles(uri?: vscode.Uri): Promise<{ files: PinnedRecord[]; problems: string[] }> {
  const sources: (vscode.Uri | vscode.TextDocument)[] = [];
  if (uri) sources.push(uri);
  else sources.push(...(await askWhichFiles()));
  const out: { files: PinnedRecord[]; problems: string[] } = { files: [], problems: [] };
  for (const s of sources) {
    const r = s instanceof vscode.Uri ? await fileAttachment(s) : documentAttachment(s);
    if (isProblem(r)) out.problems.push(r.problem);
    else out.files.push(r);
  }
  return out;
}

type FileItem = vscode.QuickPickItem & { source?: vscode.Uri | vscode.TextDocument };

/** The open files (the active editor's first) and "Choose files…"; what the user picked. */
async function askWhichFiles(): Promise<(vscode.Uri | vscode.TextDocument)[]> {
  const active = vscode.window.activeTextEditor?.document;
  const seen = new Set<string>();
  const items: FileItem[] = [];
  const add = (source: vscode.Uri | vscode.TextDocument, note?: string) => {
    const u = source instanceof vscode.Uri ? source : source.uri;
    if (u.scheme !== 'file' && u.scheme !== 'vscode-remote' && u.scheme !== 'untitled') return;
    if (seen.has(u.toString())) return;
    seen.add(u.toString());
    const name = u.path.split('/').pop() || u.path;
    const where = vscode.workspace.asRelativePath(u, false);
    items.push({ label: `$(file) ${name}`, description: [note, where !== name ? where : undefined].filter(Boolean).join(' · '), source });
  };
  if (active) add(active, vscode.l10n.t('active editor'));
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    if (!(tab.input instanceof vscode.TabInputText)) continue;
    const tabUri = tab.input.uri;
    add(vscode.workspace.textDocuments.find((d) => d.uri.toString() === tabUri.toString()) ?? tabUri);
  }
  // no open file to choose among: straight to the file dialog
  const picked = items.length === 0 ? undefined : await askAmong(items);
  if (picked === 'cancelled') return [];
  if (picked) return [picked];
  const chosen = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: vscode.l10n.t('Attach'),
    title: vscode.l10n.t('Attach files to the conversation'),
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return chosen ?? [];
}

/** The open file picked, undefined for "Choose files…", or 'cancelled'. */
async function askAmong(items: FileItem[]): Promise<vscode.Uri | vscode.TextDocument | undefined | 'cancelled'> {
  const browse: FileItem = { label: `$(folder-opened) ${vscode.l10n.t('Choose files…')}`, description: vscode.l10n.t('from the workspace or disk') };
  const picked = await vscode.window.showQuickPick([...items, browse], {
    title: vscode.l10n.t('Attach a file to the conversation'),
    placeHolder: vscode.l10n.t('Pick an open file, or choose files'),
  });
  return picked ? picked.source : 'cancelled';
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
