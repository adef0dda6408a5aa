// What one answer changed: the files its edit tools touched, each with the text before the answer
// (undefined: the file did not exist) and the text the model left (undefined: deleted), and
// where the user's review stands. One AnswerChanges per answer, so the pending changes of two
// answers never mix: a file that an earlier answer changed and the user has not kept or undone
// yet is refused to a later answer (editTools.ts).
import type * as vscode from 'vscode';
import { lineDelta } from '../../core/workspace/searchReplace';
import type { ToolConfigKind } from '../../core/workspace/writeRules';
import type { AnswerEditsView, EditFileView } from './reviewViews';
import { configWarning } from '../../shared/writeGuard';

export type FileState = 'pending' | 'kept' | 'undone';

export interface StagedFile {
  /** where the bytes are (every link resolved): the key of the file in this answer */
  key: string;
  /** the file as the editor knows it (named under its workspace folder): Keep writes here */
  uri: vscode.Uri;
  /** workspace-relative, as the tools and the panel name it */
  display: string;
  /** the text before this answer; undefined when the answer created the file */
  original: string | undefined;
  /** the text the model left; undefined when it deleted the file */
  text: string | undefined;
  state: FileState;
  /** the original is in the checkpoint (workspace storage) */
  checkpointed: boolean;
  /** position in the answer (diff URIs, checkpoint blobs) */
  index: number;
  /** +/- lines, when the texts are gone (an answer of a window before this one) */
  counts?: { added: number; removed: number };
  /**
   * Set when the file was kept earlier in this answer and then changed again: the text it had when
   * the new change was staged (undefined: no file). Keep applies the change over this text;
   * `original`, `index` and the checkpoint stay those of before the answer, for the restore.
   */
  over?: { text: string | undefined };
  /** the file configures tools, tasks, CI or packages: flagged in the review, never auto-accepted */
  configures?: ToolConfigKind;
}

/** The text the pending change applies over: what Keep expects on disk. */
export function baseOf(f: StagedFile): string | undefined {
  return f.over ? f.over.text : f.original;
}

/** What Keep does to the disk: create, delete or edit (relative to baseOf, not to before the answer). */
export function keepKind(f: StagedFile): EditFileView['kind'] {
  return kindOf({ original: baseOf(f), text: f.text });
}

/**
 * Undo of a pending change: nothing of it was written. A file kept earlier in the answer stays
 * kept (with the text it has on disk), so the restore still puts it back.
 */
export function dropPending(f: StagedFile): void {
  if (f.over) {
    f.text = f.over.text;
    f.state = 'kept';
  } else {
    f.state = 'undone';
  }
}

export function countsOf(f: StagedFile): { added: number; removed: number } {
  return f.counts ?? lineDelta(f.original, f.text);
}

export class AnswerChanges {
  readonly files = new Map<string, StagedFile>();
  /** the user's answer per sensitive file in this answer (asked once, also for parallel calls) */
  readonly #consent = new Map<string, Promise<boolean>>();
  /** the answer's files were put back to before it (checkpoint restore) */
  restored = false;
  /** why some files could not be reviewed any more (a window reload drops what was not kept) */
  note: string | undefined;
  /** per file (key): the calls of this answer on it apply one at a time; calls on other files run side by side */
  readonly #queues = new Map<string, Promise<unknown>>();
  #nextIndex = 0;

  constructor(
    readonly conversationId: string,
    readonly answerId: string,
    readonly createdAt: number = Date.now(),
  ) {}

  /** Runs `fn` after this answer's earlier calls on the file `key` (parallel edit calls of one file apply in order). */
  serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const next = (this.#queues.get(key) ?? Promise.resolve()).then(fn, fn);
    const settled = next.catch(() => undefined);
    this.#queues.set(key, settled);
    void settled.then(() => {
      if (this.#queues.get(key) === settled) this.#queues.delete(key);
    });
    return next;
  }

  /** The user's yes or no for changing the sensitive file `key` in this answer; `ask` runs once per file. */
  consent(key: string, ask: () => Promise<boolean>): Promise<boolean> {
    let answer = this.#consent.get(key);
    if (!answer) {
      answer = ask().catch(() => false);
      this.#consent.set(key, answer);
    }
    return answer;
  }

  /**
   * A position in the answer, taken when a call starts (calls on different files run side by side,
   * so this keeps the order the model gave): the panel's order, the file's diff URI and checkpoint
   * blob. Never reused, also when a call fails.
   */
  takeIndex(): number {
    this.#nextIndex = Math.max(this.#nextIndex, ...[...this.files.values()].map((f) => f.index + 1));
    return this.#nextIndex++;
  }

  pending(): StagedFile[] {
    return [...this.files.values()].filter((f) => f.state === 'pending');
  }

  /** A file created and deleted again in the same answer (and never kept between) changed nothing: it is not listed. */
  listed(): StagedFile[] {
    return [...this.files.values()].filter((f) => !(f.original === undefined && f.text === undefined && !f.over)).sort((x, y) => x.index - y.index);
  }

  byDisplay(display: string): StagedFile | undefined {
    return this.listed().find((f) => f.display === display);
  }

  /** the answer wrote something that a restore can put back */
  get restorable(): boolean {
    return !this.restored && this.listed().some((f) => f.state === 'kept' && f.checkpointed);
  }

  view(): AnswerEditsView {
    const files = this.listed().map((f): EditFileView => {
      const { added, removed } = countsOf(f);
      return { path: f.display, kind: kindOf(f), added, removed, state: f.state, ...(f.configures ? { warning: configWarning(f.configures) } : {}) };
    });
    return { messageId: this.answerId, files, restorable: this.restorable, restored: this.restored, ...(this.note ? { note: this.note } : {}) };
  }
}

export function kindOf(f: Pick<StagedFile, 'original' | 'text'>): EditFileView['kind'] {
  return f.original === undefined ? 'create' : f.text === undefined ? 'delete' : 'edit';
}
