// Checkpoints: the text of every file an answer changed, as it was before the answer, kept in the
// extension's workspace storage (context.storageUri) so "Restore files to before this answer"
// still works after a window reload. One folder per answer: `manifest.json` (paths, states,
// never contents) and one `<index>.orig` per file that existed. Only file contents up to
// LIMITS.editMaxFileBytes (1 MB) are kept; the edit tools refuse larger files, so every change
// the model makes can be put back. Written through vscode.workspace.fs (the web host too).
import * as vscode from 'vscode';
import * as z from 'zod';
import { utf8Encode } from '../../platform/bytes';
import { AnswerChanges, countsOf, type StagedFile } from './answerChanges';

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

const safeId = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);

export class CheckpointStore {
  constructor(
    private readonly root: vscode.Uri,
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

  /** Writes the answer's manifest (after every change of state). */
  async save(a: AnswerChanges): Promise<void> {
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
      })),
    };
    try {
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.#dir(a.answerId), 'manifest.json'), utf8Encode(JSON.stringify(m)));
    } catch (e) {
      this.warn(`Edits: the checkpoint of answer ${a.answerId} could not be written: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The original text of a file of the answer (undefined when it did not exist or is gone). */
  async original(answerId: string, index: number): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.#dir(answerId), `${index}.orig`)));
    } catch {
      return undefined;
    }
  }

  /**
   * The answers of conversation `conversationId` that a window before this one recorded. Their
   * staged texts were in memory: what was still pending is now shown as not kept. The originals
   * stay on disk and are read when a restore needs them.
   */
  async load(conversationId: string): Promise<AnswerChanges[]> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.root);
    } catch {
      return [];
    }
    const out: AnswerChanges[] = [];
    for (const [name, type] of entries) {
      if (!(type & vscode.FileType.Directory)) continue;
      let m: Manifest;
      try {
        const raw: unknown = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.root, name, 'manifest.json'))));
        const parsed = manifestSchema.safeParse(raw);
        if (!parsed.success) continue;
        m = parsed.data;
      } catch {
        continue;
      }
      if (m.conversationId !== conversationId) continue;
      const a = new AnswerChanges(m.conversationId, m.answerId, m.createdAt);
      a.restored = m.restored;
      for (const f of m.files) {
        const wasPending = f.state === 'pending';
        if (wasPending) a.note = vscode.l10n.t('Changes that were not kept before the window reloaded were dropped; nothing of them was saved.');
        // texts are not stored: `original` only says whether the file existed; restore reads the blob
        a.files.set(f.key, {
          key: f.key,
          uri: vscode.Uri.parse(f.uri),
          display: f.display,
          original: f.existed ? '' : undefined,
          text: f.deleted ? undefined : '',
          state: wasPending ? 'undone' : f.state,
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
