// What the buttons on a code block and the links of an answer do. Model output is untrusted:
// nothing here writes to a file without the user's click, and Apply shows the change as a
// diff first and changes the file only when the user confirms.
import * as vscode from 'vscode';

export const PROPOSAL_SCHEME = 'modelgate-proposal';

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

/** Serves the proposed versions shown on the right of Apply's diff (read-only, in memory). */
export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this);
  }

  add(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${++this.counter}/${name}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  remove(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}

export type ApplyResult = 'applied' | 'declined' | 'noEditor' | 'changed';

/**
 * Shows the active document next to a version with its selection replaced by `code`, and applies
 * that replacement only when the user confirms. `confirm` is the question (a notification).
 */
export async function applyCode(
  code: string,
  proposals: ProposalDocuments,
  confirm: (question: string) => Thenable<boolean> = async (q) => (await vscode.window.showInformationMessage(q, vscode.l10n.t('Apply'), vscode.l10n.t('Discard'))) === vscode.l10n.t('Apply'),
): Promise<ApplyResult> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return 'noEditor';
  const doc = editor.document;
  const range = new vscode.Range(editor.selection.start, editor.selection.end);
  const version = doc.version;
  const before = doc.getText();
  const proposed = before.slice(0, doc.offsetAt(range.start)) + code + before.slice(doc.offsetAt(range.end));
  const name = doc.uri.path.split('/').pop() || 'untitled';
  const right = proposals.add(name, proposed);
  try {
    await vscode.commands.executeCommand('vscode.diff', doc.uri, right, `${name} ↔ proposed change`, { preview: true });
    const yes = await confirm(vscode.l10n.t('Apply the proposed change to {0}?', name));
    if (!yes) return 'declined';
    if (doc.version !== version) return 'changed';
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, range, code);
    const ok = await vscode.workspace.applyEdit(edit);
    return ok ? 'applied' : 'changed';
  } finally {
    await closeDiff(right);
    proposals.remove(right);
  }
}

async function closeDiff(right: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  const diff = tabs.filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right.toString());
  if (diff.length) await vscode.window.tabGroups.close(diff);
}
