// The status-bar item of completions as you type, shown while they are turned on: their state at
// a glance (on, snoozed, stopped by money, backing off after an error, off in Restricted Mode) and
// a tooltip with today's completion spend and acceptance rate. A click opens the completions menu
// (snooze 5 minutes, an hour, until turned on; the one action an error needs), which is in the
// completions bundle (src/completions/completionsCommands.ts, loaded on its first use). Kept small:
// this file is in what activation loads.
import * as vscode from 'vscode';
import { CHANNEL_INFO } from '../core/catalogue/modelCatalogue';
import { acceptanceRate } from '../core/completions/completionDay';
import { formatUsd } from '../core/spend/cost';
import { completionMoney, hourlyText, stopText } from '../shared/completionsMoney';
import type { CompletionsState } from '../services/completionsState';
import { COMPLETIONS_COMMANDS } from '../shared/featureIds';
import type { Services } from '../services/serviceContainer';

export class CompletionsStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];
  private visible = false;

  constructor(
    private readonly services: Services,
    private readonly state: CompletionsState,
  ) {
    this.item = vscode.window.createStatusBarItem('modelgate.completions', vscode.StatusBarAlignment.Right, 99);
    this.item.name = vscode.l10n.t('Modelgate Completions');
    this.item.command = COMPLETIONS_COMMANDS.menu;
    this.subs.push(
      services.onDidChangeSettings(() => this.update()),
      services.onDidChangeCatalogue(() => this.update()),
      services.usage.onDidRecord(() => this.update()),
      state.onDidChange(() => this.update()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.update()),
    );
    // The spend ledger is read on first use, not at activation: the figures come a moment later.
    this.update({ money: false });
    this.deferred = setTimeout(() => this.update(), 1500);
  }

  private deferred: ReturnType<typeof setTimeout> | undefined;

  /** Text, tooltip and visibility, exposed for tests. */
  get view(): { visible: boolean; text: string; tooltip: string } {
    const t = this.item.tooltip;
    return { visible: this.visible, text: this.item.text, tooltip: typeof t === 'string' ? t : (t?.value ?? '') };
  }

  update(options: { money: boolean } = { money: true }): void {
    const c = this.services.settings().completions;
    if (!c.enabled) {
      this.visible = false;
      this.item.hide();
      return;
    }
    const money = options.money ? completionMoney(this.services) : undefined;
    // a budget raised or a new day: the sign goes without waiting for the next keystroke
    if (money && this.state.stop && !money.stop) this.state.setStop(undefined);
    const stop = this.state.stop ?? money?.stop;
    const trouble = this.state.trouble;
    const snooze = this.state.snooze();
    let icon = '$(edit-sparkle)';
    let state = vscode.l10n.t('On: ghost text appears when you pause typing. Tab accepts it, Escape dismisses it.');
    let warn = false;
    if (!vscode.workspace.isTrusted) {
      icon = '$(shield)';
      state = vscode.l10n.t('Off in Restricted Mode: nothing is sent from an untrusted workspace.');
    } else if (snooze !== undefined) {
      icon = '$(snooze)';
      state =
        snooze === 'untilOn'
          ? vscode.l10n.t('Snoozed until you turn them on again.')
          : vscode.l10n.t('Snoozed until {0}.', new Date(snooze).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }));
    } else if (stop) {
      icon = '$(circle-slash)';
      state = stopText(stop);
      warn = true;
    } else if (trouble) {
      icon = '$(warning)';
      state = vscode.l10n.t('Paused after an error, trying again later: {0}', trouble.message);
      warn = true;
    }
    this.item.text = typeof snooze === 'number' && vscode.workspace.isTrusted ? `${icon} ${minutesLeft(snooze)}` : icon;
    this.item.backgroundColor = warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const day = this.state.day();
    const rate = acceptanceRate(day);
    const lines = [
      vscode.l10n.t('**Modelgate completions as you type**'),
      state,
      vscode.l10n.t('**Model:** {0} · {1} — {2}', c.model, CHANNEL_INFO[c.channel].label, hourlyText(this.services, c.model, c.channel)),
      (!money
        ? vscode.l10n.t('**Today:** …')
        : money.unpricedToday > 0
          ? vscode.l10n.t('**Today:** {0} for {1} requests ({2} without a price)', formatUsd(money.spentToday), money.requestsToday, money.unpricedToday)
          : vscode.l10n.t('**Today:** {0} for {1} requests', formatUsd(money.spentToday), money.requestsToday)) +
        (c.dailyUsd !== undefined ? ` ${vscode.l10n.t('(daily cap {0})', formatUsd(c.dailyUsd))}` : ''),
      rate === undefined
        ? vscode.l10n.t('**Accepted:** none shown yet today')
        : vscode.l10n.t('**Accepted:** {0} of {1} shown today ({2} %)', day.accepted, day.shown, Math.round(rate * 100)),
      vscode.l10n.t('Click to snooze, resume or change them.'),
    ];
    this.item.tooltip = new vscode.MarkdownString(lines.join('\n\n'), true);
    this.item.accessibilityInformation = { label: vscode.l10n.t('Modelgate completions as you type: {0}', state) };
    this.visible = true;
    this.item.show();
  }

  dispose(): void {
    if (this.deferred) clearTimeout(this.deferred);
    for (const d of this.subs) d.dispose();
    this.item.dispose();
  }
}

function minutesLeft(until: number): string {
  const min = Math.max(1, Math.ceil((until - Date.now()) / 60_000));
  return min >= 60 ? vscode.l10n.t('{0} h', Math.round(min / 60)) : vscode.l10n.t('{0} min', min);
}
