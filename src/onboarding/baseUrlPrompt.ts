// "Modelgate: Set Gateway Address": asks for the base URL, validates it as the settings reader
// does (https unless loopback, no credentials, no query), and stores it in USER settings only:
// the key is sent to this address, so a workspace never gets to choose it.
import * as vscode from 'vscode';
import { checkBaseUrl } from '../core/client/baseUrl';
import { SECTION } from '../services/settings';

/** Asks for the gateway base URL and stores it; resolves with the stored URL, or undefined if dismissed. */
export async function promptBaseUrl(reason?: string): Promise<string | undefined> {
  const current = vscode.workspace.getConfiguration(SECTION).inspect<string>('baseUrl')?.globalValue;
  const raw = await vscode.window.showInputBox({
    title: vscode.l10n.t('Modelgate Gateway Address'),
    prompt: (reason ? reason + ' ' : '') + vscode.l10n.t('Base URL of the gateway, ending in its version segment. Stored in your user settings.'),
    placeHolder: 'https://gateway.example.com/v1',
    value: current || undefined,
    ignoreFocusOut: true,
    validateInput: (v) => {
      if (v.trim() === '') return undefined;
      const check = checkBaseUrl(v);
      return check.ok ? undefined : check.message;
    },
  });
  if (raw === undefined || raw.trim() === '') return undefined;
  const check = checkBaseUrl(raw);
  if (!check.ok) throw new Error(check.message);
  await storeBaseUrl(check.url);
  return check.url;
}

export async function storeBaseUrl(url: string): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('baseUrl', url, vscode.ConfigurationTarget.Global);
}
