// The user's review of the model's edits: every answer's changes (AnswerChanges), the diff of
// each file, Keep and Undo per file or for all, auto-accept per conversation, and the answer's
// checkpoint restore (restore.ts). Nothing reaches the disk before Keep.
//
// Keep runs the write guard again, then writes the file without following links and puts the
// change in its editor as one undo step, left saved (src/workspaceEdits/documentWrite.ts); a new file is
// created without following links (createNoFollow); a deletion goes through vscode.workspace.fs.
// A file that changed since the model staged its change is not written (the user is told; Undo
// drops the change). Every write is logged with its path, never its contents.
import * as vscode from 'vscode';
import { changedRange } from '../../core/workspace/searchReplace';
import { writeDocumentNoFollow } from '../documentWrite';
import { configWarning, createNoFollow, guardWrite } from '../../shared/writeGuard';
import { utf8Encode } from '../../platform/bytes';
import type { AnswerEditsView } from './reviewViews';
import { AnswerChanges, baseOf, dropPending, keepKind, kindOf, type StagedFile } from './answerChanges';
import type { CheckpointStore } from './checkpoints';
import { errorText } from '../../core/errorText';

export const EDIT_SCHEME = 'modelgate-edit';

export interface EditReviewHooks {
  log(message: string): void;
  /** a conversation's edits changed: the panel is told */
  changed(conversationId: string): void;
}

export class EditReview implements vscode.Disposable {
  /** answer id -> its changes */
  readonly answers = new Map<string, AnswerChanges>();
  /** conversations whose edits are kept without review (explicit, per conversation, this window only) */
  readonly #autoAccept = new Set<string>();
  /** conversations whose earlier windows' checkpoints were read */
  readonly #loaded = new Map<string, Promise<void>>();
  readonly #provider: vscode.Disposable;

  constructor(
    readonly checkpoints: CheckpointStore,
    private readonly hooks: EditReviewHooks,
  ) {
    this.#provider = vscode.workspace.registerTextDocumentContentProvider(EDIT_SCHEME, { provideTextDocumentContent: (uri) => this.#diffText(uri) });
  }

  /** The changes of answer `answerId` (created on its first edit). */
  changesFor(conversationId: string, answerId: string): AnswerChanges {
    let a = this.answers.get(answerId);
    if (!a) {
      a = new AnswerChanges(conversationId, answerId);
      this.answers.set(answerId, a);
    }
    return a;
  }

  /** Whether another answer than `answerId` has `key` pending. */
  pendingElsewhere(key: string, answerId: string): boolean {
    for (const a of this.answers.values()) if (a.answerId !== answerId && a.files.get(key)?.state === 'pending') return true;
    return false;
  }

  /** What the read tools see for a file during answer `answerId`: its staged text (undefined: deleted), or nothing staged. */
  staged(key: string, answerId: string): { text: string | undefined } | undefined {
    const f = this.answers.get(answerId)?.files.get(key);
    return f && f.state === 'pending' ? { text: f.text } : undefined;
  }

  /** Where the files answer `answerId` created (still pending) will be: list_files and search_text show them. */
  created(answerId: string): vscode.Uri[] {
    const a = this.answers.get(answerId);
    return a ? a.pending().flatMap((f) => (f.original === undefined && f.text !== undefined ? [vscode.Uri.parse(f.key)] : [])) : [];
  }

  autoAccept(conversationId: string): boolean {
    return this.#autoAccept.has(conversationId);
  }

  setAutoAccept(conversationId: string, on: boolean): void {
    if (on) this.#autoAccept.add(conversationId);
    else this.#autoAccept.delete(conversationId);
    this.hooks.log(`Edits: auto-accept ${on ? 'on' : 'off'} for conversation ${conversationId}.`);
    this.hooks.changed(conversationId);
  }

  /** Reads the checkpoints an earlier window left for this conversation (once). */
  load(conversationId: string): Promise<void> {
    let p = this.#loaded.get(conversationId);
    if (!p) {
      p = this.checkpoints.load(conversationId).then((found) => {
        for (const a of found) if (!this.answers.has(a.answerId)) this.answers.set(a.answerId, a);
      });
      this.#loaded.set(conversationId, p);
    }
    return p;
  }

  views(conversationId: string): AnswerEditsView[] {
    return [...this.answers.values()].filter((a) => a.conversationId === conversationId && a.listed().length > 0).map((a) => a.view());
  }

  /** Keeps the pending files of answer `answerId` that `include` takes (all by default); the problems, if any. */
  async keep(answerId: string, include: (f: StagedFile) => boolean = () => true): Promise<string[]> {
    const a = this.answers.get(answerId);
    if (!a) return [];
    const files = a.pending().filter(include);
    // distinct files, each its own WorkspaceEdit and save: kept side by side (each is a round trip to the workbench)
    const outcomes = await Promise.all(
      files.map((f) => this.#keepFile(a, f).catch((e: unknown) => vscode.l10n.t('{0} could not be written: {1}', f.display, errorText(e)))),
    );
    const problems: string[] = [];
    outcomes.forEach((problem, i) => {
      if (!problem) return;
      problems.push(problem);
      this.hooks.log(`Edits: did not keep ${files[i]!.display}: ${problem}`);
    });
    await this.checkpoints.save(a);
    this.hooks.changed(a.conversationId);
    return problems;
  }

  async #keepFile(a: AnswerChanges, f: StagedFile): Promise<string | undefined> {
    const kind = keepKind(f);
    if (baseOf(f) === undefined && f.text === undefined) {
      f.state = 'undone';
      return undefined;
    }
    const w = await guardWrite(f.uri);
    if (!w.ok) return w.message;
    if (w.diskUri.toString() !== f.key) return vscode.l10n.t('{0} now leads elsewhere: a symbolic link changed after the model staged the change.', f.display);
    const changedMeanwhile = vscode.l10n.t('{0} changed after the model staged its change, so nothing was written. Undo the change, or ask again.', f.display);
    if (kind === 'create') {
      const created = await createNoFollow(f.uri, utf8Encode(f.text!));
      if (!created.ok) return created.message;
      if (created.result === 'taken') return vscode.l10n.t('{0} exists now (created after the model staged it), so nothing was written.', f.display);
    } else {
      const doc = await vscode.workspace.openTextDocument(f.uri);
      if (doc.getText() !== baseOf(f)) return changedMeanwhile;
      if (kind === 'edit') {
        // written without following links, right after the guard (never by a save of VS Code's); one undo step in the editor
        const r = changedRange(baseOf(f)!, f.text!);
        const written = await writeDocumentNoFollow(w, doc, new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.end)), r.text, { log: this.hooks.log });
        if (!written.ok) return written.message;
      } else {
        await vscode.workspace.fs.delete(f.uri, { useTrash: false });
      }
    }
    f.state = 'kept';
    this.hooks.log(
      `Edits: kept ${kind === 'edit' ? 'the change of' : kind === 'create' ? 'the new file' : 'the deletion of'} ${f.display} (answer ${a.answerId}).`,
    );
    await this.#closeDiff(a, f);
    return undefined;
  }

  /** Undoes `display` of answer `answerId` (all its pending files when undefined): nothing was written, so nothing is. */
  async undo(answerId: string, display?: string): Promise<void> {
    const a = this.answers.get(answerId);
    if (!a) return;
    const files = display === undefined ? a.pending() : a.pending().filter((f) => f.display === display);
    for (const f of files) {
      dropPending(f);
      this.hooks.log(`Edits: undid the staged change of ${f.display} (answer ${a.answerId}); nothing was written.`);
      await this.#closeDiff(a, f);
    }
    await this.checkpoints.save(a);
    this.hooks.changed(a.conversationId);
  }

  /** Opens the diff of a file of an answer: the text before the answer left, the model's right. */
  async showDiff(answerId: string, display: string): Promise<boolean> {
    const a = this.answers.get(answerId);
    const f = a?.byDisplay(display);
    if (!a || !f) return false;
    const [left, right] = this.#diffUris(a, f);
    const kind = kindOf(f);
    const what = kind === 'create' ? vscode.l10n.t('new file') : kind === 'delete' ? vscode.l10n.t('deleted') : vscode.l10n.t('model’s change');
    const warning = f.configures ? ` ${configWarning(f.configures)}` : ''; // it configures tools, tasks, CI or packages
    await vscode.commands.executeCommand('vscode.diff', left, right, `${f.display} ↔ ${what}${warning}`, { preview: false });
    return true;
  }

  #diffUris(a: AnswerChanges, f: StagedFile): [vscode.Uri, vscode.Uri] {
    const name = f.display.split('/').pop() || 'file';
    const base = `/${encodeURIComponent(a.answerId)}/${f.index}`;
    return [vscode.Uri.from({ scheme: EDIT_SCHEME, path: `${base}/before/${name}` }), vscode.Uri.from({ scheme: EDIT_SCHEME, path: `${base}/after/${name}` })];
  }

  #diffText(uri: vscode.Uri): string {
    const [, answer, index, side] = uri.path.split('/');
    const a = this.answers.get(decodeURIComponent(answer ?? ''));
    const f = a && [...a.files.values()].find((x) => String(x.index) === index);
    if (!f) return '';
    return (side === 'before' ? f.original : f.text) ?? '';
  }

  async #closeDiff(a: AnswerChanges, f: StagedFile): Promise<void> {
    const right = this.#diffUris(a, f)[1].toString();
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === right);
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  /** Forgets what is in memory, as a window reload does (what was not kept is dropped; checkpoints stay on disk). */
  /** A conversation was deleted: its answers' changes are dropped (nothing pending was written) and its checkpoints removed. */
  async conversationDeleted(conversationId: string): Promise<void> {
    for (const a of [...this.answers.values()]) if (a.conversationId === conversationId) this.answers.delete(a.answerId);
    this.#autoAccept.delete(conversationId);
    this.#loaded.delete(conversationId);
    const n = await this.checkpoints.removeConversation(conversationId);
    if (n) this.hooks.log(`Edits: removed ${n} checkpoint(s) of deleted conversation ${conversationId}.`);
  }

  reset(): void {
    this.answers.clear();
    this.#loaded.clear();
    this.#autoAccept.clear();
  }

  dispose(): void {
    this.#provider.dispose();
  }
}
