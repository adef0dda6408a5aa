// "Restore files to before this answer": puts back what an answer's kept changes did, from its
// checkpoint (checkpoints.ts), after showing the user what will be reverted. The dialog names each
// file from its location, checked by the write guard (never from a name the checkpoint stores),
// and the restore acts on exactly those places: one that leads elsewhere by the time of the write
// is left alone. Changed files get their text back (written without following links, one undo
// step in the editor each), files the answer created are deleted, files it deleted come back.
// Pending changes of the answer are undone first (nothing of them was written). Works after a
// window reload: the originals are in the workspace storage, not in memory.
import * as vscode from 'vscode';
import { writeDocumentNoFollow } from '../documentWrite';
import { createNoFollow, guardWrite, type WriteCheck } from '../../shared/writeGuard';
import { utf8Encode } from '../../platform/bytes';
import { kindOf, type StagedFile } from './answerChanges';
import type { EditReview } from './editReview';
import { shownName } from './checkpoints';
import { errorText } from '../../core/errorText';

/** Shows what a restore will do; true to go ahead. Tests answer it. */
export type ConfirmRestore = (message: string, detail: string) => Promise<boolean>;

/** Files are at stake: the first button, the one Enter takes, restores nothing; Escape neither. */
export const confirmRestoreModal: ConfirmRestore = async (message, detail) => {
  const restore = vscode.l10n.t('Restore Files');
  const keep = vscode.l10n.t("Don't Restore");
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, keep, restore)) === restore;
};

export type RestoreOutcome = { kind: 'restored'; problems: string[] } | { kind: 'cancelled' } | { kind: 'nothing' };

/** One file of a restore: the name shown is where the write guard says the restore lands now. */
interface RestoreStep {
  f: StagedFile;
  shown: string;
  /** the write guard's answer when the dialog was built */
  check: WriteCheck;
}

function stepLine(s: RestoreStep): string {
  if (!s.check.ok) return vscode.l10n.t('{0}: not restored: {1}', s.shown, s.check.message);
  switch (kindOf(s.f)) {
    case 'create':
      return vscode.l10n.t('{0}: delete it (this answer created it)', s.shown);
    case 'delete':
      return vscode.l10n.t('{0}: bring it back (this answer deleted it)', s.shown);
    default:
      return vscode.l10n.t('{0}: put back its text from before this answer', s.shown);
  }
}

/** The name of what a restore acts on, from the location itself (a link inside the workspace shows where it leads). */
function shownTarget(f: StagedFile, check: WriteCheck): string {
  if (!check.ok) return shownName(f.uri);
  return check.realDisplay === check.display ? check.display : `${check.display} → ${check.realDisplay}`;
}

export async function restoreAnswer(review: EditReview, answerId: string, confirm: ConfirmRestore, log: (m: string) => void): Promise<RestoreOutcome> {
  const a = review.answers.get(answerId);
  if (!a || !a.restorable) return { kind: 'nothing' };
  const files = a.listed().filter((f) => f.state === 'kept' && f.checkpointed);
  const steps: RestoreStep[] = [];
  for (const f of files) {
    const check = await guardWrite(f.uri);
    steps.push({ f, check, shown: shownTarget(f, check) });
  }
  const doable = steps.filter((s) => s.check.ok);
  const ok = await confirm(
    vscode.l10n.t('Restore {0} file(s) to before this answer?', doable.length),
    `${steps.map(stepLine).join('\n')}\n\n${vscode.l10n.t('Changes made to these files after the answer are overwritten.')}`,
  );
  if (!ok) return { kind: 'cancelled' };
  await review.undo(answerId);
  const problems: string[] = steps.filter((s) => !s.check.ok).map((s) => stepLine(s));
  for (const s of doable) {
    try {
      const problem = await restoreFile(review, answerId, s, log);
      if (problem) problems.push(problem);
      else log(`Edits: restored ${s.shown} to before answer ${answerId} (${kindOf(s.f)}).`);
    } catch (e) {
      problems.push(vscode.l10n.t('{0} could not be restored: {1}', s.shown, errorText(e)));
    }
  }
  for (const p of problems) log(`Edits: restore: ${p}`);
  a.restored = true;
  await review.checkpoints.save(a);
  return { kind: 'restored', problems };
}

async function restoreFile(review: EditReview, answerId: string, step: RestoreStep, log: (m: string) => void): Promise<string | undefined> {
  const { f } = step;
  // The guard again, right before the write: the place must be the one the dialog named.
  const w = await guardWrite(f.uri);
  if (!w.ok) return w.message;
  if (step.check.ok && w.realUri.toString() !== step.check.realUri.toString())
    return vscode.l10n.t('{0} now leads somewhere else than when you confirmed, so it was not restored.', step.shown);
  if (kindOf(f) === 'create') {
    if (w.exists) await vscode.workspace.fs.delete(w.realUri, { useTrash: false });
    return undefined;
  }
  const original = await review.checkpoints.original(answerId, f.index);
  if (original === undefined) return vscode.l10n.t('The checkpoint of {0} is missing, so it was not restored.', step.shown);
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
