// Spending and budgets: the "Modelgate: Show Spending" command and what the integration tests
// read. The guard itself (src/services/budgetGuard.ts) is a service, made in activate().
import * as vscode from 'vscode';
import type { Period, SpendSummary } from '../core/spend/spendBook';
import { summarizePeriod } from '../core/spend/spendBook';
import type { Services } from '../services/serviceContainer';
import type { BudgetAsk } from '../services/budgetGuard';
import { SpendView } from './spendView';

export interface SpendApi {
  /** what was spent in the current local day, week or month */
  summary(period: Period): SpendSummary;
  /** reads every window's ledger files again, as a window reload does */
  reload(): Promise<void>;
  /** resolves once every request recorded so far is written to this window's ledger file */
  whenWritten(): Promise<void>;
  /** this window's id in the shared ledger folder (its entries' ids begin with it) */
  readonly windowId: string;
  /** replaces the budget question (the modal cannot be clicked from the extension host); undefined restores it */
  setBudgetAsk(ask: BudgetAsk | undefined): void;
  /** the page of the spending view as last drawn (undefined until shown) */
  readonly view: Pick<SpendView, 'lastPage' | 'lastHtml' | 'exportCsv' | 'saveDialog' | 'lastSaveDialog'>;
}

export function registerSpending(services: Services): { disposables: vscode.Disposable[]; api: SpendApi } {
  const view = new SpendView(services.usage, services.budget, services.onDidChangeSettings);
  const defaultAsk = services.budget.ask;
  const api: SpendApi = {
    summary: (period) => summarizePeriod(services.usage.spend(), period, Date.now()),
    reload: () => services.usage.reloadSpend(),
    whenWritten: () => services.usage.whenWritten(),
    windowId: services.usage.windowId,
    setBudgetAsk: (ask) => (services.budget.ask = ask ?? defaultAsk),
    view,
  };
  return { disposables: [view, vscode.commands.registerCommand('modelgate.showSpending', () => view.show())], api };
}
