import type * as vscode from 'vscode';
import { ToolError } from './errors';
import type { ReadFileArgs } from './schemas';
import { formatFileSlice, hasBinaryExtension, sliceLines, splitLines } from './text';
import { LIMITS } from './limits';
import type { SensitiveReadGate } from './sensitiveAccess';
import { assertNotExcluded, binaryError, notFound, readText, resolvePath, statTarget, tooLarge } from './workspaceAccess';

/** The text this answer's edit tools staged for a resolved file (undefined text: deleted), if any. */
export type StagedLookup = (key: string) => { text: string | undefined } | undefined;

export async function readFileTool(args: ReadFileArgs, gate: SensitiveReadGate, token: vscode.CancellationToken, staged?: StagedLookup): Promise<string> {
  const t = await resolvePath(args.path);
  // The answer's own staged change first: its later reads see what it wrote, not the disk.
  const own = staged?.(t.uri.toString());
  if (own) {
    if (own.text === undefined) throw notFound(t);
    await assertNotExcluded(t, token).catch((e: unknown) => {
      if (!(e instanceof ToolError) || t.exists) throw e; // a new file is not known to the file search yet
    });
    await gate.allow(t, 'read_file', token, own.text);
    const slice = sliceLines(splitLines(own.text), args.startLine, args.endLine);
    if (!slice.ok) throw new ToolError(`${t.display}: ${slice.message}`);
    return formatFileSlice(t.display, slice, '(changed in this answer, not saved yet)');
  }
  const stat = await statTarget(t, token);
  if (stat.kind === 'directory') {
    throw new ToolError(`"${t.display}" is a folder. Call list_files with path "${t.display}" to see its files.`);
  }
  if (stat.kind !== 'file') throw new ToolError(`"${t.display}" is not a regular file.`);
  await assertNotExcluded(t, token);
  if (hasBinaryExtension(t.relative) || hasBinaryExtension(t.realRelative)) throw binaryError(t);
  if (stat.size > LIMITS.readMaxFileBytes) throw tooLarge(t, stat.size);

  const { text, unsaved } = await readText(t, token);
  // Asked after reading, before anything of the text is returned: a file the tool refuses anyway
  // (binary key stores, a folder, too large) costs the user no question. The bytes stay here.
  await gate.allow(t, 'read_file', token, text);
  const slice = sliceLines(splitLines(text), args.startLine, args.endLine);
  if (!slice.ok) throw new ToolError(`${t.display}: ${slice.message}`);
  return formatFileSlice(t.display, slice, unsaved ? '(unsaved editor contents)' : undefined);
}
