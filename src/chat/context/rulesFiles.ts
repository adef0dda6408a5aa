// The project's rules files for the chat: AGENTS.md at each workspace folder's root and
// .github/copilot-instructions.md, read through the workspace tools' path guard (a link that
// leads out of the workspace is not followed) before each turn, and only in a trusted
// workspace (a repository opened in Restricted Mode does not get to instruct the model).
// They go into the system message (src/core/prompt/projectRules.ts). Per conversation the user
// can switch a file off (its chip in the composer); that choice is kept in the workspace state
// (the rules files belong to this workspace), so it lasts across window reloads.
// A file whose text changed since the conversation's last request costs that request its
// prompt cache: the panel says so once per change.
import * as vscode from 'vscode';
import { capRulesText, RULES_FILE_NAMES, type RulesFile } from '../../core/prompt/projectRules';
import { readText, resolvePath, workspaceFolders } from '../../agentTools/workspaceAccess';

export interface RulesChip {
  path: string;
  on: boolean;
}

/** workspaceState key: conversation id -> the rules files switched off in it (paths, no contents) */
export const RULES_OFF_KEY = 'modelgate.chat.rulesOff';
/** conversations whose choices are kept (the most recently changed) */
const MAX_KEPT = 500;

/** The stored choices, checked by hand (the workspace state is ours, but a bad value must not break the chat). */
function readOff(memento: Pick<vscode.Memento, 'get'> | undefined): Map<string, Set<string>> {
  const raw: unknown = memento?.get(RULES_OFF_KEY);
  const out = new Map<string, Set<string>>();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [id, paths] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(paths)) continue;
    const set = new Set(paths.filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length < 1024));
    if (set.size) out.set(id, set);
  }
  return out;
}

export class ProjectRules {
  /** the files as last read (for the composer's chips and token estimate) */
  #files: RulesFile[] = [];
  /** per conversation: paths switched off (in the order they were last changed) */
  readonly #off: Map<string, Set<string>>;
  /** per conversation: path -> text its last request sent */
  readonly #sent = new Map<string, Map<string, string>>();

  /** `memento`: where the switched-off chips are kept per conversation (the workspace state); none: this session only. */
  constructor(private readonly memento?: Pick<vscode.Memento, 'get' | 'update'>) {
    this.#off = readOff(memento);
  }

  /** Reads the files now (none in Restricted Mode or without a folder). */
  async refresh(): Promise<RulesFile[]> {
    if (!vscode.workspace.isTrusted) return (this.#files = []);
    const multi = workspaceFolders().length > 1;
    const cts = new vscode.CancellationTokenSource();
    const read = async (rel: string): Promise<RulesFile | undefined> => {
      try {
        const t = await resolvePath(rel);
        if (!t.exists) return undefined;
        const { text } = await readText(t, cts.token);
        return text.trim() ? { path: t.display, ...capRulesText(text) } : undefined;
      } catch {
        return undefined; // missing, a link out, binary, too large: not a rules file we use
      }
    };
    try {
      // side by side (this read is on the way from Enter to the request), kept in folder and name order
      const rels = workspaceFolders().flatMap((folder) => RULES_FILE_NAMES.map((name) => (multi ? `${folder.name}/${name}` : name)));
      const found = (await Promise.all(rels.map(read))).filter((f): f is RulesFile => !!f);
      this.#files = found;
      return found;
    } finally {
      cts.dispose();
    }
  }

  /** The chips of a conversation: each file found, on or off. */
  chips(conversationId: string): RulesChip[] {
    const off = this.#off.get(conversationId);
    return this.#files.map((f) => ({ path: f.path, on: !off?.has(f.path) }));
  }

  /** The files in use for a conversation (as last read, without those switched off). */
  inUse(conversationId: string): RulesFile[] {
    const off = this.#off.get(conversationId);
    return this.#files.filter((f) => !off?.has(f.path));
  }

  /** Switches a file on or off for a conversation; whether anything changed. */
  toggle(conversationId: string, path: string): boolean {
    if (!this.#files.some((f) => f.path === path)) return false;
    const off = this.#off.get(conversationId) ?? new Set<string>();
    if (off.has(path)) off.delete(path);
    else off.add(path);
    this.#off.delete(conversationId);
    if (off.size) this.#off.set(conversationId, off);
    this.#save();
    return true;
  }

  /** A conversation was deleted: its choices go too. */
  forget(conversationId: string): void {
    if (this.#off.delete(conversationId)) this.#save();
  }

  #save(): void {
    if (!this.memento) return;
    const kept = [...this.#off].slice(-MAX_KEPT);
    void Promise.resolve(this.memento.update(RULES_OFF_KEY, Object.fromEntries(kept.map(([id, paths]) => [id, [...paths]])))).catch(() => undefined);
  }

  /**
   * Reads the files for a conversation's next request. `changed` lists the files in use whose text
   * differs from what the conversation's last request sent (not on its first request).
   */
  async forTurn(conversationId: string, firstRequest: boolean): Promise<{ files: RulesFile[]; changed: string[] }> {
    await this.refresh();
    const files = this.inUse(conversationId);
    const sent = this.#sent.get(conversationId);
    const changed = firstRequest || !sent ? [] : files.filter((f) => sent.has(f.path) && sent.get(f.path) !== f.content).map((f) => f.path);
    this.#sent.set(conversationId, new Map(files.map((f) => [f.path, f.content])));
    return { files, changed };
  }
}
