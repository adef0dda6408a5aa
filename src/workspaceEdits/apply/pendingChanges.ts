// Changes that Apply proposed and the user has not decided on yet. Each one has its own id,
// its own proposed document (a virtual `modelgate-proposal:` document, read-only) and its own
// diff tab. Accept and Discard sit in the diff's editor title; a status-bar entry stays while
// any change is pending. Nothing is written before Accept; Accept writes the file (saved, not
// left dirty for a later save) and is one undo step in its editor. Accept/Discard act on the
// change whose diff is active, so several pending changes never mix.
// Accept runs the write guard again (src/shared/writeGuard.ts): a link swapped in after the
// proposal (the file, or a folder above it, now leads out of the workspace, into .vscode or .git,
// or just elsewhere) refuses the change and nothing is written. The file is then written without
// following links (src/workspaceEdits/documentWrite.ts), never by VS Code's save, which would follow
// a link swapped in later. A new file is created without following links (createNoFollow), so
// its creation is not part of the editor's undo.
import * as vscode from 'vscode';
import type { ToolConfigKind } from '../../core/workspace/writeRules';
import { plainLabel } from '../../core/plainLabel';
import { writeDocumentNoFollow } from '../documentWrite';
import { configWarning, createNoFollow, guardWrite, type WriteTarget } from '../../shared/writeGuard';

export const PROPOSAL_SCHEME = 'modelgate-proposal';
/** true while the active tab is the diff of a pending change (editor/title buttons use it) */
export const DIFF_ACTIVE_KEY = 'modelgate.applyDiffActive';
/** true while any change is pending (the palette shows Accept/Discard then) */
export const PENDING_KEY = 'modelgate.applyPending';

export interface ProposedEdit {
  /** the file (or untitled document) that changes */
  target: vscode.Uri;
  /** how the target is called in titles and messages */
  label: string;
  /** 'edit': replace `range` of the existing document; 'create': a new file with `text` */
  kind: 'edit' | 'create';
  /** the range replaced ('edit'); for 'create' unused */
  range: vscode.Range;
  /** what goes in its place (the whole content for 'create') */
  text: string;
  /** the whole document before (to notice a change made meanwhile) */
  before: string;
  /** the whole document after */
  after: string;
  /** for the status bar and the log: "replaces add() (lines 4-6)" */
  description: string;
  /** where the write guard found the file when the change was proposed; Accept refuses when it is elsewhere now */
  realUri?: vscode.Uri;
  /** the file configures tools, tasks, CI or packages: the diff's title warns */
  configures?: ToolConfigKind;
}

export interface PendingChange extends ProposedEdit {
  id: string;
  /** the right side of the diff */
  proposalUri: vscode.Uri;
  /** the left side for a new file (an empty proposal document) */
  emptyUri?: vscode.Uri;
}

export type Decision = 'accepted' | 'discarded' | 'changed' | 'failed' | 'refused';

export class PendingChanges implements vscode.Disposable {
  readonly #changes = new Map<string, PendingChange>();
  readonly #texts = new Map<string, string>();
  readonly #status: vscode.StatusBarItem;
  readonly #subscriptions: vscode.Disposable[] = [];
  readonly #changed = new vscode.EventEmitter<void>();
  /** fires when a change is added or decided */
  readonly onDidChange = this.#changed.event;
  #counter = 0;
  /** why the last Accept was refused (the write guard's message) */
  lastRefusal: string | undefined;
  /** diffs being closed by us: their tab closing is not a Discard */
  readonly #closing = new Set<string>();

  constructor(private readonly log: (m: string) => void = () => undefined) {
    this.#status = vscode.window.createStatusBarItem('modelgate.applyPending', vscode.StatusBarAlignment.Left, 1000);
    this.#status.name = 'Modelgate: pending changes';
    this.#status.command = 'modelgate.apply.showPending';
    this.#subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, { provideTextDocumentContent: (uri) => this.#texts.get(uri.toString()) ?? '' }),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        this.#updateContext();
        for (const tab of e.closed) this.#tabClosed(tab);
      }),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.#updateContext()),
      this.#status,
      this.#changed,
    );
  }

  list(): readonly PendingChange[] {
    return [...this.#changes.values()];
  }

  get(id: string): PendingChange | undefined {
    return this.#changes.get(id);
  }

  /** Registers a proposed change and opens its diff (current text left, proposal right). */
  async propose(edit: ProposedEdit): Promise<PendingChange> {
    const id = `${Date.now().toString(36)}-${++this.#counter}`;
    const name = edit.target.path.split('/').pop() || 'untitled';
    const proposalUri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/${name}` });
    this.#texts.set(proposalUri.toString(), edit.after);
    const change: PendingChange = { ...edit, id, proposalUri };
    if (edit.kind === 'create') {
      change.emptyUri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: `/${id}/empty/${name}` });
      this.#texts.set(change.emptyUri.toString(), '');
    }
    this.#changes.set(id, change);
    this.log(`Apply: proposed a change to ${edit.label} (${edit.description}); waiting for Accept or Discard.`);
    await this.show(change);
    this.#refresh();
    return change;
  }

  /** Opens (or reveals) the diff of a pending change. */
  async show(change: PendingChange): Promise<void> {
    const left = change.emptyUri ?? change.target;
    const warning = change.configures ? ` ${configWarning(change.configures)}` : '';
    const title = `${change.label} ↔ proposed change${change.kind === 'create' ? ' (new file)' : ''}${warning}`;
    // not a preview tab: a second Apply must not replace (and so discard) the first one's diff
    await vscode.commands.executeCommand('vscode.diff', left, change.proposalUri, title, { preview: false });
    this.#updateContext();
  }

  /** The pending change whose diff is the active tab. */
  active(): PendingChange | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSAL_SCHEME) return this.#byProposal(input.modified);
    return undefined;
  }

  /**
   * The change a command acts on: the one named by `arg` (an id, or a URI of its diff as the
   * editor title passes it), else the one whose diff is active, else the only one pending.
   */
  resolve(arg?: unknown): PendingChange | undefined {
    if (typeof arg === 'string') return this.#changes.get(arg);
    if (arg instanceof vscode.Uri && arg.scheme === PROPOSAL_SCHEME) {
      const hit = this.#byProposal(arg);
      if (hit) return hit;
    }
    const active = this.active();
    if (active) return active;
    if (arg instanceof vscode.Uri) {
      const same = this.list().filter((c) => c.target.toString() === arg.toString());
      if (same.length === 1) return same[0];
    }
    return this.#changes.size === 1 ? this.list()[0] : undefined;
  }

  /**
   * Writes the change: into the file on disk without following links (the write guard runs again
   * first) and into its editor as one undo step, which is left saved (documentWrite.ts); an
   * untitled document only gets the edit. Refuses when the file changed meanwhile.
   */
  async accept(change: PendingChange): Promise<Decision> {
    if (!this.#changes.has(change.id)) return 'failed';
    const guarded = await this.#guard(change);
    if (typeof guarded === 'string') return this.#refused(change, guarded, `the change to ${change.label} at Accept`);
    let doc: vscode.TextDocument | undefined;
    if (change.kind === 'create') {
      const created = await createNoFollow(change.target, new TextEncoder().encode(change.text));
      if (!created.ok || created.result === 'taken') {
        if (!created.ok) return this.#refused(change, created.message, `the new file ${change.label} at Accept`);
        await this.#end(change);
        this.log(`Apply: ${change.label} exists now (created after the change was proposed); nothing was written.`);
        return 'changed';
      }
    } else {
      doc = await vscode.workspace.openTextDocument(change.target);
      if (doc.getText() !== change.before) {
        await this.#end(change);
        this.log(`Apply: ${change.label} changed after the change was proposed; nothing was written.`);
        return 'changed';
      }
      if (guarded) {
        const written = await writeDocumentNoFollow(guarded, doc, change.range, change.text, { reveal: true, log: this.log });
        if (!written.ok) return this.#refused(change, written.message, `the change to ${change.label} at Accept`);
      } else {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(change.target, change.range, change.text);
        if (!(await vscode.workspace.applyEdit(edit))) {
          this.log(`Apply: VS Code refused the edit of ${change.label}; nothing was written.`);
          return 'failed';
        }
      }
    }
    await this.#end(change);
    doc ??= await vscode.workspace.openTextDocument(change.target);
    const lines = change.text.split('\n');
    const start = change.kind === 'create' ? new vscode.Position(0, 0) : change.range.start;
    const end = new vscode.Position(start.line + lines.length - 1, (lines.length === 1 ? start.character : 0) + lines[lines.length - 1]!.length);
    await vscode.window.showTextDocument(doc, { preview: false, selection: new vscode.Range(start, end) });
    this.log(`Apply: accepted the change to ${change.label}${guarded ? ' (written to disk)' : ''}.`);
    return 'accepted';
  }

  async #refused(change: PendingChange, message: string, what: string): Promise<Decision> {
    await this.#end(change);
    this.lastRefusal = message;
    this.log(`Apply: refused ${what}: ${message}`);
    return 'refused';
  }

  /**
   * The write guard at Accept: why the change may not be written now (a string), else where it
   * is written (undefined for an untitled document: nothing on disk).
   */
  async #guard(change: PendingChange): Promise<WriteTarget | string | undefined> {
    if (change.target.scheme === 'untitled') return undefined;
    const w = await guardWrite(change.target);
    if (!w.ok) return w.message;
    if (w.realUri.toString() !== (change.realUri ?? change.target).toString()) {
      return vscode.l10n.t('{0} now leads to {1}: a symbolic link changed after the change was proposed.', change.label, w.realDisplay);
    }
    return w;
  }

  async discard(change: PendingChange): Promise<Decision> {
    if (!this.#changes.has(change.id)) return 'failed';
    await this.#end(change);
    this.log(`Apply: discarded the change to ${change.label}.`);
    return 'discarded';
  }

  async #end(change: PendingChange): Promise<void> {
    this.#changes.delete(change.id);
    this.#closing.add(change.id);
    try {
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => this.#isDiffOf(t, change));
      if (tabs.length) await vscode.window.tabGroups.close(tabs);
    } finally {
      this.#closing.delete(change.id);
      this.#texts.delete(change.proposalUri.toString());
      if (change.emptyUri) this.#texts.delete(change.emptyUri.toString());
      this.#refresh();
    }
  }

  /** The user closed a diff by hand: that change is discarded (nothing was written). */
  #tabClosed(tab: vscode.Tab): void {
    if (!(tab.input instanceof vscode.TabInputTextDiff) || tab.input.modified.scheme !== PROPOSAL_SCHEME) return;
    const change = this.#byProposal(tab.input.modified);
    if (!change || this.#closing.has(change.id)) return;
    // still open in another group: keep it
    if (vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => this.#isDiffOf(t, change)))) return;
    void this.discard(change);
  }

  #isDiffOf(tab: vscode.Tab, change: PendingChange): boolean {
    return tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === change.proposalUri.toString();
  }

  #byProposal(uri: vscode.Uri): PendingChange | undefined {
    const key = uri.toString();
    return this.list().find((c) => c.proposalUri.toString() === key || c.emptyUri?.toString() === key);
  }

  #refresh(): void {
    const n = this.#changes.size;
    if (n === 0) this.#status.hide();
    else {
      const only = n === 1 ? this.list()[0]! : undefined;
      // the label is a path the answer chose: shown as text, never as `$(icon)` syntax or markdown
      this.#status.text = `$(git-compare) ${only ? `Review change: ${plainLabel(only.label)}` : `${n} changes to review`}`;
      const tooltip = new vscode.MarkdownString(
        `Modelgate proposed ${n === 1 ? 'a change' : `${n} changes`} that ${n === 1 ? 'is' : 'are'} not written yet:\n\n`,
      );
      for (const c of this.list())
        tooltip
          .appendMarkdown('- ')
          .appendText(`${plainLabel(c.label)}: ${plainLabel(c.description)}`)
          .appendMarkdown('\n');
      this.#status.tooltip = tooltip.appendMarkdown('\nClick to review; Accept or Discard in the diff’s title bar.');
      this.#status.show();
    }
    void vscode.commands.executeCommand('setContext', PENDING_KEY, n > 0);
    this.#updateContext();
    this.#changed.fire();
  }

  #updateContext(): void {
    void vscode.commands.executeCommand('setContext', DIFF_ACTIVE_KEY, !!this.active());
  }

  /** The status-bar entry's text (for tests). */
  get statusText(): string | undefined {
    return this.#changes.size ? this.#status.text : undefined;
  }

  dispose(): void {
    for (const d of this.#subscriptions) d.dispose();
    this.#changes.clear();
    this.#texts.clear();
  }
}
