// "Modelgate: Use in VS Code Chat": the user settings that let VS Code's own Chat view answer with
// a Modelgate model when no GitHub account is signed in (docs/vscode-chat.md). It says what it
// will change first (a modal whose default button, the one Enter takes, is Don't Change; Escape
// changes nothing too), writes the user's (global) settings only (the user's settings.json, opened in an
// editor: chat.allowAnonymousAccess cannot be written through the configuration API), never a
// workspace's, writes nothing that is already set, then opens the Chat view itself (a button in a
// notification is gone once the notification hides) and offers Undo. The one way into VS Code's
// Chat: the model picker's "Use in VS Code's Chat…" row and the walkthrough run this command.
import * as vscode from 'vscode';
import { LM_VENDOR } from '../shared/featureIds';
import type { Services } from '../services/serviceContainer';
import { openUserSettingsJson, userSettingsValues, writeUserSettingsJson } from './userSettingsJson';
import { planDetail, planVsCodeChat, type SettingState, type VsCodeChatPlan } from './vsCodeChatPlan';

/** What the command asks and tells; tests replace them (a modal cannot be answered from the extension host). */
export interface VsCodeChatPrompts {
  /** the modal: true = change the settings */
  confirm(message: string, detail: string): Thenable<boolean>;
  /** the notification after a change (or when nothing was left to change): the action pressed, if any */
  notify(message: string, ...actions: string[]): Thenable<string | undefined>;
  /** told once VS Code's Chat view was opened, with the model it was asked to pick (tests) */
  chatOpened?(modelId: string): void;
}

/**
 * The modal's buttons, in order. The safe choice is the one Enter takes: VS Code makes a modal's
 * first button the primary one and never its close button, so "Don't Change" comes first as a
 * plain button, and VS Code adds its own Cancel, which Escape and closing the dialog take (it
 * changes nothing either).
 */
export function confirmButtons(): { keep: vscode.MessageItem; change: vscode.MessageItem; order: vscode.MessageItem[] } {
  const keep: vscode.MessageItem = { title: vscode.l10n.t("Don't Change") };
  const change: vscode.MessageItem = { title: vscode.l10n.t('Change Settings') };
  return { keep, change, order: [keep, change] };
}

export const defaultPrompts: VsCodeChatPrompts = {
  async confirm(message, detail) {
    const { change, order } = confirmButtons();
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, ...order)) === change;
  },
  notify: (message, ...actions) => vscode.window.showInformationMessage(message, ...actions),
};

/** The outcome, for tests and the log. */
export type VsCodeChatOutcome = 'changed' | 'cancelled' | 'unchanged';

/** The plan's view of one setting: the user's value from settings.json itself, the rest from the configuration API. */
function stateReader(user: Record<string, unknown>): (key: string) => SettingState {
  const config = vscode.workspace.getConfiguration();
  return (key) => ({
    globalValue: user[key],
    effective: config.get(key) ?? user[key],
    // a key VS Code registers has a default (inspect of an unknown key has none)
    known: config.inspect(key)?.defaultValue !== undefined,
  });
}

/** Opens VS Code's Chat view with the Modelgate model of `modelgate.chat.model` picked (1.139: `modelSelector`). */
export async function openVsCodeChat(services: Services, settingsFile?: vscode.Uri, prompts?: VsCodeChatPrompts): Promise<void> {
  // 1.139 shows the user's settings.json in a modal editor over the workbench: the saved file is
  // closed first, so the Chat view is not behind it.
  const active = vscode.window.activeTextEditor?.document;
  if (settingsFile && active && !active.isDirty && active.uri.toString() === settingsFile.toString())
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const modelSelector = { vendor: LM_VENDOR, id: services.settings().chatModel };
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', { modelSelector });
  } catch (err) {
    services.log.warn(`Use in VS Code Chat: opening the Chat view with ${modelSelector.id} failed, opened without a model: ${String(err)}`);
    await vscode.commands.executeCommand('workbench.action.chat.open');
  }
  services.log.info(`Use in VS Code Chat: opened VS Code's Chat view with ${modelSelector.id}.`);
  prompts?.chatOpened?.(modelSelector.id);
}

export async function useInVsCodeChat(services: Services, prompts: VsCodeChatPrompts = defaultPrompts): Promise<VsCodeChatOutcome> {
  // The user's settings.json opens (and stays open): the values are read from it, and the user sees what changes.
  const file = await openUserSettingsJson();
  const plan: VsCodeChatPlan = planVsCodeChat(stateReader(await userSettingsValues(file)));
  if (plan.changes.length === 0) {
    await openVsCodeChat(services, file.uri, prompts);
    return 'unchanged';
  }
  if (file.dirty) {
    void prompts.notify(vscode.l10n.t('Modelgate: your user settings (JSON) have unsaved changes. Save or revert them, then run "Use in VS Code Chat" again.'));
    return 'cancelled';
  }
  const yes = await prompts.confirm(vscode.l10n.t("Use Modelgate's models in VS Code's own Chat view? These user settings change:"), planDetail(plan));
  if (!yes) return 'cancelled';
  await writeUserSettingsJson(
    file,
    plan.changes.map((c) => [c.key, c.value]),
  );
  services.log.info(`Use in VS Code Chat: set ${plan.changes.map((c) => `${c.key}=${JSON.stringify(c.value)}`).join(', ')} in the user settings.`);
  await openVsCodeChat(services, file.uri, prompts);
  const undo = vscode.l10n.t('Undo');
  void Promise.resolve(
    prompts.notify(vscode.l10n.t("Modelgate: VS Code's Chat view now answers with Modelgate's models (your user settings changed)."), undo),
  ).then(async (action) => {
    if (action === undo) {
      await writeUserSettingsJson(
        await openUserSettingsJson(),
        plan.changes.map((c) => [c.key, c.previous]),
      );
      services.log.info(`Use in VS Code Chat: undone (${plan.changes.map((c) => c.key).join(', ')} put back).`);
    }
  });
  return 'changed';
}
