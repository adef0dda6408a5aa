import { utf8ByteLength } from '../platform/bytes';
import * as vscode from 'vscode';
import { ToolError } from './errors';
import { LIMITS } from './limits';
import type { SensitiveReadGate } from './sensitiveAccess';
import { sliceLines, splitLines } from './text';
import { assertNotExcluded, resolveUri } from './workspaceAccess';

/**
 * The active editor's selection (or the visible lines when nothing is selected). The editor may
 * show a file from outside the workspace (opened from disk, an untitled buffer, an output pane):
 * the same containment rules apply as for read_file.
 */
export async function getSelectionTool(gate: SensitiveReadGate, token: vscode.CancellationToken): Promise<string> {
  // When the chat panel has focus, the last active editor is still `activeTextEditor`.
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) throw new ToolError('No text editor is open, so there is no selection.');
  const doc = editor.document;
  if (doc.isUntitled) throw new ToolError('The active editor holds an untitled (unsaved) document; the workspace tools only read workspace files.');
  const t = await resolveUri(doc.uri);
  if (!t) throw new ToolError('The active editor shows a file outside the workspace; the workspace tools do not read it.');
  await assertNotExcluded(t, token);
  await gate.allow(t, 'get_selection', token, doc.getText()); // a key in the file asks, whatever its name

  const selections = editor.selections.filter((s) => !s.isEmpty);
  const lang = doc.languageId;
  // Count lines as read_file does: a final line break does not start another line.
  const lineCount = doc.lineCount > 1 && doc.lineAt(doc.lineCount - 1).text === '' ? doc.lineCount - 1 : doc.lineCount;
  const parts: string[] = [];
  let budgetLines: number = LIMITS.selectionMaxLines;
  let budgetBytes: number = LIMITS.selectionMaxBytes;
  let cut = false;
  const ranges: { range: vscode.Range; label: string }[] = selections.length
    ? selections.map((s, i) => ({ range: s, label: selections.length > 1 ? `selection ${i + 1} of ${selections.length}` : 'selection' }))
    : editor.visibleRanges.map((r) => ({ range: r, label: `nothing selected; visible lines, cursor on line ${editor.selection.active.line + 1}` }));
  if (ranges.length === 0) ranges.push({ range: new vscode.Range(0, 0, 0, 0), label: 'nothing selected' });

  for (const { range, label } of ranges) {
    if (budgetLines <= 0 || budgetBytes <= 0) {
      cut = true;
      break;
    }
    // A selection that ends at column 0 of a line does not include that line. Visible ranges are
    // taken as whole lines; selections exactly as selected.
    let endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
    if (!selections.length) endLine = Math.max(range.start.line, Math.min(endLine, lineCount - 1));
    const text = selections.length ? doc.getText(range) : doc.getText(new vscode.Range(range.start.line, 0, endLine, doc.lineAt(endLine).text.length));
    const slice = sliceLines(splitLines(text), 1, undefined, budgetLines, budgetBytes);
    if (!slice.ok) continue;
    budgetLines -= slice.last;
    budgetBytes -= utf8ByteLength(slice.text);
    cut ||= slice.truncated;
    const first = range.start.line + 1;
    const last = slice.truncated ? range.start.line + slice.last : endLine + 1;
    parts.push(`${t.display} (${label}: lines ${first}-${last} of ${lineCount}, ${lang})\n${slice.text}`);
  }
  const note = cut
    ? `\n[Truncated at ${LIMITS.selectionMaxLines} lines / ${LIMITS.selectionMaxBytes / 1024} KB. Call read_file on "${t.display}" with startLine/endLine for more.]`
    : '';
  const dirty = doc.isDirty ? '\n[The file has unsaved changes; this is the editor contents.]' : '';
  return parts.join('\n\n') + note + dirty;
}
