// The edit tools: edit_file, create_file, delete_file. They stage: nothing is saved here. The
// text before the answer goes into the answer's checkpoint, the model's text stays in memory
// (AnswerChanges), and the user keeps or undoes it in the panel (editReview.ts).
//
// Every path goes through the workspace guard of the read-only tools (resolvePath: inside the
// workspace folders, links resolved) and the write guard on top (src/shared/writeGuard.ts:
// no .git, no .vscode, no *.code-workspace, no link out or swapped in). Files the read-only tools
// treat as secret (.env, keys, credentials) are changed only after the user allows it, per file.
// Every refusal is a ToolError: the model reads it, the panel shows it as the call's result.
import * as vscode from 'vscode';
import { hasSecretContent } from '../../core/workspace/sensitiveFiles';
import type { ToolConfigKind } from '../../core/workspace/writeRules';
import { applySearchReplace } from '../../core/workspace/searchReplace';
import { guardWrite } from '../../shared/writeGuard';
import { ToolError } from '../../agentTools/errors';
import { FileMissing, readUri, statUri } from '../../agentTools/fileAccess';
import { LIMITS } from '../../agentTools/limits';
import type { CreateFileArgs, DeleteFileArgs, EditFileArgs } from '../../agentTools/schemas';
import type { EditToolName } from '../../agentTools';
import { targetIsSensitive } from '../../agentTools/sensitiveAccess';
import { decodeText, hasBinaryExtension, looksBinary } from '../../agentTools/text';
import { resolvePath } from '../../agentTools/workspaceAccess';
import type { AnswerChanges, StagedFile } from './answerChanges';
import type { CheckpointStore } from './checkpoints';

export interface EditContext {
  changes: AnswerChanges;
  checkpoints: CheckpointStore;
  log(message: string): void;
  /** the user's yes for changing a file that may hold secrets (per file and answer): a card in the answer */
  allowSensitive(display: string, tool: EditToolName, token: vscode.CancellationToken): Promise<boolean>;
  /** the answer whose pending changes hold `key`, if it is another one than `changes` */
  pendingElsewhere(key: string, answerId: string): boolean;
  /** the answer's files changed (the panel is told) */
  changed(): void;
}

interface Located {
  key: string;
  uri: vscode.Uri;
  display: string;
  /** a symbolic link led elsewhere inside the workspace */
  via?: string;
  /** the file configures tools, tasks, CI or packages (the write guard's classification) */
  configures?: ToolConfigKind;
}

const NOTHING = 'Nothing was changed.';

/** Both guards, for a model-supplied path; throws ToolError with the reason. */
async function locate(path: string, ctx: EditContext, tool: EditToolName, token: vscode.CancellationToken): Promise<Located> {
  let t;
  try {
    t = await resolvePath(path);
  } catch (e) {
    if (e instanceof ToolError) throw refusal(ctx, tool, path, `${e.message.replace(/\s*Only files.*$/, '')} ${NOTHING}`);
    throw e;
  }
  const w = await guardWrite(t.lexicalUri);
  if (!w.ok) throw refusal(ctx, tool, t.display, `${w.message} ${NOTHING} Do not try this file again; tell the user if the change is needed.`);
  const key = w.diskUri.toString();
  if (targetIsSensitive(t) && !(await ctx.changes.consent(key, () => ctx.allowSensitive(w.display, tool, token)))) {
    throw refusal(ctx, tool, w.display, `The user did not allow changes to "${w.display}": it may contain secrets. ${NOTHING} Do not try it again.`);
  }
  return {
    key,
    uri: w.realUri,
    display: w.display,
    ...(w.realDisplay !== w.display ? { via: w.realDisplay } : {}),
    ...(w.configures ? { configures: w.configures } : {}),
  };
}

function refusal(ctx: EditContext, tool: string, shown: string, message: string): ToolError {
  ctx.log(`Edits: refused ${tool} of ${shown}.`);
  return new ToolError(message);
}

/** The file's text as this answer sees it now (staged, else the editor's buffer, else the disk); undefined: no file. */
async function currentText(loc: Located, token: vscode.CancellationToken): Promise<string | undefined> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === loc.uri.toString());
  if (doc && !doc.isClosed) {
    const text = doc.getText();
    if (text.length > LIMITS.editMaxFileBytes) throw tooLarge(loc, text.length);
    return text;
  }
  let size: number;
  try {
    const st = await statUri(loc.uri, token);
    if (st.kind !== 'file') throw new ToolError(`"${loc.display}" is ${st.kind === 'directory' ? 'a folder' : 'not a regular file'}. ${NOTHING}`);
    size = st.size;
  } catch (e) {
    if (e instanceof FileMissing) return undefined;
    throw e;
  }
  if (size > LIMITS.editMaxFileBytes) throw tooLarge(loc, size);
  if (hasBinaryExtension(loc.display)) throw binary(loc);
  const bytes = await readUri(loc.uri, token);
  if (looksBinary(bytes)) throw binary(loc);
  return decodeText(bytes);
}

function tooLarge(loc: Located, size: number): ToolError {
  return new ToolError(
    `"${loc.display}" is ${(size / 1024 / 1024).toFixed(1)} MB; the model changes files up to ${LIMITS.editMaxFileBytes / 1024 / 1024} MB (the size a checkpoint keeps, so that the change can be undone). ${NOTHING}`,
  );
}

function binary(loc: Located): ToolError {
  return new ToolError(`"${loc.display}" is a binary file; the edit tools change text files only. ${NOTHING}`);
}

/**
 * The file's entry in this answer: the one staged before, or a new one (the text as it is now)
 * that finish() registers once the call succeeded: a failed call stages nothing. A file the user
 * kept earlier in this answer gets a new pending change over its text now, and keeps the
 * answer's first original (its checkpoint, and whether the answer created it) for the restore.
 */
async function stage(ctx: EditContext, loc: Located, tool: EditToolName, order: number, token: vscode.CancellationToken): Promise<StagedFile> {
  const a = ctx.changes;
  const known = a.files.get(loc.key);
  if (known && known.state === 'pending') return known;
  if (ctx.pendingElsewhere(loc.key, a.answerId)) {
    throw new ToolError(
      `"${loc.display}" has changes from an earlier answer that the user has not kept or undone yet; changes of two answers are never mixed. ${NOTHING} Ask the user to keep or undo them first.`,
    );
  }
  const current = await currentText(loc, token);
  if (current !== undefined && hasSecretContent(current) && !(await a.consent(loc.key, () => ctx.allowSensitive(loc.display, tool, token)))) {
    throw new ToolError(`The user did not allow changes to "${loc.display}": it may contain secrets. ${NOTHING} Do not try it again.`);
  }
  const configures = loc.configures ? { configures: loc.configures } : {};
  if (known && known.state === 'kept') return { ...known, ...configures, text: current, over: { text: current }, state: 'pending' };
  return {
    key: loc.key,
    uri: loc.uri,
    display: loc.display,
    original: current,
    text: current,
    state: 'pending',
    checkpointed: false,
    index: order,
    ...configures,
  };
}

/** Registers the staged text (a new entry gets its checkpoint first), saves the manifest, tells the panel. */
async function finish(ctx: EditContext, f: StagedFile, text: string | undefined, what: string): Promise<void> {
  const a = ctx.changes;
  if (a.files.get(f.key) !== f) {
    // once per file and answer: a file kept and changed again keeps the checkpoint of before the answer
    if (!f.checkpointed) await ctx.checkpoints.keepOriginal(a, f);
    a.files.set(f.key, f);
  }
  f.text = text;
  void ctx.checkpoints.save(a); // coalesced, in order (checkpoints.ts); Keep and Undo wait for it
  ctx.log(`Edits: staged ${what} of ${f.display} (answer ${a.answerId}); not saved until the user keeps it.`);
  ctx.changed();
}

const viaNote = (loc: Located) => (loc.via ? ` (a link: the change goes to "${loc.via}")` : '');

export async function editFileTool(args: EditFileArgs, ctx: EditContext, token: vscode.CancellationToken): Promise<string> {
  const order = ctx.changes.takeIndex();
  const loc = await locate(args.path, ctx, 'edit_file', token);
  return ctx.changes.serial(loc.key, async () => {
    const f = await stage(ctx, loc, 'edit_file', order, token);
    if (f.text === undefined) {
      throw new ToolError(
        `"${loc.display}" does not exist${f.original !== undefined ? ' (you deleted it in this answer)' : ''}. Use create_file for a new file. ${NOTHING}`,
      );
    }
    const r = applySearchReplace(f.text, args.edits, loc.display);
    if (!r.ok) throw new ToolError(r.forModel);
    if (r.text.length > LIMITS.editMaxFileBytes) throw tooLarge(loc, r.text.length);
    await finish(ctx, f, r.text, `${args.edits.length} edit(s)`);
    return `Edited "${loc.display}"${viaNote(loc)}: ${args.edits.length} replacement${args.edits.length === 1 ? '' : 's'} applied. The change is staged for the user's review (not saved yet); read_file shows the new text.`;
  });
}

export async function createFileTool(args: CreateFileArgs, ctx: EditContext, token: vscode.CancellationToken): Promise<string> {
  const order = ctx.changes.takeIndex();
  const loc = await locate(args.path, ctx, 'create_file', token);
  return ctx.changes.serial(loc.key, async () => {
    const f = await stage(ctx, loc, 'create_file', order, token);
    if (f.text !== undefined) throw new ToolError(`"${loc.display}" exists already. Use edit_file to change it. ${NOTHING}`);
    await finish(ctx, f, args.content, 'a new file');
    return `Created "${loc.display}"${viaNote(loc)} (${args.content.split('\n').length} lines), staged for the user's review (not saved yet).`;
  });
}

export async function deleteFileTool(args: DeleteFileArgs, ctx: EditContext, token: vscode.CancellationToken): Promise<string> {
  const order = ctx.changes.takeIndex();
  const loc = await locate(args.path, ctx, 'delete_file', token);
  return ctx.changes.serial(loc.key, async () => {
    const f = await stage(ctx, loc, 'delete_file', order, token);
    if (f.text === undefined) throw new ToolError(`"${loc.display}" does not exist. Use list_files to find the right path. ${NOTHING}`);
    await finish(ctx, f, undefined, 'the deletion');
    return `Deleted "${loc.display}"${viaNote(loc)}: staged for the user's review (the file stays until the user keeps the deletion).`;
  });
}
