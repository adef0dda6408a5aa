// The vscode.lm provider feature: offers Modelgate's chat models to VS Code's own chat and to
// other extensions. src/featureLoading/lazyFeatures.ts registers a cheap proxy at activation (so VS Code lists the
// vendor from the start) and calls createLanguageModelProvider on the first request.
import type * as vscode from 'vscode';
import type { Services } from '../services/serviceContainer';
import { ModelgateChatProvider } from './provider';

/** The vendor of package.json's `contributes.languageModelChatProviders`. */
export { LM_VENDOR } from '../shared/featureIds';

export function createLanguageModelProvider(services: Services): vscode.LanguageModelChatProvider & vscode.Disposable {
  return new ModelgateChatProvider(services);
}
