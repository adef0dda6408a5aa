// "Modelgate: Open Conversation…": the conversation list as a quick pick. Titles, relative
// dates, newest first; search over titles and content; rename and delete as item buttons
// (delete is confirmed inside the list). Opened from the command palette, the chat view's
// title bar and the panel's history control.
//
// Search is ours, not the quick pick's: VS Code matches the label (and optionally description
// and detail) of the items it is given, which is not content search. Every keystroke filters
// the store's index (a bounded search text per conversation, conversationSearch.ts), so no file
// is read while the list is open; the items are marked alwaysShow so VS Code does not hide the
// ones whose label does not match.
import * as vscode from 'vscode';
import { plainLabel } from '../../core/plainLabel';
import { formatUsd } from '../../core/spend/cost';
import { cleanRename, plainText, relativeDate, searchConversations, UNTITLED, type ListEntry, type ListMatch } from './conversationSearch';
import type { ConversationStore } from './conversationStore';

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
}

const RENAME: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };
const placeholder = () => vscode.l10n.t('Search conversations (titles and messages)');

export interface ConversationItem extends vscode.QuickPickItem {
  readonly id?: string;
  /** in the delete confirmation: what the item does */
  readonly confirm?: 'delete' | 'keep';
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
      qp.onDidChangeValue((v) => this.search(v)),
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

  /** The matches for `query` (what a keystroke in the list does). */
  search(query: string): ListMatch[] {
    if (this.quickPick.value !== query) this.quickPick.value = query;
    if (this.confirming) return [];
    const matches = searchConversations(
      this.store.searchEntries().filter((e) => !!e.title),
      query,
    );
    const activeId = this.store.active.id;
    const now = this.now();
    this.quickPick.items = matches.map((m) => this.item(m.entry, m.snippet, activeId, now));
    this.quickPick.placeholder = placeholder();
    return matches;
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
