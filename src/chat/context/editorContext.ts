// Turns what the user points at in the editor into chat context: the selection (with the
// diagnostics inside it) for the next message, or a whole file pinned to the conversation.
// Only what the user explicitly attaches is sent.
import { utf8ByteLength } from '../../platform/bytes';
import * as vscode from 'vscode';
import type { VolatileContext } from '../../core/prompt/promptLayout';
import { newId, type PendingAttachment, type PinnedRecord } from '../conversations/conversationTranscript';

/** A pinned file goes into every request of the conversation: keep it reasonable. */
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_SELECTION_CHARS = 200_000;

export type Problem = { problem: string };

export function labelOf(uri: vscode.Uri): string {
  if (uri.scheme === 'untitled') return uri.path;
  return vscode.workspace.asRelativePath(uri, false);
}

function fenceLanguage(doc: vscode.TextDocument): string | undefined {
  return doc.languageId && doc.languageId !== 'plaintext' ? doc.languageId : undefined;
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

function diagnosticsIn(doc: vscode.TextDocument, range: vscode.Range): string[] {
  return vscode.languages
    .getDiagnostics(doc.uri)
    .filter((d) => d.range.intersection(range) !== undefined)
    .map((d) => {
      const code = typeof d.code === 'object' ? d.code.value : d.code;
      const source = d.source ? `${d.source}${code !== undefined ? ` ${code}` : ''}: ` : '';
      return `line ${d.range.start.line + 1}: ${SEVERITY[d.severity]}: ${source}${d.message.replace(/\s+/g, ' ')}`;
    });
}

/** The editor's selection as context for the next message; undefined when nothing is selected. */
export function selectionAttachment(editor: vscode.TextEditor): PendingAttachment | Problem | undefined {
  const doc = editor.document;
  const sel = editor.selection;
  if (sel.isEmpty) return undefined;
  const text = doc.getText(sel);
  if (!text.trim()) return undefined;
  if (text.length > MAX_SELECTION_CHARS) {
    return {
      problem: vscode.l10n.t(
        'The selection has {0} characters; at most {1} can be attached. Attach the file instead.',
        text.length.toLocaleString('en-US'),
        MAX_SELECTION_CHARS.toLocaleString('en-US'),
      ),
    };
  }
  const path = labelOf(doc.uri);
  const first = sel.start.line + 1;
  // A selection that ends at column 0 does not really include that line.
  const last = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
  const lines = first === last ? `line ${first}` : `lines ${first}-${last}`;
  const contexts: VolatileContext[] = [{ title: `Selection from ${path}, ${lines}`, language: fenceLanguage(doc), text }];
  const diagnostics = diagnosticsIn(doc, sel);
  if (diagnostics.length) contexts.push({ title: `Diagnostics in that selection`, text: diagnostics.join('\n') });
  return { id: newId(), kind: 'selection', label: `${path}:${first === last ? first : `${first}-${last}`}`, contexts };
}

/** A document (its current text, unsaved changes included) pinned to the conversation. */
export function documentAttachment(doc: vscode.TextDocument): PinnedRecord | Problem {
  const content = doc.getText();
  if (utf8ByteLength(content) > MAX_FILE_BYTES) return tooLarge(doc.uri);
  const path = labelOf(doc.uri);
  return { id: newId(), label: path, path, language: fenceLanguage(doc), content };
}

function tooLarge(uri: vscode.Uri): Problem {
  return { problem: vscode.l10n.t('{0} is larger than {1} KB; attach a selection of it instead.', labelOf(uri), MAX_FILE_BYTES / 1024) };
}

/** A file from disk: refused when binary or too large. */
export async function fileAttachment(uri: vscode.Uri): Promise<PinnedRecord | Problem> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return documentAttachment(open);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    return { problem: vscode.l10n.t('{0} could not be read.', labelOf(uri)) };
  }
  if (stat.type & vscode.FileType.Directory) return { problem: vscode.l10n.t('{0} is a folder; attach files one by one.', labelOf(uri)) };
  if (stat.size > MAX_FILE_BYTES) return tooLarge(uri);
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.subarray(0, 8000).includes(0)) return { problem: vscode.l10n.t('{0} looks like a binary file; only text files can be attached.', labelOf(uri)) };
  let content: string;
  try {
    content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: vscode.l10n.t('{0} is not UTF-8 text; only text files can be attached.', labelOf(uri)) };
  }
  const doc = await vscode.workspace.openTextDocument(uri).then(
    (d) => d,
    () => undefined,
  );
  const path = labelOf(uri);
  return { id: newId(), label: path, path, language: doc ? fenceLanguage(doc) : undefined, content };
}

export function isProblem<T extends object>(x: T | Problem): x is Problem {
  return 'problem' in x;
}
