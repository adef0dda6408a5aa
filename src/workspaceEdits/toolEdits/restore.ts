// "Restore files to before this answer": puts back what an answer's kept changes did, from its
// checkpoint (checkpoints.ts), after showing the user what will be reverted. Changed files get
// their text back (written without following links, one undo step in the editor each), files the
// answer created are deleted, files it deleted come back. Pending changes of the answer are undone
// first (nothing of them was written). Every write runs the write guard again. Works after a
// window reload: the originals are in the workspace storage, not in memory.
import * as vscode from 'vscode';
import { writeDocumentNoFollow } from '../documentWrite';
import { createNoFollow, guardWrite } from '../../shared/writeGuard';
import { utf8Encode } from '../../platform/bytes';
import { kindOf, type StagedFile } from './answerChanges';
import type { EditReview } from './editReview';
import { errorText } from '../../core/errorText';

/** Shows what a restore will do; true to go ahead. Tests answer it. */
export type ConfirmRestore = (message: string, detail: string) => Promise<boolean>;

export const confirmRestoreModal: ConfirmRestore = async (message, detail) => {
  const restore = vscode.l10n.t('Restore Files');
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, restore)) === restore;
};

export type RestoreOutcome = { kind: 'restored'; problems: string[] } | { kind: 'cancelled' } | { kind: 'nothing' };

function plan(f: StagedFile): string {
  switch (kindOf(f)) {
    case 'create':
      return vscode.l10n.t('{0}: delete it (this answer created it)', f.display);
    case 'delete':
      return vscode.l10n.t('{0}: bring it back (this answer deleted it)', f.display);
    default:
      return vscode.l10n.t('{0}: put back its text from before this answer', f.display);
  }
}

export async function restoreAnswer(review: EditReview, answerId: string, confirm: ConfirmRestore, log: (m: string) => void): Promise<RestoreOutcome> {
  const a = review.answers.get(answerId);
  if (!a || !a.restorable) return { kind: 'nothing' };
  const files = a.listed().filter((f) => f.state === 'kept' && f.checkpointed);
  const ok = await confirm(
    vscode.l10n.t('Restore {0} file(s) to before this answer?', files.length),
    `${files.map(plan).join('\n')}\n\n${vscode.l10n.t('Changes made to these files after the answer are overwritten.')}`,
  );
  if (!ok) return { kind: 'cancelled' };
  await review.undo(answerId);
  const problems: string[] = [];
  for (const f of files) {
    try {
      const problem = await restoreFile(review, answerId, f, log);
      if (problem) problems.push(problem);
      else log(`Edits: restored ${f.display} to before answer ${answerId} (${kindOf(f)}).`);
    } catch (e) {
      problems.push(vscode.l10n.t('{0} could not be restored: {1}', f.display, errorText(e)));
    }
  }
  for (const p of problems) log(`Edits: restore: ${p}`);
  a.restored = true;
  await review.checkpoints.save(a);
  return { kind: 'restored', problems };
}

async function restoreFile(review: EditReview, answerId: string, f: StagedFile, log: (m: string) => void): Promise<string | undefined> {
  const w = await guardWrite(f.uri);
  if (!w.ok) return w.message;
  if (kindOf(f) === 'create') {
    if (w.exists) await vscode.workspace.fs.delete(w.realUri, { useTrash: false });
    return undefined;
  }
  const original = await review.checkpoints.original(answerId, f.index);
  if (original === undefined) return vscode.l10n.t('The checkpoint of {0} is missing, so it was not restored.', f.display);
  if (!w.exists) {
    const created = await createNoFollow(f.uri, utf8Encode(original));
    return created.ok ? undefined : created.message;
  }
  const doc = await vscode.workspace.openTextDocument(w.realUri);
  if (doc.getText() === original) return undefined;
  // written without following links (never by a save of VS Code's); one undo step in the editor
  const written = await writeDocumentNoFollow(w, doc, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), original, { log });
  return written.ok ? undefined : written.message;
}
