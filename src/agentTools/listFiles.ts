import * as vscode from 'vscode';
import { ToolError } from './errors';
import { createdFilesIn, deletedIn, findWorkspaceFiles } from './fileSearch';
import { checkRelativeGlob, escapeGlob, excludeGlob } from './globs';
import { LIMITS } from './limits';
import type { ListFilesArgs } from './schemas';
import type { StagedView } from './toolContext';
import { resolvePath, statTarget, workspaceFolders } from './workspaceAccess';

/**
 * Lists paths only, never contents. Files that may hold secrets (`.env`, keys: src/core/workspace/sensitiveFiles.ts)
 * are listed like any other: a name is not a secret, the user sees the same names in the Explorer,
 * and the model needs the path to ask for such a file, which read_file then puts to the user.
 * The answer's own staged edits count: a file it created is listed, one it deleted is not.
 */
export async function listFilesTool(args: ListFilesArgs, token: vscode.CancellationToken, staged?: StagedView): Promise<string> {
  const max = args.maxResults ?? LIMITS.listDefaultResults;
  const glob = args.glob ?? '**/*';
  const globProblem = checkRelativeGlob(glob);
  if (globProblem) throw new ToolError(globProblem);

  // Where to look: one folder (path given) or every workspace folder.
  let scopes: { folder: vscode.WorkspaceFolder; prefix: string }[];
  let scopeLabel: string;
  if (args.path !== undefined) {
    const t = await resolvePath(args.path);
    const stat = await statTarget(t, token);
    if (stat.kind !== 'directory') {
      throw new ToolError(`"${t.display}" is a file, not a folder. Call read_file to read it.`);
    }
    if (t.relative.split('/').some((s) => s === '.git')) throw new ToolError(`"${t.display}" is inside .git, which the workspace tools never list.`);
    // List through the resolved location so that a linked folder is judged by where it leads.
    scopes = [{ folder: t.realFolder, prefix: t.realRelative }];
    scopeLabel = t.display;
  } else {
    scopes = workspaceFolders().map((folder) => ({ folder, prefix: '' }));
    scopeLabel = 'the workspace';
  }

  const lines: string[] = [];
  let limitHit = false;
  for (const { folder, prefix } of scopes) {
    const remaining = max - lines.length;
    if (remaining <= 0) {
      limitHit = true;
      break;
    }
    const pattern = prefix === '' ? glob : `${escapeGlob(prefix)}/${glob}`;
    const found = await findWorkspaceFiles(folder, pattern, excludeGlob(), remaining, token);
    limitHit ||= found.limitHit;
    const files = found.files.filter((f) => !deletedIn(staged, f));
    const names = new Set(files.map((f) => f.relative));
    files.push(...(await createdFilesIn(staged, folder, pattern)).filter((f) => !names.has(f.relative)));
    if (files.length > found.files.length) files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
    if (files.length > remaining) limitHit = true;
    for (const f of files.slice(0, remaining)) lines.push(args.path !== undefined ? underScope(scopeLabel, prefix, f) : f.display);
  }

  const what = `${scopeLabel}${args.glob ? ` matching "${args.glob}"` : ''}`;
  if (lines.length === 0) {
    return `No files found in ${what}. (Files hidden by files.exclude, .git and node_modules are not listed.)`;
  }
  const head = `${lines.length}${limitHit ? '+' : ''} file${lines.length === 1 ? '' : 's'} in ${what}:`;
  const tail = limitHit
    ? `\n[Showing the first ${lines.length}; there are more. Narrow with path or glob, or raise maxResults (up to ${LIMITS.listMaxResultsCap}).]`
    : '';
  return `${head}\n${lines.join('\n')}${tail}`;
}

/**
 * Results are named as read_file takes them. When the listed folder is a link to another place in the
 * workspace, files are named under the path the model asked for.
 */
function underScope(scopeLabel: string, prefix: string, f: { relative: string; display: string }): string {
  if (prefix !== '' && !f.relative.startsWith(prefix + '/')) return f.display;
  const rest = prefix === '' ? f.relative : f.relative.slice(prefix.length + 1);
  return scopeLabel === '.' ? rest : `${scopeLabel}/${rest}`;
}
