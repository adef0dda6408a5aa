// A few other files for the prompt, when they fit its budget: the open documents the current file
// imports (by file name in its import lines), then the other files visible beside it. Each is the
// head of the file (its declarations, usually), in the order of their paths, so consecutive
// requests in one file send the same snippets and the prompt cache keeps them. Files the rules
// keep out (secret names, excluded globs, switched-off languages, a secret inside) are never sent.
import * as vscode from 'vscode';
import type { RelatedSnippet } from '../core/completions/fimPrompt';
import { path } from '../platform/path';

/** The most files looked at, and the lines of each sent (the prompt's budget cuts further). */
const MAX_FILES = 4;
const HEAD_LINES = 60;
/** Lines of the current file read for its imports. */
const IMPORT_SCAN_LINES = 80;

const IMPORT_LINE = /^\s*(?:import\b|export\s+(?:\*|\{)[^'"]*from\b|from\s+\S+\s+import\b|#include\b|use\s|require\s*\(|const\s+\w+\s*=\s*require\s*\()/;

/** The names (without extension) of the files the first lines of `doc` import: `./math` -> `math`. */
export function importedNames(doc: Pick<vscode.TextDocument, 'lineCount' | 'lineAt'>): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < Math.min(doc.lineCount, IMPORT_SCAN_LINES); i++) {
    const text = doc.lineAt(i).text;
    if (!IMPORT_LINE.test(text)) continue;
    for (const m of text.matchAll(/["'<]([^"'<>]+)["'>]/g)) {
      const base = m[1]!
        .split('/')
        .pop()!
        .replace(/\.[^.]+$/, '');
      if (base) names.add(base);
    }
    for (const m of text.matchAll(/\bfrom\s+([\w.]+)\s+import\b/g)) names.add(m[1]!.split('.').pop()!);
  }
  return names;
}

export interface SnippetGate {
  /** true when the document may be sent (the rules, its names, no secret inside) */
  allowed(doc: vscode.TextDocument): Promise<boolean>;
  /** its path for the prompt */
  promptPath(doc: vscode.TextDocument): Promise<string>;
}

/** The related snippets for `current`, best first, then in a stable order. */
export async function relatedSnippets(current: vscode.TextDocument, gate: SnippetGate): Promise<RelatedSnippet[]> {
  const imported = importedNames(current);
  const key = current.uri.toString();
  const open = vscode.workspace.textDocuments.filter((d) => d.uri.toString() !== key && !d.isClosed && d.uri.scheme === current.uri.scheme);
  const stem = (d: vscode.TextDocument) => path.posix.basename(d.uri.path).replace(/\.[^.]+$/, '');
  const visible = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
  const chosen = [
    ...open.filter((d) => imported.has(stem(d))),
    ...open.filter((d) => !imported.has(stem(d)) && visible.has(d.uri.toString()) && d.languageId === current.languageId),
  ].slice(0, MAX_FILES);
  const out: RelatedSnippet[] = [];
  for (const doc of chosen) {
    if (!(await gate.allowed(doc))) continue;
    const lines: string[] = [];
    for (let i = 0; i < Math.min(doc.lineCount, HEAD_LINES); i++) lines.push(doc.lineAt(i).text);
    out.push({ path: await gate.promptPath(doc), text: lines.join('\n') });
  }
  // imported ones first (they matter most), each group by path: the same snippets in the same order on every request
  const isImported = (s: RelatedSnippet) => imported.has(path.posix.basename(s.path).replace(/\.[^.]+$/, ''));
  return out.sort((a, b) => Number(isImported(b)) - Number(isImported(a)) || a.path.localeCompare(b.path));
}
