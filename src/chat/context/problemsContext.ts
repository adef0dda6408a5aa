// The diagnostics chip: the problems VS Code reports for the active file (or, when it has none,
// the workspace's errors) as context for the next message. Bounded (a workspace can report
// thousands) and with workspace-relative paths only: a file outside the workspace is named by
// its file name, and the workspace's errors leave out files outside its folders.
import * as vscode from 'vscode';
import { labelOf, type Problem } from './editorContext';
import { newId, type PendingAttachment } from '../conversations/conversationTranscript';

/** At most this many problems, and this many characters, go into one attachment. */
export const MAX_PROBLEMS = 50;
export const MAX_PROBLEMS_CHARS = 8_000;
const MAX_MESSAGE_CHARS = 300;

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

function inWorkspace(uri: vscode.Uri): boolean {
  return uri.scheme !== 'untitled' && vscode.workspace.getWorkspaceFolder(uri) !== undefined;
}

/** A path for the model: workspace-relative, an untitled name, else only the file name. */
function safeLabel(uri: vscode.Uri): string {
  if (uri.scheme === 'untitled' || inWorkspace(uri)) return labelOf(uri);
  return uri.path.split('/').pop() || 'file';
}

function line(path: string, d: vscode.Diagnostic): string {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  const source = d.source ? `${d.source}${code !== undefined ? ` ${code}` : ''}: ` : '';
  let message = d.message.replace(/\s+/g, ' ').trim();
  if (message.length > MAX_MESSAGE_CHARS) message = `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…`;
  return `${path}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${SEVERITY[d.severity] ?? 'problem'}: ${source}${message}`;
}

/** The lines of `groups`, most severe first, cut at the bounds with a count of what was left out. */
function problemLines(groups: [string, readonly vscode.Diagnostic[]][]): { text: string; count: number } {
  const all = groups
    .flatMap(([path, ds]) => ds.map((d) => ({ path, d })))
    .sort((a, b) => a.d.severity - b.d.severity || a.path.localeCompare(b.path) || a.d.range.start.line - b.d.range.start.line);
  const out: string[] = [];
  let chars = 0;
  for (const { path, d } of all) {
    const l = line(path, d);
    if (out.length >= MAX_PROBLEMS || chars + l.length + 1 > MAX_PROBLEMS_CHARS) break;
    out.push(l);
    chars += l.length + 1;
  }
  if (out.length < all.length) out.push(`(${all.length - out.length} more not shown)`);
  return { text: out.join('\n'), count: all.length };
}

/** The active file's problems, else the workspace's errors, as a chip for the next message. */
export function problemsAttachment(editor: vscode.TextEditor | undefined): PendingAttachment | Problem {
  const doc = editor?.document;
  if (doc) {
    const ds = vscode.languages.getDiagnostics(doc.uri);
    if (ds.length) {
      const path = safeLabel(doc.uri);
      const { text, count } = problemLines([[path, ds]]);
      return {
        id: newId(),
        kind: 'diagnostics',
        label: vscode.l10n.t('Problems: {0} ({1})', path, count),
        contexts: [{ title: `Problems VS Code reports in ${path}`, text }],
      };
    }
  }
  const groups: [string, vscode.Diagnostic[]][] = [];
  for (const [uri, ds] of vscode.languages.getDiagnostics()) {
    const errors = ds.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
    if (errors.length && inWorkspace(uri)) groups.push([labelOf(uri), errors]);
  }
  if (groups.length === 0) {
    return {
      problem: doc
        ? vscode.l10n.t('VS Code reports no problems in {0} and no errors in the workspace.', safeLabel(doc.uri))
        : vscode.l10n.t('VS Code reports no errors in the workspace.'),
    };
  }
  const { text, count } = problemLines(groups);
  return {
    id: newId(),
    kind: 'diagnostics',
    label: vscode.l10n.t('Errors: workspace ({0})', count),
    contexts: [{ title: `Errors VS Code reports in the workspace (${groups.length} file${groups.length === 1 ? '' : 's'})`, text }],
  };
}
