// First run: context keys that complete the walkthrough's steps, the walkthrough opened once on
// the first activation without a base URL or key, and "Modelgate: Set Gateway Address".
// Registration only: nothing here does work at activation beyond two context keys and one
// globalState read.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { promptBaseUrl } from './baseUrlPrompt';

export const WALKTHROUGH_ID = 'modelgate.modelgate#gettingStarted';
const SHOWN_FLAG = 'modelgate.walkthroughShown';

/** Context keys the walkthrough's completionEvents use (`onContext:`). */
export const CONTEXT = {
  hasBaseUrl: 'modelgate.hasBaseUrl',
  hasKey: 'modelgate.hasKey',
  firstAnswer: 'modelgate.firstAnswer',
  firstImage: 'modelgate.firstImage',
} as const;

const setContext = (key: string, value: boolean) => vscode.commands.executeCommand('setContext', key, value);

export function registerOnboarding(services: Services): vscode.Disposable[] {
  const { context } = services;
  const refresh = async () => {
    const hasBaseUrl = !!services.settings().baseUrl;
    const hasKey = hasBaseUrl && !!(await services.keys.get());
    await setContext(CONTEXT.hasBaseUrl, hasBaseUrl);
    await setContext(CONTEXT.hasKey, hasKey);
    return { hasBaseUrl, hasKey };
  };
  const first = refresh().then(async ({ hasBaseUrl, hasKey }) => {
    if ((hasBaseUrl && hasKey) || context.globalState.get<boolean>(SHOWN_FLAG)) return;
    await context.globalState.update(SHOWN_FLAG, true);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  });
  first.catch((err: unknown) => services.log.warn(`walkthrough: ${err instanceof Error ? err.message : String(err)}`));
  return [
    services.onDidChangeSettings(() => void refresh()),
    services.keys.onDidChange(() => void refresh()),
    services.usage.onDidRecord((entry) => void setContext(entry.source === 'image' ? CONTEXT.firstImage : CONTEXT.firstAnswer, true)),
    vscode.commands.registerCommand('modelgate.setBaseUrl', async () => {
      try {
        const url = await promptBaseUrl();
        if (url) void vscode.window.showInformationMessage(vscode.l10n.t('Modelgate: gateway address set to {0}.', url));
        return url;
      } catch (err) {
        void vscode.window.showErrorMessage(`Modelgate: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('modelgate.showWalkthrough', () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false)),
  ];
}
