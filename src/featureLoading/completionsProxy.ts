// Completions as you type, registered cheaply and built on first use: while
// `modelgate.completions.enabled` is on, an inline completion provider is registered with VS Code
// (and unregistered when it is turned off, so VS Code stops asking). It answers nothing, without
// loading anything, in Restricted Mode and while completions are snoozed; otherwise the first ask
// builds the completions feature (src/completions, dist/completions.js in the Node build) and
// hands the ask over, as every later one.
import * as vscode from 'vscode';
import type { CompletionsFeature } from '../completions';
import type { CompletionsState } from '../services/completionsState';
import type { Services } from '../services/serviceContainer';

/** Where completions may be asked for: files on disk or a remote, new files, notebook cells. Output, SCM input, settings and diff views are not. */
export const COMPLETION_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file' },
  { scheme: 'untitled' },
  { scheme: 'vscode-remote' },
  { scheme: 'vscode-notebook-cell' },
];

export interface CompletionsProxy extends vscode.Disposable {
  /** the feature once built, else undefined */
  feature(): CompletionsFeature | undefined;
}

export function registerCompletionsProxy(services: Services, state: CompletionsState, build: (trigger: string) => CompletionsFeature): CompletionsProxy {
  let feature: CompletionsFeature | undefined;
  let registration: vscode.Disposable | undefined;
  const provider: vscode.InlineCompletionItemProvider = {
    provideInlineCompletionItems(doc, position, context, token) {
      if (!services.settings().completions.enabled || !vscode.workspace.isTrusted || state.snoozed()) return undefined;
      feature ??= build('inlineCompletion');
      return feature.provideInlineCompletionItems(doc, position, context, token);
    },
  };
  const sync = () => {
    const on = services.settings().completions.enabled;
    if (on && !registration) registration = vscode.languages.registerInlineCompletionItemProvider(COMPLETION_SELECTOR, provider);
    if (!on && registration) {
      registration.dispose();
      registration = undefined;
    }
  };
  sync();
  const watch = services.onDidChangeSettings(sync);
  return {
    feature: () => feature,
    dispose: () => {
      watch.dispose();
      registration?.dispose();
      feature?.dispose();
    },
  };
}
