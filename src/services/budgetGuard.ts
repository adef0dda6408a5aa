// Guards the budgets (modelgate.budget.dailyUsd / monthlyUsd) with the spend ledger:
// - after each recorded request, a warning at 80 % and at 100 %, each once per day or month;
// - before the chat panel or the image command sends while a budget is used up, the user is
//   asked: "Send Once", "Raise Budget" (opens the setting) or Cancel (nothing is sent);
// - a request from another extension through vscode.lm is refused with an error that names
//   the budget: that extension cannot answer for the user.
// - each request reserves its estimated cost before it is sent and settles it when its real
//   cost is recorded (src/core/spend/reservations.ts): a burst stops once spent + reserved
//   reaches the budget, instead of every request of the burst seeing the same figure;
// - while a budget is set, a request without a known price cannot be counted: the panel and the
//   image command ask ("Send Once", "Set a Price"), a vscode.lm request is refused.
// - across windows: the ledger merges every window's files, and each window publishes what its
//   requests in flight reserve (src/core/spend/sharedSpend.ts). A vscode.lm request reserves,
//   publishes, reads the others again and only then goes: of two windows that reserve at the
//   same moment at least one sees the other's reservation, so together they pass a budget by at
//   most one request's estimate;
// The figures and rules are in src/core/spend/budget.ts (pure, unit-tested).
import * as vscode from 'vscode';
import { BUDGET_SETTING, budgetMessage, budgetStatuses, dueWarnings, exhausted, type BudgetStatus } from '../core/spend/budget';
import { formatUsd } from '../core/spend/cost';
import { Reservations, type Hold } from '../core/spend/reservations';
import { admitAcrossWindows } from '../core/spend/windowAdmission';
import type { Settings } from './settings';
import type { UsageLedger } from './usageLedger';

export const SEND_ONCE = 'Send Once';
export const RAISE_BUDGET = 'Raise Budget';
export const SET_PRICE = 'Set a Price';
const WARNED_KEY = 'modelgate.budgetWarned';
const MODELS_SETTING = 'modelgate.models';

export type BudgetAnswer = typeof SEND_ONCE | typeof RAISE_BUDGET | typeof SET_PRICE | undefined;
/** why the user is asked: the budget is used up, or the request has no known price while a budget is set */
export type BudgetReason = 'usedUp' | 'unpriced';
/** Asks whether to send although `status` is used up (or the request has no price); undefined = Cancel. */
export type BudgetAsk = (status: BudgetStatus, what: 'chat' | 'image', reason?: BudgetReason, model?: string) => Thenable<BudgetAnswer>;

/** "No price is known for "x", so this request cannot be counted against the daily budget of $1.00 (modelgate.budget.dailyUsd)." */
export function unpricedMessage(status: BudgetStatus, model: string): string {
  return status.kind === 'daily'
    ? vscode.l10n.t(
        'No price is known for "{0}", so this request cannot be counted against the daily budget of {1} ({2}).',
        model,
        formatUsd(status.limit),
        BUDGET_SETTING.daily,
      )
    : vscode.l10n.t(
        'No price is known for "{0}", so this request cannot be counted against the monthly budget of {1} ({2}).',
        model,
        formatUsd(status.limit),
        BUDGET_SETTING.monthly,
      );
}

// The safe choice is the default button (VS Code makes a modal's first button the primary one,
// the one Enter takes): "Set a Price" / "Raise Budget" open the setting and send nothing, so
// Enter never spends past a budget; "Send Once" is the second button.
export const askBudget: BudgetAsk = (status, what, reason = 'usedUp', model = '') =>
  reason === 'unpriced'
    ? (vscode.window.showWarningMessage(
        unpricedMessage(status, model),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Send it anyway, or set the model\'s price under "{0}" in your user settings so that it counts. Cancel sends nothing and keeps what you typed.',
            MODELS_SETTING,
          ),
        },
        SET_PRICE,
        SEND_ONCE,
      ) as Thenable<BudgetAnswer>)
    : (vscode.window.showWarningMessage(
        budgetMessage(status),
        {
          modal: true,
          detail:
            what === 'chat'
              ? vscode.l10n.t('Send this message anyway, or raise the budget in your user settings. Cancel sends nothing and keeps what you typed.')
              : vscode.l10n.t('Send this image request anyway, or raise the budget in your user settings. Cancel sends nothing and keeps what you typed.'),
        },
        RAISE_BUDGET,
        SEND_ONCE,
      ) as Thenable<BudgetAnswer>);

/** A vscode.lm request refused because a budget is used up: another extension cannot answer for the user. */
function usedUpError(who: string, over: BudgetStatus): Error {
  return new Error(
    `Modelgate refused this request${who}: ${budgetMessage(over)} Requests from other extensions are not sent while a budget is used up; ` +
      `raise "${BUDGET_SETTING[over.kind]}" in your user settings, or wait for the next ${over.kind === 'daily' ? 'day' : 'month'}.`,
  );
}

interface Memento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export class BudgetGuard implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  /** replaced by tests (the modal cannot be clicked from the extension host) */
  ask: BudgetAsk = askBudget;
  /** the estimated costs of the requests in flight */
  readonly reservations = new Reservations();
  /** what this window last told the other windows it reserves */
  private published = 0;
  readonly #refused = new vscode.EventEmitter<void>();
  /** a request was refused or held back by a budget (the spending view redraws) */
  readonly onDidRefuse = this.#refused.event;

  constructor(
    private readonly ledger: UsageLedger,
    private readonly settings: () => Settings,
    private readonly state: Memento,
    private readonly warn: (message: string, ...actions: string[]) => Thenable<string | undefined> = (m, ...a) => vscode.window.showWarningMessage(m, ...a),
  ) {
    this.subscription = ledger.onDidRecord(() => this.warnIfDue());
  }

  statuses(now = Date.now()): BudgetStatus[] {
    return budgetStatuses(this.settings().budgets, this.ledger.spend(), now, this.reservations.total() + this.ledger.othersReserved());
  }

  /** what was spent plus what this window reserved before `hold` (and, with `others`, what the other windows reserve) */
  private overBefore(hold: Hold, others: boolean): BudgetStatus | undefined {
    const reserved = this.reservations.totalBefore(hold) + (others ? this.ledger.othersReserved() : 0);
    return exhausted(budgetStatuses(this.settings().budgets, this.ledger.spend(), Date.now(), reserved));
  }

  /** Tells the other windows what this window's requests in flight reserve now. */
  private publish(): Promise<void> {
    // no file writes per request while no budget is set (a budget removed still clears its figure)
    const budgets = this.settings().budgets;
    const usd = this.reservations.total();
    if (budgets.dailyUsd === undefined && budgets.monthlyUsd === undefined && this.published === 0) return Promise.resolve();
    this.published = usd;
    return this.ledger.publishReserved(usd);
  }

  /** The budget that is used up (what was spent plus what is reserved has reached it), if any. */
  exhausted(): BudgetStatus | undefined {
    return exhausted(this.statuses());
  }

  /**
   * Before the chat panel or the image command sends: true to go ahead. While a budget is used
   * up, or while one is set and the request (`model`, `priced`) has no known price, the user is
   * asked; "Raise Budget" and "Set a Price" open the setting and send nothing.
   */
  async confirm(what: 'chat' | 'image', request?: { model: string; priced: boolean }): Promise<{ send: true } | { send: false; message: string }> {
    // what the other windows spent and reserve, read now (only while a budget is set)
    if (this.settings().budgets.dailyUsd !== undefined || this.settings().budgets.monthlyUsd !== undefined) await this.ledger.refreshSpend();
    const statuses = this.statuses();
    const over = exhausted(statuses);
    const unpriced = !over && request && !request.priced ? statuses[0] : undefined;
    if (!over && !unpriced) return { send: true };
    const status = (over ?? unpriced)!;
    const answer = await this.ask(status, what, over ? 'usedUp' : 'unpriced', request?.model);
    if (answer === SEND_ONCE) return { send: true };
    this.#refused.fire();
    if (unpriced) {
      if (answer === SET_PRICE) void vscode.commands.executeCommand('workbench.action.openSettings', MODELS_SETTING);
      return { send: false, message: vscode.l10n.t('Nothing was sent: {0}', unpricedMessage(unpriced, request!.model)) };
    }
    if (answer === RAISE_BUDGET) {
      void vscode.commands.executeCommand('workbench.action.openSettings', BUDGET_SETTING[status.kind]);
      return {
        send: false,
        message: vscode.l10n.t('Nothing was sent: {0} Raise "{1}" in your user settings, then send again.', budgetMessage(status), BUDGET_SETTING[status.kind]),
      };
    }
    return { send: false, message: vscode.l10n.t('Nothing was sent: {0}', budgetMessage(status)) };
  }

  /**
   * Reserves `usd` (a request's estimated cost; undefined = no known price counts as 0) until
   * its real cost is recorded: call settle() right after recording it, and on every other end.
   */
  hold(usd: number | undefined): Hold {
    const hold = this.reservations.hold(usd ?? 0);
    if (hold.usd > 0) void this.publish();
    return {
      id: hold.id,
      usd: hold.usd,
      settle: () => {
        const held = this.reservations.size;
        hold.settle();
        if (hold.usd > 0 && this.reservations.size < held) void this.publish();
      },
    };
  }

  /**
   * After reserveForLm, across windows (src/core/spend/windowAdmission.ts): tells the other
   * windows what this window reserves, reads what they spent and reserve, and refuses (releasing
   * the reservation) when the budget was used up by what was there before this request. Only
   * while a budget is set. Resolves to the reservation to settle when the request ends.
   */
  async checkAcrossWindows(hold: Hold, requester: string | undefined): Promise<Hold> {
    const budgets = this.settings().budgets;
    if (budgets.dailyUsd === undefined && budgets.monthlyUsd === undefined) return hold;
    const result = await admitAcrossWindows(
      {
        publishAndRead: async () => {
          await this.publish();
          await this.ledger.refreshSpend();
        },
        overBefore: (h, others) => this.overBefore(h, others),
        hold: (usd) => this.hold(usd),
        publish: () => this.publish(),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      },
      hold,
    );
    if ('hold' in result) return result.hold;
    this.#refused.fire();
    throw usedUpError(requester && requester !== 'core' ? ` (asked by ${requester})` : '', result.refused);
  }

  /**
   * For vscode.lm requests: reserves the request's estimated cost (`usd`; undefined = no known
   * price for `model`), or throws, naming the budget, while one is used up (spent plus reserved)
   * or while one is set and the request has no price: another extension cannot answer for the user.
   */
  reserveForLm(requester: string | undefined, model: string, usd: number | undefined): Hold {
    const refusal = this.lmRefusal(requester, model, usd);
    if (refusal) {
      this.#refused.fire();
      throw new Error(refusal);
    }
    return this.hold(usd);
  }

  /** Why reserveForLm would refuse this request now (the error's message), or undefined when it would go. */
  lmRefusal(requester: string | undefined, model: string, usd: number | undefined): string | undefined {
    const statuses = this.statuses();
    const who = requester && requester !== 'core' ? ` (asked by ${requester})` : '';
    const over = exhausted(statuses);
    if (over) return usedUpError(who, over).message;
    if (usd === undefined && statuses.length) {
      return vscode.l10n.t(
        'Modelgate refused this request{0}: {1} Requests from other extensions without a known price are not sent while a budget is set; set the price of "{2}" under "{3}" in your user settings, or remove the budget.',
        who,
        unpricedMessage(statuses[0]!, model),
        model,
        MODELS_SETTING,
      );
    }
    return undefined;
  }

  /** "Daily budget: $0.42 left of $1.00" for each budget set (what is spent and reserved in every window counted). */
  remainingLines(): string[] {
    return this.statuses().map((s) => {
      const left = formatUsd(Math.max(0, s.limit - s.spent - (s.reserved ?? 0)));
      return s.kind === 'daily'
        ? vscode.l10n.t('Daily budget: {0} left of {1}', left, formatUsd(s.limit))
        : vscode.l10n.t('Monthly budget: {0} left of {1}', left, formatUsd(s.limit));
    });
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
    this.#refused.dispose();
  }
}
