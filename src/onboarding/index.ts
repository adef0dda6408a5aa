// First run: context keys that complete the walkthrough's steps, the walkthrough opened once on
// the first activation without a base URL or key, and "Modelgate: Set Gateway Address".
// Registration only: nothing here does work at activation beyond two context keys and one
// globalState read.
import * as vscode from 'vscode';
import type { Services } from '../services/serviceContainer';
import { promptBaseUrl } from './baseUrlPrompt';
import { setSecretHeaderCommand } from './secretHeaderFlow';
import { errorText } from '../core/errorText';

export const WALKTHROUGH_ID = 'modelgate.modelgate#gettingStarted';
const SHOWN_FLAG = 'modelgate.walkthroughShown';

/** Context keys the walkthrough's completionEvents use (`onContext:`). */
export const CONTEXT = {
  hasBaseUrl: 'modelgate.hasBaseUrl',
  hasKey: 'modelgate.hasKey',
  firstAnswer: 'modelgate.firstAnswer',
  firstImage: 'modelgate.firstImage',
  completionsOn: 'modelgate.completionsOn',
} as const;

const setContext = (key: string, value: boolean) => vscode.commands.executeCommand('setContext', key, value);

/**
 * Ticks a walkthrough step directly, besides its `onContext:` event. Why: VS Code (1.139) registers
 * an extension's walkthrough asynchronously (it waits up to 5 s for an experiment lookup), and a
 * completion event seen before that is recorded as "seen this session" with no listener, so the
 * step never ticks (a context key already true at registration is not counted either). The
 * `welcome.markStepComplete` command stores the step as done even when the walkthrough is not
 * registered yet (it then throws "step does not exist"; the stored state is kept and shown once
 * the walkthrough registers), so it is safe to call at any time.
 */
const markStep = (step: string) =>
  Promise.resolve(vscode.commands.executeCommand('welcome.markStepComplete', `${WALKTHROUGH_ID}#${step}`)).then(
    () => 'marked',
    (err: unknown) => `not marked (${errorText(err)})`,
  );

export function registerOnboarding(services: Services): vscode.Disposable[] {
  const { context } = services;
  const setDone = async (key: string, step: string, value: boolean) => {
    await setContext(key, value);
    if (value) services.log.info(`Walkthrough step ${step}: ${await markStep(step)}.`);
  };
  const refresh = async () => {
    const hasBaseUrl = !!services.settings().baseUrl;
    const hasKey = hasBaseUrl && !!(await services.keys.get());
    await setDone(CONTEXT.hasBaseUrl, 'baseUrl', hasBaseUrl);
    await setDone(CONTEXT.hasKey, 'apiKey', hasKey);
    await setDone(CONTEXT.completionsOn, 'completions', services.settings().completions.enabled);
    return { hasBaseUrl, hasKey };
  };
  const first = refresh().then(async ({ hasBaseUrl, hasKey }) => {
    if ((hasBaseUrl && hasKey) || context.globalState.get<boolean>(SHOWN_FLAG)) return;
    await context.globalState.update(SHOWN_FLAG, true);
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  });
  first.catch((err: unknown) => services.log.warn(`walkthrough: ${errorText(err)}`));
  return [
    services.onDidChangeSettings(() => void refresh()),
    services.keys.onDidChange(() => void refresh()),
    services.usage.onDidRecord((entry) => {
      // a completion as you type is not a first question
      if (entry.via === 'completions') return;
      void (entry.source === 'image' ? setDone(CONTEXT.firstImage, 'firstImage', true) : setDone(CONTEXT.firstAnswer, 'firstQuestion', true));
    }),
    vscode.commands.registerCommand('modelgate.setBaseUrl', async () => {
      try {
        const url = await promptBaseUrl();
        if (url) void vscode.window.showInformationMessage(vscode.l10n.t('Modelgate: gateway address set to {0}.', url));
        return url;
      } catch (err) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Modelgate: {0}', errorText(err)));
        return undefined;
      }
    }),
    vscode.commands.registerCommand('modelgate.setSecretHeader', (arg?: unknown) =>
      setSecretHeaderCommand(services, arg).catch((err: unknown) => {
        void vscode.window.showErrorMessage(vscode.l10n.t('Modelgate: {0}', errorText(err)));
        throw err;
      }),
    ),
    vscode.commands.registerCommand('modelgate.showWalkthrough', () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
    ),
  ];
}
