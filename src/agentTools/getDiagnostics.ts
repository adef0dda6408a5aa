import * as vscode from 'vscode';
import { mapLimited } from './cancellation';
import { ToolError } from './errors';
import { ALWAYS_SKIPPED_DIRS } from './globs';
import { LIMITS } from './limits';
import type { GetDiagnosticsArgs } from './schemas';
import { targetIsSensitive, type SensitiveReadGate } from './sensitiveAccess';
import { assertNotExcluded, resolvePath, resolveUri, statTarget, type Target } from './workspaceAccess';

const MAX_FILES_CHECKED = 200;

interface FileDiagnostics {
  target: Target;
  diagnostics: vscode.Diagnostic[];
}

function relevant(ds: readonly vscode.Diagnostic[]): vscode.Diagnostic[] {
  return ds
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error || d.severity === vscode.DiagnosticSeverity.Warning)
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

function codeOf(d: vscode.Diagnostic): string {
  const c = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  const parts = [d.source, c === undefined ? undefined : String(c)].filter((p): p is string => !!p);
  return parts.length ? ` [${parts.join(' ')}]` : '';
}

function formatOne(d: vscode.Diagnostic): string {
  const sev = d.severity === vscode.DiagnosticSeverity.Error ? 'error' : 'warning';
  let msg = d.message.replace(/\s*\n\s*/g, ' ').trim();
  if (msg.length > LIMITS.diagnosticsMessageChars) msg = `${msg.slice(0, LIMITS.diagnosticsMessageChars)}…`;
  return `  ${d.range.start.line + 1}:${d.range.start.character + 1} ${sev}${codeOf(d)}: ${msg}`;
}

export async function getDiagnosticsTool(args: GetDiagnosticsArgs, gate: SensitiveReadGate, token: vscode.CancellationToken): Promise<string> {
  let files: FileDiagnostics[];
  let scope: string;
  /** files left out because they may hold secrets (a message can quote a line of the file) */
  let secretFiles = 0;
  if (args.path !== undefined) {
    const t = await resolvePath(args.path);
    const stat = await statTarget(t, token);
    if (stat.kind === 'directory') {
      throw new ToolError(`"${t.display}" is a folder; give a file, or omit path for the whole workspace.`);
    }
    await assertNotExcluded(t, token);
    // Diagnostics are keyed by the URI the document was opened under: look under both names.
    const seen = new Set<vscode.Diagnostic>();
    const ds = [...vscode.languages.getDiagnostics(t.lexicalUri), ...vscode.languages.getDiagnostics(t.uri)].filter((d) => !seen.has(d) && seen.add(d));
    files = [{ target: t, diagnostics: relevant(ds) }];
    scope = t.display;
    // Only when there is something to show: "no problems" tells nothing about the contents.
    if (files[0]!.diagnostics.length > 0) await gate.allow(t, 'get_diagnostics', token);
  } else {
    const withProblems = vscode.languages
      .getDiagnostics()
      .map(([uri, ds]) => ({ uri, ds: relevant(ds) }))
      .filter((e) => e.ds.length > 0)
      .slice(0, MAX_FILES_CHECKED);
    // Only files inside the workspace (an editor may show any file of the disk), not in .git or
    // node_modules, and not hidden by files.exclude (a message can quote the file).
    const checked = await mapLimited(withProblems, 8, token, async (e) => {
      const t = await resolveUri(e.uri);
      if (!t || !t.exists) return undefined;
      if (t.relative.split('/').some((s) => (ALWAYS_SKIPPED_DIRS as readonly string[]).includes(s))) return undefined;
      try {
        await assertNotExcluded(t, token);
      } catch (err) {
        if (err instanceof ToolError) return undefined;
        throw err;
      }
      if (targetIsSensitive(t)) return 'secret';
      return { target: t, diagnostics: e.ds };
    });
    secretFiles = checked.filter((f) => f === 'secret').length;
    files = checked.filter((f): f is FileDiagnostics => f !== undefined && f !== 'secret');
    scope = 'the workspace';
  }

  files = files.filter((f) => f.diagnostics.length > 0).sort((a, b) => (a.target.display < b.target.display ? -1 : 1));
  const errors = files.reduce((n, f) => n + f.diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length, 0);
  const warnings = files.reduce((n, f) => n + f.diagnostics.length, 0) - errors;
  const secretNote =
    secretFiles > 0
      ? `\n[Not shown: problems in ${secretFiles} file${secretFiles === 1 ? '' : 's'} that may contain secrets. Call get_diagnostics with the file's path to ask the user.]`
      : '';
  if (files.length === 0)
    return secretFiles > 0 ? `No errors or warnings in ${scope} outside files that may contain secrets.${secretNote}` : `No errors or warnings in ${scope}.`;

  const lines: string[] = [];
  let shown = 0;
  for (const f of files) {
    if (shown >= LIMITS.diagnosticsMax) break;
    lines.push(f.target.display);
    for (const d of f.diagnostics) {
      if (shown >= LIMITS.diagnosticsMax) break;
      lines.push(formatOne(d));
      shown++;
    }
  }
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const head = `${plural(errors, 'error')} and ${plural(warnings, 'warning')} in ${plural(files.length, 'file')} (${scope}):`;
  const tail = shown < errors + warnings ? `\n[Showing the first ${shown}. Call get_diagnostics with a path for one file.]` : '';
  return `${head}\n${lines.join('\n')}${tail}${secretNote}`;
}
