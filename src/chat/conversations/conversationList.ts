// "Modelgate: Open Conversation…": the conversation list as a quick pick. Titles, relative
// dates, newest first; search over titles and content; rename and delete as item buttons
// (delete is confirmed inside the list). Opened from the command palette, the chat view's
// title bar and the panel's history control.
//
// Search is ours, not the quick pick's: VS Code matches the label (and optionally description
// and detail) of the items it is given, which is not content search. Every keystroke filters
// the store's index (the first 2,000 characters of each conversation, conversationSearch.ts) at
// once; then, once typing pauses, the full text of the conversations the index cut is read,
// newest first, and their matches join the list as they are found (conversationFullText.ts). A
// search reads a bounded amount; when it stops there, the last item says so and goes on. The
// items are marked alwaysShow so VS Code does not hide the ones whose label does not match.
import * as vscode from 'vscode';
import { plainLabel } from '../../core/plainLabel';
import { formatUsd } from '../../core/spend/cost';
import { cleanRename, plainText, relativeDate, searchConversations, UNTITLED, type ListEntry, type ListMatch } from './conversationSearch';
import type { ConversationStore } from './conversationStore';
import { indexTextIsCut, searchFullText } from './conversationFullText';

/** What the list's host needs of the chat's controller (ChatController has it). */
export interface ListController {
  history(): Promise<ConversationStore>;
  switchConversation(id: string): Promise<boolean>;
  renameConversation(id: string, title: string): Promise<boolean>;
  deleteConversation(id: string): Promise<void>;
  focusInput(): void;
}

/** What the list needs from the chat (the controller provides it). */
export interface ConversationListHost {
  store(): Promise<ConversationStore>;
  /** opens the conversation in the panel; false when it is gone */
  open(id: string): Promise<boolean>;
  rename(id: string, title: string): Promise<boolean>;
  delete(id: string): Promise<void>;
}

export interface ConversationListOptions {
  /** asks for a new title (default: an input box); undefined = cancelled */
  askTitle?: (current: string) => Thenable<string | undefined>;
  now?: () => number;
  /** how much one full-text search reads before it offers "Search N more" (default: conversationFullText.ts's bounds) */
  fullTextBounds?: { maxChars?: number; maxMs?: number };
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };
const placeholder = () => vscode.l10n.t('Search conversations (titles and messages)');

export interface ConversationItem extends vscode.QuickPickItem {
  readonly id?: string;
  /** in the delete confirmation: what the item does */
  readonly confirm?: 'delete' | 'keep';
  /** the item that searches the full text of the conversations a bounded search left */
  readonly more?: true;
}

/** Typing pauses this long before conversation files are read (a keystroke within it starts nothing). */
export const FULL_SEARCH_DELAY_MS = 150;

/** The last full search that ran to its end: a longer query only needs to look at what it matched. */
interface CompletedSearch {
  query: string;
  matched: Set<string>;
  /** updatedAt of each entry it looked at (a changed or new conversation is searched again) */
  seen: Map<string, number>;
}

/** One open list. Kept by the caller for tests: it drives the real quick pick. */
export class ConversationListSession implements vscode.Disposable {
  readonly quickPick: vscode.QuickPick<ConversationItem>;
  /** resolves when the list is closed (picked, cancelled or disposed) */
  readonly closed: Promise<void>;
  private closeNow!: () => void;
  private confirming: string | undefined;
  private renaming = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly askTitle: (current: string) => Thenable<string | undefined>;
  private readonly now: () => number;
  private readonly fullTextBounds: { maxChars?: number; maxMs?: number };
  /** what the list shows: the index's matches, then the full text's (newest first), then "search more" */
  private indexMatches: ListMatch[] = [];
  private fullMatches: ListMatch[] = [];
  private rest: { query: string; entries: ListEntry[]; searched: number } | undefined;
  /** bumped by every new search: a full search of an older query stops reading */
  private generation = 0;
  private fullDone: Promise<ListMatch[]> = Promise.resolve([]);
  private completed: CompletedSearch | undefined;
  private renderTimer: ReturnType<typeof setTimeout> | undefined;
  /** the query of the latest search */
  private query = '';

  constructor(
    private readonly host: ConversationListHost,
    private readonly store: ConversationStore,
    options: ConversationListOptions = {},
  ) {
    this.askTitle =
      options.askTitle ??
      ((current) =>
        vscode.window.showInputBox({
          title: vscode.l10n.t('Rename conversation'),
          value: current,
          prompt: vscode.l10n.t('A new title for this conversation'),
          validateInput: (v) => (cleanRename(v) ? undefined : vscode.l10n.t('Type a title.')),
        }));
    this.now = options.now ?? Date.now;
    this.fullTextBounds = options.fullTextBounds ?? {};
    this.closed = new Promise((resolve) => (this.closeNow = resolve));
    const qp = vscode.window.createQuickPick<ConversationItem>();
    this.quickPick = qp;
    qp.title = vscode.l10n.t('Conversations');
    qp.placeholder = placeholder();
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    // Keep our order (newest first, title matches before content matches). A property of
    // VS Code's quick pick that extensions may set since 1.9x (proposal quickPickSortByLabel);
    // where it is ignored, VS Code moves the items whose title matches to the top, also fine.
    (qp as { sortByLabel?: boolean }).sortByLabel = false;
    this.disposables.push(
      qp,
      // VS Code also reports a value the extension set (search() sets it): that search is running already
      qp.onDidChangeValue((v) => v !== this.query && this.search(v)),
      qp.onDidTriggerItemButton((e) => void this.button(e.item, e.button)),
      qp.onDidAccept(() => void this.accept(qp.selectedItems[0] ?? qp.activeItems[0])),
      qp.onDidHide(() => {
        if (!this.renaming) this.dispose();
      }),
    );
    this.search('');
  }

  show(): void {
    this.quickPick.show();
  }

  /**
   * The index's matches for `query` (what a keystroke in the list does, at once); the full text of
   * the other conversations is searched after it (`settled()`).
   */
  search(query: string): ListMatch[] {
    if (this.quickPick.value !== query) this.quickPick.value = query;
    if (this.confirming) return [];
    this.query = query;
    const entries = this.store.searchEntries().filter((e) => !!e.title);
    const matches = searchConversations(entries, query);
    this.indexMatches = matches;
    this.fullMatches = [];
    this.rest = undefined;
    this.render(false);
    this.quickPick.placeholder = placeholder();
    const listed = new Set(matches.map((m) => m.entry.id));
    const candidates = entries.filter((e) => !listed.has(e.id) && indexTextIsCut(e) && this.mayMatch(query, e)).sort((a, b) => b.updatedAt - a.updatedAt);
    this.fullDone = this.searchFull(query, candidates, entries);
    return matches;
  }

  /**
   * Every match of the latest search, the full text's included, once that search has read what it
   * reads (a search started meanwhile, by typing or by the list's refresh, is waited for too).
   */
  async settled(): Promise<ListMatch[]> {
    for (;;) {
      const running = this.fullDone;
      const matches = await running;
      if (running === this.fullDone) return matches;
    }
  }

  /** Whether an entry can match `query`, judged by the last complete search of a query it extends. */
  private mayMatch(query: string, e: ListEntry): boolean {
    const c = this.completed;
    if (!c || !query.toLowerCase().startsWith(c.query)) return true;
    return c.matched.has(e.id) || c.seen.get(e.id) !== e.updatedAt;
  }

  /** Reads the full text of `candidates` (newest first) and adds their matches to the list as they are found. */
  private async searchFull(query: string, candidates: ListEntry[], universe: readonly ListEntry[], searchedBefore = 0): Promise<ListMatch[]> {
    const generation = ++this.generation;
    const cancelled = () => generation !== this.generation || this.isDisposed;
    const words = query.trim();
    if (!words || !candidates.length) {
      this.quickPick.busy = false;
      if (words) this.complete(query, universe);
      return this.shown();
    }
    this.quickPick.busy = true;
    await new Promise((resolve) => setTimeout(resolve, FULL_SEARCH_DELAY_MS));
    if (cancelled()) return this.shown();
    const result = await searchFullText(candidates, words, (e) => this.store.fullText(e), {
      ...this.fullTextBounds,
      cancelled,
      onMatch: (m) => {
        this.fullMatches.push(m);
        this.renderSoon();
      },
    });
    if (cancelled()) return this.shown();
    this.fullMatches = [...this.fullMatches].sort((a, b) => b.entry.updatedAt - a.entry.updatedAt);
    this.rest = result.rest.length ? { query, entries: result.rest, searched: searchedBefore + result.searched } : undefined;
    if (!this.rest) this.complete(query, universe);
    this.quickPick.busy = false;
    this.render(true);
    return this.shown();
  }

  private complete(query: string, universe: readonly ListEntry[]): void {
    this.completed = {
      query: query.toLowerCase(),
      matched: new Set(this.shown().map((m) => m.entry.id)),
      seen: new Map(universe.map((e) => [e.id, e.updatedAt])),
    };
  }

  private shown(): ListMatch[] {
    return [...this.indexMatches, ...this.fullMatches];
  }

  private renderSoon(): void {
    this.renderTimer ??= setTimeout(() => {
      this.renderTimer = undefined;
      if (!this.isDisposed) this.render(true);
    }, 100);
  }

  /** Puts the matches into the list; `keepActive`: the item the user moved to stays active while results arrive. */
  private render(keepActive: boolean): void {
    if (this.confirming || this.isDisposed) return;
    const activeId = this.store.active.id;
    const now = this.now();
    const items: ConversationItem[] = this.shown().map((m) => this.item(m.entry, m.snippet, activeId, now));
    if (this.rest) {
      const older = this.rest.entries.length;
      items.push({
        label: `$(search) ${older === 1 ? vscode.l10n.t('Search 1 more conversation in full') : vscode.l10n.t('Search {0} more conversations in full', older)}`,
        detail: vscode.l10n.t(
          'The whole text of the {0} newest long conversations was searched; the older ones only by their first 2,000 characters.',
          this.rest.searched,
        ),
        more: true,
        alwaysShow: true,
      });
    }
    const active = keepActive ? this.quickPick.activeItems[0] : undefined;
    this.quickPick.items = items;
    const again = active && items.find((i) => (active.id ? i.id === active.id : i.more && active.more));
    if (again && again !== items[0]) this.quickPick.activeItems = [again];
  }

  /** The item buttons: Rename asks for a title; Delete asks for a confirmation in the list. */
  async button(item: ConversationItem, button: vscode.QuickInputButton): Promise<void> {
    if (!item.id) return;
    if (button === DELETE || button.tooltip === DELETE.tooltip) return this.askDelete(item.id);
    if (button === RENAME || button.tooltip === RENAME.tooltip) return this.rename(item.id);
  }

  async rename(id: string): Promise<void> {
    const entry = this.store.searchEntries().find((e) => e.id === id);
    if (!entry) return;
    this.renaming = true;
    let typed: string | undefined;
    try {
      typed = await this.askTitle(entry.title);
    } finally {
      this.renaming = false;
    }
    const title = typed === undefined ? undefined : cleanRename(typed);
    if (title && title !== entry.title && !(await this.host.rename(id, title))) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Modelgate: that conversation could not be renamed; it may have been deleted.'));
    }
    if (this.isDisposed) return;
    this.search(this.quickPick.value);
    this.quickPick.show();
  }

  askDelete(id: string): void {
    const entry = this.store.searchEntries().find((e) => e.id === id);
    if (!entry) return;
    this.confirming = id;
    const title = displayTitle(entry.title);
    this.quickPick.placeholder = vscode.l10n.t('Delete “{0}”?', title);
    this.quickPick.items = [
      {
        label: `$(trash) ${vscode.l10n.t('Delete “{0}”', title)}`,
        description: vscode.l10n.t('its messages are removed from the chat history'),
        confirm: 'delete',
        alwaysShow: true,
      },
      { label: `$(arrow-left) ${vscode.l10n.t('Keep it')}`, description: vscode.l10n.t('back to the list'), confirm: 'keep', alwaysShow: true },
    ];
  }

  /** Enter on an item: open the conversation, or answer the delete confirmation. */
  async accept(item: ConversationItem | undefined): Promise<void> {
    if (!item) return;
    if (item.more) {
      const rest = this.rest;
      if (!rest) return;
      this.rest = undefined;
      this.render(true);
      this.fullDone = this.searchFull(rest.query, rest.entries, this.store.searchEntries(), rest.searched);
      return;
    }
    if (item.confirm) {
      const id = this.confirming;
      this.confirming = undefined;
      if (item.confirm === 'delete' && id) {
        this.quickPick.busy = true;
        try {
          await this.host.delete(id);
        } finally {
          this.quickPick.busy = false;
        }
      }
      if (!this.isDisposed) this.search(this.quickPick.value);
      return;
    }
    if (!item.id) return;
    this.quickPick.hide();
    if (!(await this.host.open(item.id)))
      void vscode.window.showWarningMessage(vscode.l10n.t('Modelgate: that conversation could not be opened; it may have been deleted.'));
  }

  private item(entry: ListEntry, snippet: string | undefined, activeId: string, now: number): ConversationItem {
    const when = relativeDate(entry.updatedAt, now);
    // what the task cost, and how much of its prompts the cache served
    const cost =
      entry.totalCost === undefined
        ? undefined
        : entry.cachedShare !== undefined && entry.cachedShare >= 0.005
          ? vscode.l10n.t('{0} ({1} cached)', formatUsd(entry.totalCost), `${Math.round(entry.cachedShare * 100)}%`)
          : formatUsd(entry.totalCost);
    const parts = [when, ...(cost ? [cost] : []), ...(entry.id === activeId ? [vscode.l10n.t('open now')] : [])];
    return {
      id: entry.id,
      label: displayTitle(entry.title),
      description: parts.join(' · '),
      detail: snippet,
      alwaysShow: true,
      buttons: [RENAME, DELETE],
    };
  }

  private isDisposed = false;
  get disposed(): boolean {
    return this.isDisposed;
  }

  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    if (this.renderTimer) clearTimeout(this.renderTimer);
    for (const d of this.disposables) d.dispose();
    this.closeNow();
  }
}

/** Titles as stored (older ones are the raw first message): markdown out, never empty. */
function displayTitle(title: string): string {
  return plainLabel(plainText(title)) || UNTITLED; // no codicon syntax, bidi or control characters from a title
}

/**
 * Opens the list (and, in the background, fills the search text of conversations an older
 * version stored without it, refreshing the list when that finishes).
 */
export async function showConversationList(host: ConversationListHost, options?: ConversationListOptions): Promise<ConversationListSession> {
  const store = await host.store();
  const session = new ConversationListSession(host, store, options);
  session.show();
  void store.fillSearchText().then((n) => {
    if (n > 0 && !session.disposed) session.search(session.quickPick.value);
  });
  return session;
}

/** The list's view of a chat controller; `reveal` shows the chat view after a pick. */
export function controllerListHost(controller: () => ListController, reveal: () => Thenable<unknown>): ConversationListHost {
  return {
    store: () => controller().history(),
    open: async (id) => {
      const opened = await controller().switchConversation(id);
      await reveal();
      if (opened) controller().focusInput();
      return opened;
    },
    rename: (id, title) => controller().renameConversation(id, title),
    delete: (id) => controller().deleteConversation(id),
  };
}
