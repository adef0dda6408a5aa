// "Modelgate: Show Spending": a webview panel with the last 30 days (a bar per day), the chat
// panel's conversations, and today, this week and this month by model, channel and source (src/spendingView/spendHtml.ts draws it), refreshed on each recorded request,
// and "Export CSV…" (save dialog; src/core/spend/spendCsv.ts writes injection-safe cells). The one
// message the page sends is validated with zod.
import * as vscode from 'vscode';
import * as z from 'zod';
import { lazy } from '../core/lazy';
import { spendCsv } from '../core/spend/spendCsv';
import { summarizePeriod } from '../core/spend/spendBook';
import { byConversation, HISTORY_DAYS, lastDays, periodStart } from '../core/spend/spendHistory';
import type { UsageLedger } from '../services/usageLedger';
import type { BudgetGuard } from '../services/budgetGuard';
import { makeNonce } from '../core/webviewShell';
import { buildSpendHtml, type SpendPage } from './spendHtml';
import { errorText } from '../core/errorText';

/** built when the page first sends (no schema is built at activation) */
const messageSchema = lazy(() => z.object({ type: z.literal('exportCsv') }).strict());

/** Where the CSV goes: VS Code's save dialog (tests replace it: a dialog cannot be clicked from the extension host). */
export type SaveDialog = (options: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined>;

export class SpendView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly subscriptions: vscode.Disposable[];
  /** the last page drawn (tests read the figures the user sees) */
  lastPage: SpendPage | undefined;
  lastHtml: string | undefined;
  saveDialog: SaveDialog = (options) => vscode.window.showSaveDialog(options);
  /** the options of the last save dialog asked (tests read where it proposed to save) */
  lastSaveDialog: vscode.SaveDialogOptions | undefined;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly budget: BudgetGuard,
    onDidChangeSettings: vscode.Event<unknown>,
  ) {
    // Redrawn on each recorded request, on a budget change (the settings) and when a budget
    // refuses a request: the page never says "No budget set" while one refuses sends.
    // Also when another window's requests were read from the shared ledger folder.
    this.subscriptions = [
      ledger.onDidRecord(() => this.render()),
      ledger.onDidChangeShared(() => this.render()),
      onDidChangeSettings(() => this.render()),
      budget.onDidRefuse(() => this.render()),
    ];
  }

  page(now = Date.now()): SpendPage {
    const s = this.ledger.spend();
    return {
      today: summarizePeriod(s, 'day', now),
      week: summarizePeriod(s, 'week', now),
      month: summarizePeriod(s, 'month', now),
      budgets: this.budget.statuses(now),
      days: lastDays(s, now, HISTORY_DAYS),
      conversations: byConversation(s, periodStart(now, HISTORY_DAYS), Infinity),
    };
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal();
      this.render();
      void this.ledger.refreshSpend().then(() => this.render());
      return;
    }
    const panel = vscode.window.createWebviewPanel('modelgate.spending', vscode.l10n.t('Modelgate Spending'), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [],
    });
    this.panel = panel;
    panel.onDidDispose(() => (this.panel = undefined));
    // what the other windows spent: read now, drawn when read
    void this.ledger.refreshSpend().then(() => this.render());
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      if (!messageSchema().safeParse(raw).success) return;
      void this.exportCsv();
    });
    this.render();
  }

  private render(): void {
    if (!this.panel) return;
    this.lastPage = this.page();
    this.lastHtml = buildSpendHtml(this.lastPage, this.panel.webview.cspSource, makeNonce());
    this.panel.webview.html = this.lastHtml;
  }

  /** Asks where to save (unless `target` is given) and writes the CSV; the file written, or undefined. */
  async exportCsv(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    // Always asks (the export is not project data: no default inside the workspace, where it could
    // be committed); the dialog starts in the user's home folder where VS Code has one.
    const options: vscode.SaveDialogOptions = {
      title: vscode.l10n.t('Export Modelgate spending'),
      saveLabel: vscode.l10n.t('Export'),
      filters: { CSV: ['csv'] },
      defaultUri: homeCsvUri(),
    };
    if (!target) this.lastSaveDialog = options;
    const uri = target ?? (await this.saveDialog(options));
    if (!uri) return undefined;
    try {
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(spendCsv(this.ledger.spend())));
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Modelgate: could not write {0}: {1}', uri.fsPath || uri.toString(true), errorText(err)));
      return undefined;
    }
    return uri;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.panel?.dispose();
  }
}

/** modelgate-spending-YYYY-MM-DD.csv in the home folder (desktop and remote hosts); undefined on the web. */
function homeCsvUri(): vscode.Uri | undefined {
  const env = globalThis.process?.env;
  const home = env?.HOME || env?.USERPROFILE;
  if (!home || vscode.env.uiKind === vscode.UIKind.Web) return undefined;
  const d = new Date();
  const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return vscode.Uri.file(`${home}/modelgate-spending-${day}.csv`);
}
