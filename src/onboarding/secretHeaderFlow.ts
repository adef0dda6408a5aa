// "Modelgate: Set Secret Header…": a request header whose value is a secret
// (a corporate access token, a Cloudflare Access client secret) is kept in SecretStorage per
// gateway origin, like the key, and never in settings. Lists show its name only; the client
// redacts its value everywhere it redacts the key. An empty value removes the header.
import * as vscode from 'vscode';
import { headerNameProblem, headerValueProblem } from '../core/client/requestHeaders';
import type { Services } from '../services/serviceContainer';

/** With `{ name, value }` (tests, other extensions) it stores without asking; returns the header names stored for this gateway. */
export async function setSecretHeaderCommand(services: Services, arg?: unknown): Promise<string[] | undefined> {
  const origin = services.settings().baseUrlOrigin;
  if (!origin) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Configure a valid "modelgate.baseUrl" in your user settings first.'));
    return undefined;
  }
  let name: string | undefined;
  let value: string | undefined;
  if (arg && typeof arg === 'object' && typeof (arg as { name?: unknown }).name === 'string') {
    name = (arg as { name: string }).name.trim();
    const v = (arg as { value?: unknown }).value;
    value = typeof v === 'string' ? v.trim() : '';
    const problem = headerNameProblem(name) ?? headerValueProblem(name, value);
    if (problem) throw new Error(problem);
  } else {
    const existing = Object.keys(await services.keys.secretHeaders(origin));
    name = (
      await vscode.window.showInputBox({
        title: vscode.l10n.t('Modelgate: Secret Header for {0}', origin),
        prompt: existing.length
          ? vscode.l10n.t('Header name. Stored for this gateway: {0}.', existing.join(', '))
          : vscode.l10n.t('Header name, e.g. CF-Access-Client-Secret.'),
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? headerNameProblem(v.trim()) : undefined),
      })
    )?.trim();
    if (!name) return undefined;
    value = (
      await vscode.window.showInputBox({
        title: vscode.l10n.t('Modelgate: Secret Header {0}', name),
        prompt: vscode.l10n.t("Value of {0}. It is kept in VS Code's secret storage and sent only to {1}. Leave empty to remove the header.", name, origin),
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => headerValueProblem(name!, v.trim()),
      })
    )?.trim();
    if (value === undefined) return undefined;
  }
  await services.keys.setSecretHeader(name, value);
  const names = Object.keys(await services.keys.secretHeaders(origin));
  void vscode.window.showInformationMessage(
    value
      ? vscode.l10n.t('Modelgate: secret header {0} stored for {1}.', name, origin)
      : vscode.l10n.t('Modelgate: secret header {0} removed for {1}.', name, origin),
  );
  return names;
}
