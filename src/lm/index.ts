// The vscode.lm provider feature: offers Modelgate's chat models to VS Code's own chat and to
// other extensions. activate() calls registerLanguageModelProvider once and keeps the disposable.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { ModelgateChatProvider } from './provider';

/** The vendor of package.json's `contributes.languageModelChatProviders`. */
export const LM_VENDOR = 'modelgate';

export function registerLanguageModelProvider(services: Services): vscode.Disposable {
  // Feature-detected: hosts without the API (older VS Code, some forks) keep everything else.
  const lm = (vscode as { lm?: Partial<typeof vscode.lm> }).lm;
  if (typeof lm?.registerLanguageModelChatProvider !== 'function') {
    services.log.info('Language model provider: this host has no vscode.lm.registerLanguageModelChatProvider; Modelgate models are not offered to other extensions.');
    return new vscode.Disposable(() => {});
  }
  const provider = new ModelgateChatProvider(services);
  try {
    return vscode.Disposable.from(lm.registerLanguageModelChatProvider(LM_VENDOR, provider), provider);
  } catch (err) {
    // Never fail activation over this feature (e.g. a host that does not know the vendor).
    provider.dispose();
    services.log.warn(`Language model provider not registered: ${err instanceof Error ? err.message : String(err)}`);
    return new vscode.Disposable(() => {});
  }
}
