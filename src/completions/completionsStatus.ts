// The status-bar item of completions as you type, shown while they are turned on: their state at
// a glance (on, snoozed with the minutes left, stopped by money, backing off after an error, off
// in Restricted Mode) and a tooltip with the model and what an hour of typing costs, today's
// completion spend and the acceptance rate. A click opens the completions menu
// (completionsCommands.ts). In the completions bundle, not in what activation loads:
// featureLoading/lazyFeatures.ts makes the item a moment after activation while completions are
// on, or when they are turned on. Making the item does not build the feature (that happens on
// the first keystroke that may complete).
import * as vscode from 'vscode';
import { CHANNEL_INFO } from '../core/catalogue/modelCatalogue';
import { acceptanceRate } from '../core/completions/completionDay';
import { formatUsd } from '../core/spend/cost';
import type { CompletionsState } from '../services/completionsState';
import { COMPLETIONS_COMMANDS } from '../shared/featureIds';
import type { Services } from '../services/serviceContainer';
import { completionMoney, hourlyText, stopText } from './completionsMoney';
import type { CompletionTally } from './completionTally';
import { troubleActionLabel, troubleText } from './troubleText';

/** The item's text (a codicon, the snooze's minutes left), its warning colour, its tooltip (markdown) and its accessible label. */
export interface CompletionsStatusLook {
  text: string;
  warn: boolean;
  tooltip: string;
  label: string;
}

/** The look of the item in a trusted workspace while completions are on (the item handles off and Restricted Mode). */
export function completionsStatusLook(services: Services, state: CompletionsState, tally: CompletionTally, now = Date.now()): CompletionsStatusLook {
  const c = services.settings().completions;
  const money = completionMoney(services, 0, now);
  // a budget raised or a new day: the sign goes without waiting for the next keystroke
  if (state.stop && !money.stop) state.setStop(undefined);
  const stop = state.stop ?? money.stop;
  const trouble = state.trouble;
  const snooze = state.snooze();
  let icon = '$(edit-sparkle)';
  let sentence = vscode.l10n.t('On: ghost text appears when you pause typing. Tab accepts it, Escape dismisses it.');
  let warn = false;
  if (snooze !== undefined) {
    icon = '$(snooze)';
    sentence =
      snooze === 'untilOn'
        ? vscode.l10n.t('Snoozed until you turn them on again.')
        : vscode.l10n.t('Snoozed until {0}.', new Date(snooze).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }));
  } else if (stop) {
    icon = '$(circle-slash)';
    sentence = stopText(stop);
    warn = true;
  } else if (trouble) {
    icon = '$(warning)';
    sentence = vscode.l10n.t('Paused after an error: {0}', troubleText(trouble));
    warn = true;
  }
  const day = tally.day();
  const rate = acceptanceRate(day);
  const spent =
    money.unpricedToday > 0
      ? vscode.l10n.t('**Today:** {0} for {1} requests ({2} without a price)', formatUsd(money.spentToday), money.requestsToday, money.unpricedToday)
      : vscode.l10n.t('**Today:** {0} for {1} requests', formatUsd(money.spentToday), money.requestsToday);
  const lines = [
    vscode.l10n.t('**Modelgate completions as you type**'),
    sentence,
    vscode.l10n.t('**Model:** {0} · {1} — {2}', c.model, CHANNEL_INFO[c.channel].label, hourlyText(services, c.model, c.channel)),
    spent + (c.dailyUsd !== undefined ? ` ${vscode.l10n.t('(daily cap {0})', formatUsd(c.dailyUsd))}` : ''),
    rate === undefined
      ? vscode.l10n.t('**Accepted:** none shown yet today')
      : vscode.l10n.t('**Accepted:** {0} of {1} shown today ({2} %)', day.accepted, day.shown, Math.round(rate * 100)),
    trouble && !stop && snooze === undefined
      ? vscode.l10n.t('Click for {0}, or to snooze or change them.', `**${troubleActionLabel(trouble)}**`)
      : vscode.l10n.t('Click to snooze, resume or change them.'),
  ];
  return {
    text: typeof snooze === 'number' ? `${icon} ${minutesLeft(snooze, now)}` : icon,
    warn,
    tooltip: lines.join('\n\n'),
    label: vscode.l10n.t('Modelgate completions as you type: {0}', sentence),
  };
}

function minutesLeft(until: number, now: number): string {
  const min = Math.max(1, Math.ceil((until - now) / 60_000));
  return min >= 60 ? vscode.l10n.t('{0} h', Math.round(min / 60)) : vscode.l10n.t('{0} min', min);
}

export class CompletionsStatusItem implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];
  private visible = false;

  constructor(
    private readonly services: Services,
    private readonly state: CompletionsState,
    private readonly tally: CompletionTally,
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
    this.update();
  }

  /** Text, tooltip and visibility, exposed for tests. */
  get view(): { visible: boolean; text: string; tooltip: string } {
    const t = this.item.tooltip;
    return { visible: this.visible, text: this.item.text, tooltip: typeof t === 'string' ? t : (t?.value ?? '') };
  }

  update(): void {
    if (!this.services.settings().completions.enabled) {
      this.visible = false;
      this.item.hide();
      return;
    }
    let look: CompletionsStatusLook;
    if (vscode.workspace.isTrusted) look = completionsStatusLook(this.services, this.state, this.tally);
    else {
      const sentence = vscode.l10n.t('Off in Restricted Mode: nothing is sent from an untrusted workspace.');
      look = {
        text: '$(shield)',
        warn: false,
        tooltip: `${vscode.l10n.t('**Modelgate completions as you type**')}\n\n${sentence}`,
        label: vscode.l10n.t('Modelgate completions as you type: {0}', sentence),
      };
    }
    this.item.text = look.text;
    this.item.backgroundColor = look.warn ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.tooltip = new vscode.MarkdownString(look.tooltip, true);
    this.item.accessibilityInformation = { label: look.label };
    this.visible = true;
    this.item.show();
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.item.dispose();
  }
}
