// "Top up": opens the gateway console (modelgate.consoleUrl, user settings only) in the browser.
// When the setting is unset or invalid, says so and offers to open the setting. A channel switch
// is never offered for a balance error: every channel draws on the same prepaid balance.
import * as vscode from 'vscode';
import { checkConsoleUrl, consoleUrlHint, type ConsoleUrlCheck } from '../core/spend/consoleUrl';

export interface TopUpUi {
  openExternal(uri: vscode.Uri): Thenable<boolean>;
  ask(message: string, ...buttons: string[]): Thenable<string | undefined>;
  openSetting(): Thenable<unknown>;
}

const realUi: TopUpUi = {
  openExternal: (uri) => vscode.env.openExternal(uri),
  ask: (message, ...buttons) => vscode.window.showInformationMessage(message, ...buttons),
  openSetting: () => vscode.commands.executeCommand('workbench.action.openSettings', 'modelgate.consoleUrl'),
};

/** The console URL from user settings only (a workspace cannot point the payment link elsewhere). */
export function consoleUrlSetting(): ConsoleUrlCheck {
  const i = vscode.workspace.getConfiguration('modelgate').inspect<unknown>('consoleUrl');
  return checkConsoleUrl(i?.globalValue);
}

export type TopUpOutcome = 'opened' | 'explained';

export async function topUp(ui: TopUpUi = realUi): Promise<TopUpOutcome> {
  const check = consoleUrlSetting();
  if (check.kind === 'ok') {
    await ui.openExternal(vscode.Uri.parse(check.url, true));
    return 'opened';
  }
  const message =
    check.kind === 'unset'
      ? vscode.l10n.t('Modelgate does not know where your gateway console is. {0} Then "Top up" opens it.', consoleUrlHint())
      : vscode.l10n.t('Cannot open the gateway console: {0}', check.message);
  const OPEN = vscode.l10n.t('Open Setting');
  if ((await ui.ask(message, OPEN)) === OPEN) await ui.openSetting();
  return 'explained';
}
