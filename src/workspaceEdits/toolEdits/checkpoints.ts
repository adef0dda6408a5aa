// Checkpoints: the text of every file an answer changed, as it was before the answer, kept in the
// extension's workspace storage (context.storageUri) so "Restore files to before this answer"
// still works after a window reload. One folder per answer: `manifest.json` (paths, states,
// never contents) and one `<index>.orig` per file that existed. Only file contents up to
// LIMITS.editMaxFileBytes (1 MB) are kept; the edit tools refuse larger files, so every change
// the model makes can be put back. Written through vscode.workspace.fs (the web host too).
import * as vscode from 'vscode';
import * as z from 'zod';
import { utf8Encode } from '../../platform/bytes';
import { nodeFs } from '../../platform/fs';
import { AnswerChanges, countsOf, type StagedFile } from './answerChanges';
import { errorText } from '../../core/errorText';

const fileSchema = z.object({
  key: z.string(),
  uri: z.string(),
  display: z.string(),
  existed: z.boolean(),
  deleted: z.boolean(),
  state: z.enum(['pending', 'kept', 'undone']),
  checkpointed: z.boolean(),
  index: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  /** pending again after a Keep in the same answer: what that Keep wrote stays restorable */
  keptBefore: z.boolean().optional(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  conversationId: z.string(),
  answerId: z.string(),
  createdAt: z.number(),
  restored: z.boolean(),
  files: z.array(fileSchema),
});

type Manifest = z.infer<typeof manifestSchema>;

/** A file's name as the panel and the restore dialog show it: workspace-relative, from its URI. */
export const shownName = (uri: vscode.Uri): string => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);

const safeId = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);

/** What the chat history knows of a conversation: checkpoints of a deleted one are removed. */
export type ConversationFate = 'live' | 'deleted' | 'unknown';

/**
 * A checkpoint whose conversation is not in the history (another window may have started it a
 * moment ago and not listed it yet) is removed only once it is this old.
 */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export class CheckpointStore {
  constructor(
    /** the folder of every answer's checkpoint (workspace storage) */
    readonly root: vscode.Uri,
    private readonly warn: (m: string) => void,
  ) {}

  #dir(answerId: string): vscode.Uri {
    return vscode.Uri.joinPath(this.root, safeId(answerId));
  }

  /** Keeps the original text of `f` (once per file and answer). */
  async keepOriginal(a: AnswerChanges, f: StagedFile): Promise<void> {
    if (f.original !== undefined) {
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.#dir(a.answerId), `${f.index}.orig`), utf8Encode(f.original));
    }
    f.checkpointed = true;
  }

  /** per answer: the manifest write not started yet (it writes the state of when it starts), and the last one */
  readonly #queued = new Map<string, Promise<void>>();
  readonly #tail = new Map<string, Promise<void>>();

  /**
   * Writes the answer's manifest (after every change of state). Writes of one answer run one at a
   * time, each with the state of when it starts, and calls while one waits share it: twenty edits
   * staged side by side write it about twice, never an older state after a newer one. Resolves
   * once the state at the call is on disk (or the write failed, which is logged).
   */
  save(a: AnswerChanges): Promise<void> {
    const queued = this.#queued.get(a.answerId);
    if (queued) return queued;
    const p = (this.#tail.get(a.answerId) ?? Promise.resolve()).then(() => {
      this.#queued.delete(a.answerId);
      return this.#write(a);
    });
    this.#queued.set(a.answerId, p);
    this.#tail.set(a.answerId, p);
    void p.then(() => {
      if (this.#tail.get(a.answerId) === p) this.#tail.delete(a.answerId);
    });
    return p;
  }

  async #write(a: AnswerChanges): Promise<void> {
    const m: Manifest = {
      version: 1,
      conversationId: a.conversationId,
      answerId: a.answerId,
      createdAt: a.createdAt,
      restored: a.restored,
      files: [...a.files.values()].map((f) => ({
        key: f.key,
        uri: f.uri.toString(),
        display: f.display,
        existed: f.original !== undefined,
        deleted: f.text === undefined,
        state: f.state,
        checkpointed: f.checkpointed,
        index: f.index,
        ...countsOf(f),
        ...(f.over ? { keptBefore: true } : {}),
      })),
    };
    try {
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.#dir(a.answerId), 'manifest.json'), utf8Encode(JSON.stringify(m)));
    } catch (e) {
      this.warn(`Edits: the checkpoint of answer ${a.answerId} could not be written: ${errorText(e)}`);
    }
  }

  /**
   * The original text of a file of the answer (undefined when it did not exist or is gone). The
   * blob is read only when it is a file of its own: a link there (symbolic, or a hard link: a
   * second name of some other file) would carry another file's text into the workspace.
   */
  async original(answerId: string, index: number): Promise<string | undefined> {
    const blob = vscode.Uri.joinPath(this.#dir(answerId), `${index}.orig`);
    try {
      if (blob.scheme === 'file' && nodeFs) {
        const bytes = await nodeFs.readOwnFile(blob.fsPath);
        if (!bytes) this.warn(`Edits: the checkpoint blob ${index}.orig of answer ${answerId} is missing or not a file of its own; not read.`);
        return bytes && new TextDecoder().decode(bytes);
      }
      if ((await vscode.workspace.fs.stat(blob)).type & vscode.FileType.SymbolicLink) {
        this.warn(`Edits: the checkpoint blob ${index}.orig of answer ${answerId} is a link; not read.`);
        return undefined;
      }
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(blob));
    } catch {
      return undefined;
    }
  }

  /** Every answer folder with its manifest (undefined when missing or unreadable) and its time. */
  async #folders(): Promise<{ name: string; manifest: Manifest | undefined; mtime: number }[]> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.root);
    } catch {
      return [];
    }
    const out: { name: string; manifest: Manifest | undefined; mtime: number }[] = [];
    for (const [name, type] of entries) {
      if (!(type & vscode.FileType.Directory)) continue;
      const dir = vscode.Uri.joinPath(this.root, name);
      let manifest: Manifest | undefined;
      try {
        const parsed = manifestSchema.safeParse(
          JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, 'manifest.json')))),
        );
        if (parsed.success) manifest = parsed.data;
      } catch {
        // no manifest (a checkpoint cut short) or not ours: judged by its age
      }
      let mtime = 0;
      try {
        mtime = (await vscode.workspace.fs.stat(dir)).mtime;
      } catch {
        continue;
      }
      out.push({ name, manifest, mtime });
    }
    return out;
  }

  async #remove(name: string, why: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.root, name), { recursive: true, useTrash: false });
      this.warn(`Edits: removed the checkpoint ${name} (${why}).`);
    } catch (e) {
      this.warn(`Edits: the checkpoint ${name} could not be removed: ${errorText(e)}`);
    }
  }

  /** Removes the checkpoints of a deleted conversation; the number removed. */
  async removeConversation(conversationId: string): Promise<number> {
    const gone = (await this.#folders()).filter((f) => f.manifest?.conversationId === conversationId);
    for (const f of gone) await this.#remove(f.name, 'its conversation was deleted');
    return gone.length;
  }

  /**
   * Removes the checkpoints no conversation needs (on start): those of deleted conversations, and
   * those of conversations the history does not know or without a manifest, once older than
   * ORPHAN_GRACE_MS. The number removed.
   */
  async sweep(fate: (conversationId: string) => ConversationFate, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const f of await this.#folders()) {
      const old = now - Math.max(f.mtime, f.manifest?.createdAt ?? 0) > ORPHAN_GRACE_MS;
      const why = !f.manifest
        ? old && 'no manifest'
        : fate(f.manifest.conversationId) === 'deleted'
          ? 'its conversation was deleted'
          : fate(f.manifest.conversationId) === 'unknown' && old && 'its conversation is not in the chat history';
      if (!why) continue;
      await this.#remove(f.name, why);
      removed++;
    }
    return removed;
  }

  /**
   * The answers of conversation `conversationId` that a window before this one recorded. Their
   * staged texts were in memory: what was still pending is now shown as not kept. The originals
   * stay on disk and are read when a restore needs them.
   */
  async load(conversationId: string): Promise<AnswerChanges[]> {
    const out: AnswerChanges[] = [];
    for (const { manifest: m } of await this.#folders()) {
      if (!m) continue;
      if (m.conversationId !== conversationId) continue;
      const a = new AnswerChanges(m.conversationId, m.answerId, m.createdAt);
      a.restored = m.restored;
      for (const f of m.files) {
        const wasPending = f.state === 'pending';
        if (wasPending) a.note = vscode.l10n.t('Changes that were not kept before the window reloaded were dropped; nothing of them was saved.');
        // texts are not stored: `original` only says whether the file existed; restore reads the blob
        const uri = vscode.Uri.parse(f.uri);
        a.files.set(f.key, {
          key: f.key,
          uri,
          // named from the location acted on, never from the manifest's text (the two could disagree)
          display: shownName(uri),
          original: f.existed ? '' : undefined,
          text: f.deleted ? undefined : '',
          state: wasPending ? (f.keptBefore ? 'kept' : 'undone') : f.state,
          checkpointed: f.checkpointed,
          index: f.index,
          counts: { added: f.added, removed: f.removed },
        });
      }
      out.push(a);
    }
    return out.sort((x, y) => x.createdAt - y.createdAt);
  }
}
