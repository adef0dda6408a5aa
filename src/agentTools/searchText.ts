import * as vscode from 'vscode';
import { mapLimited, throwIfCancelled } from './cancellation';
import { fileErrorReason, FileMissing, readUri, statUri } from './fileAccess';
import { ToolError } from './errors';
import { createdFilesIn, deletedIn, findWorkspaceFiles } from './fileSearch';
import { checkRelativeGlob, excludeGlob } from './globs';
import { LIMITS } from './limits';
import type { SearchTextArgs } from './schemas';
import type { StagedView } from './toolContext';
import { hasSecretContent } from '../core/workspace/sensitiveFiles';
import { targetIsSensitive } from './sensitiveAccess';
import { decodeText, hasBinaryExtension, looksBinary } from './text';
import { createRegexScanner } from './regexScan';
import { compileRegex, literalTester, RegexUnavailable, scanText, ScanTimeout, type LineMatch, type LineTester } from './textScan';
import { workspaceFolders, type Target } from './workspaceAccess';

interface FileText {
  target: Target;
  text: string;
}

/** `staged`: the answer's own edits; their text is searched instead of the disk's, a created file too, a deleted one not. */
export async function searchTextTool(args: SearchTextArgs, token: vscode.CancellationToken, staged?: StagedView): Promise<string> {
  const max = args.maxResults ?? LIMITS.searchDefaultResults;
  let test: LineTester | undefined;
  let re: RegExp | undefined;
  if (args.isRegex) {
    try {
      re = compileRegex(args.query);
    } catch (e) {
      throw new ToolError(`Invalid regular expression: ${(e as Error).message}`);
    }
  } else {
    test = literalTester(args.query);
  }

  // Which folders, and the glob inside each. In a multi-root workspace `folderName/...` picks one.
  const folders = workspaceFolders();
  let scopes = folders.map((folder) => ({ folder, glob: args.glob ?? '**/*' }));
  if (args.glob !== undefined) {
    const problem = checkRelativeGlob(args.glob);
    if (problem) throw new ToolError(problem);
    const first = args.glob.split('/')[0];
    const named = folders.length > 1 ? folders.find((f) => f.name === first) : undefined;
    if (named) scopes = [{ folder: named, glob: args.glob.slice(first!.length + 1) || '**/*' }];
  }

  const candidates: Target[] = [];
  let fileLimitHit = false;
  let skippedSecret = 0;
  for (const { folder, glob } of scopes) {
    const searchExclude = vscode.workspace.getConfiguration('search', folder.uri).get<Record<string, unknown>>('exclude');
    const room = LIMITS.searchMaxFiles - candidates.length;
    if (room <= 0) {
      fileLimitHit = true;
      break;
    }
    const found = await findWorkspaceFiles(folder, glob, excludeGlob(searchExclude), room, token);
    fileLimitHit ||= found.limitHit;
    const onDisk = found.files.filter((t) => !deletedIn(staged, t));
    const names = new Set(onDisk.map((t) => t.relative));
    const created = (await createdFilesIn(staged, folder, glob, searchExclude)).filter((t) => !names.has(t.relative));
    if (onDisk.length + created.length > room) fileLimitHit = true;
    for (const t of [...onDisk, ...created].slice(0, room)) {
      // Never read, never asked about: a search would otherwise put lines of `.env` in the result
      // without the user knowing. read_file on the file asks the user instead.
      if (targetIsSensitive(t)) skippedSecret++;
      else candidates.push(t);
    }
  }

  const matches: { target: Target; hits: LineMatch[] }[] = [];
  let total = 0;
  let searched = 0;
  let skippedBinary = 0;
  let skippedLarge = 0;
  const batchSize = LIMITS.searchReadConcurrency * 4;
  const scanner = re ? createRegexScanner() : undefined;
  try {
    for (let i = 0; i < candidates.length && total < max; i += batchSize) {
      throwIfCancelled(token);
      const batch = candidates.slice(i, i + batchSize);
      const texts = await mapLimited(batch, LIMITS.searchReadConcurrency, token, async (t): Promise<FileText | 'binary' | 'large' | 'secret' | undefined> => {
        if (hasBinaryExtension(t.relative) || hasBinaryExtension(t.realRelative)) return 'binary';
        const own = staged?.lookup(t.uri.toString());
        if (own?.text !== undefined) {
          if (own.text.length > LIMITS.searchMaxFileBytes) return 'large';
          return hasSecretContent(own.text) ? 'secret' : { target: t, text: own.text };
        }
        try {
          const stat = await statUri(t.uri, token);
          if (stat.kind !== 'file') return undefined;
          if (stat.size > LIMITS.searchMaxFileBytes) return 'large';
          const bytes = await readUri(t.uri, token);
          if (looksBinary(bytes)) return 'binary';
          const text = decodeText(bytes);
          return hasSecretContent(text) ? 'secret' : { target: t, text }; // a key inside, whatever the name
        } catch (e) {
          if (e instanceof FileMissing || fileErrorReason(e)) return undefined; // vanished or unreadable: skip
          throw e;
        }
      });
      throwIfCancelled(token);
      const readable: FileText[] = [];
      for (const r of texts) {
        if (r === 'binary') skippedBinary++;
        else if (r === 'secret') skippedSecret++;
        else if (r === 'large') skippedLarge++;
        else if (r) readable.push(r);
      }
      const found: { target: Target; hits: LineMatch[] }[] = [];
      if (scanner && re) {
        // Regex from the model: in a worker thread under a time limit (platform seam regexScan: worker_threads, or a Web Worker in the web build).
        let perText: LineMatch[][];
        try {
          perText = await scanner.scan(
            readable.map((f) => f.text),
            re,
            max - total,
            LIMITS.searchRegexBatchTimeoutMs,
          );
        } catch (e) {
          if (e instanceof ScanTimeout) {
            throw new ToolError(
              'The regular expression is too slow (catastrophic backtracking?). Simplify it, or search for a plain string with isRegex false.',
            );
          }
          if (e instanceof RegexUnavailable) {
            throw new ToolError(`Regular-expression search is not available in this editor (${e.message}). Search for a plain string with isRegex false.`);
          }
          throw e;
        }
        let n = total;
        readable.forEach((f, i) => {
          if (n >= max) return;
          searched++;
          const hits = perText[i] ?? [];
          if (hits.length) {
            found.push({ target: f.target, hits });
            n += hits.length;
          }
        });
      } else if (test) {
        let n = total;
        for (const f of readable) {
          if (n >= max) break;
          searched++;
          const hits = scanText(f.text, test, max - n);
          if (hits.length) {
            found.push({ target: f.target, hits });
            n += hits.length;
          }
        }
      }
      for (const f of found) {
        matches.push(f);
        total += f.hits.length;
      }
    }
  } finally {
    scanner?.dispose();
  }

  const label = args.isRegex ? `/${args.query}/` : `"${args.query}"`;
  const notes: string[] = [];
  if (total >= max) notes.push(`Stopped at ${max} matches; there may be more. Narrow with glob, or raise maxResults (up to ${LIMITS.searchMaxResultsCap}).`);
  if (fileLimitHit) notes.push(`Only the first ${LIMITS.searchMaxFiles} files were considered; narrow with glob.`);
  const skipped = [
    skippedBinary ? `${skippedBinary} binary` : '',
    skippedLarge ? `${skippedLarge} larger than ${LIMITS.searchMaxFileBytes / 1024 / 1024} MB` : '',
    skippedSecret ? `${skippedSecret} that may contain secrets (not searched; read_file asks the user before reading one)` : '',
  ].filter(Boolean);
  if (skipped.length) notes.push(`Skipped files: ${skipped.join(', ')}.`);
  const noteText = notes.map((n) => `\n[${n}]`).join('');

  if (total === 0) {
    return `No matches for ${label} in ${searched} file${searched === 1 ? '' : 's'}${args.glob ? ` matching "${args.glob}"` : ''}.${noteText}`;
  }
  const body = matches.flatMap((m) => m.hits.map((h) => `${m.target.display}:${h.line}: ${h.preview}`));
  return `${total} match${total === 1 ? '' : 'es'} for ${label} in ${matches.length} file${matches.length === 1 ? '' : 's'}:\n${body.join('\n')}${noteText}`;
}
