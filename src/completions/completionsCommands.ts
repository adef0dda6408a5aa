// The commands of completions as you type, in the completions bundle (src/featureLoading/lazyFeatures.ts
// proxies them until their first use): the status-bar item's menu (snooze, resume, the one action
// an error needs, the model, off), turning completions on after saying what an hour of typing
// costs, off, snoozing (5 minutes, an hour, until turned on) and resuming, and choosing their model
// and channel with the cost of each.
import * as vscode from 'vscode';
import { CHANNEL_CHOICES, CHANNEL_INFO, type ChannelChoice } from '../core/catalogue/modelCatalogue';
import { SNOOZE_CHOICES } from '../core/completions/completionDay';
import { TROUBLE_ACTION, type TroubleState } from '../core/completions/completionTrouble';
import { BUDGET_SETTING } from '../core/spend/budget';
import { topUp } from '../shared/balanceTopUp';
import type { CompletionsState, TurnOnAnswer, TurnOnAsk } from '../services/completionsState';
import { COMPLETIONS_COMMANDS, commandTable } from '../shared/featureIds';
import { updateCompletionSetting } from '../services/settings';
import type { Services } from '../services/serviceContainer';
import { hourlyText, stopText } from './completionsMoney';
import { troubleActionLabel, troubleText } from './troubleText';

/** The one action of a trouble: its label and what it runs. */
function troubleAction(services: Services, t: TroubleState): { label: string; run: () => unknown } {
  const label = troubleActionLabel(t);
  switch (TROUBLE_ACTION[t.kind]) {
    case 'setKey':
      return { label, run: () => vscode.commands.executeCommand('modelgate.setApiKey') };
    case 'topUp':
      return { label, run: () => topUp() };
    case 'changeChannel':
      return { label, run: () => pickCompletionModel(services) };
    case 'showLog':
      return { label, run: () => services.log.show() };
    default:
      return { label, run: () => pickCompletionModel(services) };
  }
}

/** The status-bar item's menu: the trouble's action first when there is one, then snooze or resume, the model, off. */
export async function completionsMenu(services: Services, state: CompletionsState): Promise<void> {
  type Row = vscode.QuickPickItem & { run?: () => unknown };
  const rows: Row[] = [];
  const trouble = state.trouble;
  const stop = state.stop;
  if (trouble) {
    const a = troubleAction(services, trouble);
    rows.push({ label: `$(warning) ${a.label}`, detail: troubleText(trouble), run: a.run });
  } else if (stop?.kind === 'budget') {
    rows.push({
      label: vscode.l10n.t('$(settings-gear) Raise the Budget…'),
      detail: stopText(stop),
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', BUDGET_SETTING[stop.status.kind]),
    });
  } else if (stop) {
    rows.push({
      label: vscode.l10n.t('$(settings-gear) Open the Setting…'),
      detail: stopText(stop),
      run: () =>
        vscode.commands.executeCommand('workbench.action.openSettings', stop.kind === 'dailyCap' ? 'modelgate.completions.dailyUsd' : 'modelgate.models'),
    });
  }
  if (state.snoozed()) rows.push({ label: vscode.l10n.t('$(play) Resume Completions'), run: () => state.setSnooze(undefined) });
  else
    rows.push(
      { label: vscode.l10n.t('$(snooze) Snooze for 5 Minutes'), run: () => state.setSnooze({ forMs: SNOOZE_CHOICES.fiveMinutes }) },
      { label: vscode.l10n.t('$(snooze) Snooze for an Hour'), run: () => state.setSnooze({ forMs: SNOOZE_CHOICES.oneHour }) },
      { label: vscode.l10n.t('$(snooze) Snooze Until I Turn Them On'), run: () => state.setSnooze('untilOn') },
    );
  const c = services.settings().completions;
  rows.push(
    {
      label: vscode.l10n.t('$(edit-sparkle) Completion Model and Channel…'),
      detail: `${c.model} · ${CHANNEL_INFO[c.channel].label} — ${hourlyText(services, c.model, c.channel)}`,
      run: () => pickCompletionModel(services),
    },
    { label: vscode.l10n.t('$(circle-slash) Turn Off Completions'), run: () => updateCompletionSetting('enabled', false) },
    { label: vscode.l10n.t('$(graph) Show Spending'), run: () => vscode.commands.executeCommand('modelgate.showSpending') },
  );
  const pick = await vscode.window.showQuickPick(rows, {
    title: vscode.l10n.t('Modelgate: Completions as You Type'),
    placeHolder: vscode.l10n.t('Snooze, resume or change completions'),
  });
  await pick?.run?.();
}

/**
 * The question before turning completions on. The first button, the one Enter takes, only opens
 * the model choice (nothing is spent); "Turn On" is the second; Cancel leaves them off.
 */
export const askTurnOn: TurnOnAsk = async (model, channel, cost) => {
  const choose = vscode.l10n.t('Choose Model or Channel…');
  const on = vscode.l10n.t('Turn On');
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t('Turn on completions as you type with {0} on {1}: {2}?', model, CHANNEL_INFO[channel].label, cost),
    {
      modal: true,
      detail: vscode.l10n.t(
        'At each pause in typing, the text around the cursor (and the start of related open files) goes to your gateway, and each request is billed. Nothing is sent from secret files (.env, keys), excluded files or untrusted workspaces. Budgets apply; "modelgate.completions.dailyUsd" caps completions alone.',
      ),
    },
    choose,
    on,
  );
  return answer === on ? 'on' : answer === choose ? 'choose' : undefined;
};

/** Turns completions on after saying what they cost; true when they are on. */
export async function turnOnCompletions(services: Services, state: CompletionsState): Promise<boolean> {
  const c = services.settings().completions;
  const ask = state.turnOnAsk ?? askTurnOn;
  const answer: TurnOnAnswer = await ask(c.model, c.channel, hourlyText(services, c.model, c.channel));
  if (answer === 'choose') {
    if (!(await pickCompletionModel(services))) return false;
    return turnOnCompletions(services, state);
  }
  if (answer !== 'on') return false;
  await state.setSnooze(undefined);
  await updateCompletionSetting('enabled', true);
  return true;
}

/** The completion model, then its channel, each row with what an hour of typing costs. */
export async function pickCompletionModel(services: Services): Promise<boolean> {
  void services.refreshCatalogue();
  const c = services.settings().completions;
  type Row = vscode.QuickPickItem & { id: string };
  const models: Row[] = services
    .catalogue()
    .chatModels()
    .map((m) => ({
      id: m.id,
      label: `${m.id === c.model ? '$(check) ' : '$(blank) '}${m.id}`,
      description: m.label !== m.id ? m.label : undefined,
      detail: hourlyText(services, m.id, c.channel),
    }));
  const model = await vscode.window.showQuickPick(models, {
    title: vscode.l10n.t('Modelgate: Completion Model'),
    placeHolder: vscode.l10n.t('The model that completes as you type (the estimate is for {0})', CHANNEL_INFO[c.channel].label),
    matchOnDetail: true,
  });
  if (!model) return false;
  const channels: Row[] = CHANNEL_CHOICES.map((ch: ChannelChoice) => ({
    id: ch,
    label: `${ch === c.channel ? '$(check) ' : '$(blank) '}${CHANNEL_INFO[ch].label}`,
    description: CHANNEL_INFO[ch].detail,
    detail: hourlyText(services, model.id, ch),
  }));
  const channel = await vscode.window.showQuickPick(channels, {
    title: vscode.l10n.t('Modelgate: Completion Channel for {0}', model.id),
    placeHolder: vscode.l10n.t('Faster channels show ghost text sooner; economical ones cost less'),
    matchOnDetail: true,
  });
  if (!channel) return false;
  await updateCompletionSetting('model', model.id);
  await updateCompletionSetting('channel', channel.id);
  return true;
}

/** Snoozes for 'fiveMinutes', 'oneHour', 'untilOn' or a number of minutes; asks which without an argument. */
async function snooze(state: CompletionsState, arg: unknown): Promise<void> {
  if (arg === 'untilOn') return state.setSnooze('untilOn');
  if (arg === 'fiveMinutes' || arg === 'oneHour') return state.setSnooze({ forMs: SNOOZE_CHOICES[arg] });
  if (typeof arg === 'number' && Number.isFinite(arg) && arg > 0) return state.setSnooze({ forMs: arg * 60_000 });
  const rows = [
    { label: vscode.l10n.t('For 5 minutes'), arg: 'fiveMinutes' },
    { label: vscode.l10n.t('For an hour'), arg: 'oneHour' },
    { label: vscode.l10n.t('Until I turn them on'), arg: 'untilOn' },
  ];
  const pick = await vscode.window.showQuickPick(rows, { title: vscode.l10n.t('Modelgate: Snooze Completions') });
  if (pick) await snooze(state, pick.arg);
}

export function registerCompletionCommands(services: Services, state: CompletionsState): vscode.Disposable[] {
  return commandTable(COMPLETIONS_COMMANDS, {
    menu: () => completionsMenu(services, state),
    turnOn: () => turnOnCompletions(services, state),
    turnOff: () => updateCompletionSetting('enabled', false),
    snooze: (arg?: unknown) => snooze(state, arg),
    resume: () => state.setSnooze(undefined),
    pickModel: () => pickCompletionModel(services),
  }).map(([id, run]) => vscode.commands.registerCommand(id, run as (...args: unknown[]) => unknown));
}
