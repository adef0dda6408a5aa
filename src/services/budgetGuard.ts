// Guards the budgets (modelgate.budget.dailyUsd / monthlyUsd) with the spend ledger:
// - after each recorded request, a warning at 80 % and at 100 %, each once per day or month;
// - before the chat panel or the image command sends while a budget is used up, the user is
//   asked: "Send Once", "Raise Budget" (opens the setting) or Cancel (nothing is sent);
// - a request from another extension through vscode.lm is refused with an error that names
//   the budget: that extension cannot answer for the user.
// The figures and rules are in src/core/spend/budget.ts (pure, unit-tested).
import * as vscode from 'vscode';
import { BUDGET_SETTING, budgetMessage, budgetStatuses, dueWarnings, exhausted, type BudgetStatus } from '../core/spend/budget';
import type { Settings } from './settings';
import type { UsageLedger } from './usageLedger';

export const SEND_ONCE = 'Send Once';
export const RAISE_BUDGET = 'Raise Budget';
const WARNED_KEY = 'modelgate.budgetWarned';

export type BudgetAnswer = typeof SEND_ONCE | typeof RAISE_BUDGET | undefined;
/** Asks whether to send although `status` is used up; undefined = Cancel. */
export type BudgetAsk = (status: BudgetStatus, what: 'chat' | 'image') => Thenable<BudgetAnswer>;

const defaultAsk: BudgetAsk = (status, what) =>
  vscode.window.showWarningMessage(
    budgetMessage(status),
    {
      modal: true,
      detail:
        what === 'chat'
          ? vscode.l10n.t('Send this message anyway, or raise the budget in your user settings. Cancel sends nothing and keeps what you typed.')
          : vscode.l10n.t('Send this image request anyway, or raise the budget in your user settings. Cancel sends nothing and keeps what you typed.'),
    },
    SEND_ONCE,
    RAISE_BUDGET,
  ) as Thenable<BudgetAnswer>;

interface Memento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export class BudgetGuard implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  /** replaced by tests (the modal cannot be clicked from the extension host) */
  ask: BudgetAsk = defaultAsk;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly settings: () => Settings,
    private readonly state: Memento,
    private readonly warn: (message: string, ...actions: string[]) => Thenable<string | undefined> = (m, ...a) => vscode.window.showWarningMessage(m, ...a),
  ) {
    this.subscription = ledger.onDidRecord(() => this.warnIfDue());
  }

  statuses(now = Date.now()): BudgetStatus[] {
    return budgetStatuses(this.settings().budgets, this.ledger.spend(), now);
  }

  /** The budget that is used up, if any. */
  exhausted(): BudgetStatus | undefined {
    return exhausted(this.statuses());
  }

  /**
   * Before the chat panel or the image command sends: true to go ahead. While a budget is used
   * up, the user is asked; "Raise Budget" opens the setting and sends nothing.
   */
  async confirm(what: 'chat' | 'image'): Promise<{ send: true } | { send: false; message: string }> {
    const over = this.exhausted();
    if (!over) return { send: true };
    const answer = await this.ask(over, what);
    if (answer === SEND_ONCE) return { send: true };
    if (answer === RAISE_BUDGET) {
      void vscode.commands.executeCommand('workbench.action.openSettings', BUDGET_SETTING[over.kind]);
      return {
        send: false,
        message: vscode.l10n.t('Nothing was sent: {0} Raise "{1}" in your user settings, then send again.', budgetMessage(over), BUDGET_SETTING[over.kind]),
      };
    }
    return { send: false, message: vscode.l10n.t('Nothing was sent: {0}', budgetMessage(over)) };
  }

  /** For vscode.lm requests: throws, naming the budget, while one is used up. */
  refuseIfExhausted(requester: string | undefined): void {
    const over = this.exhausted();
    if (!over) return;
    const who = requester && requester !== 'core' ? ` (asked by ${requester})` : '';
    throw new Error(
      `Modelgate refused this request${who}: ${budgetMessage(over)} Requests from other extensions are not sent while a budget is used up; ` +
        `raise "${BUDGET_SETTING[over.kind]}" in your user settings, or wait for the next ${over.kind === 'daily' ? 'day' : 'month'}.`,
    );
  }

  private warnIfDue(): void {
    const warned = new Set(
      Array.isArray(this.state.get(WARNED_KEY)) ? (this.state.get(WARNED_KEY) as unknown[]).filter((k): k is string => typeof k === 'string') : [],
    );
    const due = dueWarnings(this.statuses(), warned);
    if (!due.length) return;
    for (const d of due) warned.add(d.key);
    // keep the keys of the current periods only (they begin with "daily:" or "monthly:" + the period)
    const current = new Set(this.statuses().map((s) => s.periodKey));
    void this.state.update(
      WARNED_KEY,
      [...warned].filter((k) => current.has(k.replace(/:(80|100)$/, ''))),
    );
    const top = due[due.length - 1]!;
    const OPEN = 'Open Budget Setting';
    const SHOW = 'Show Spending';
    const tail = top.status.ratio >= 1 ? ' The chat and image commands will ask before sending; other extensions are refused.' : '';
    void this.warn(`Modelgate: ${budgetMessage(top.status)}${tail}`, SHOW, OPEN).then((a) => {
      if (a === OPEN) void vscode.commands.executeCommand('workbench.action.openSettings', BUDGET_SETTING[top.status.kind]);
      if (a === SHOW) void vscode.commands.executeCommand('modelgate.showSpending');
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
