// The vscode.lm provider feature: offers Modelgate's chat models to VS Code's own chat and to
// other extensions. src/featureLoading/lazyFeatures.ts registers a cheap proxy at activation (so VS Code lists the
// vendor from the start) and calls createLanguageModelProvider on the first request.
import * as vscode from 'vscode';
import type { Services } from '../services/serviceContainer';
import { commandTable, LM_COMMANDS } from '../shared/featureIds';
import { ModelgateChatProvider } from './provider';
import { defaultPrompts, useInVsCodeChat, type VsCodeChatPrompts } from './useInVsCodeChat';

export type { VsCodeChatOutcome, VsCodeChatPrompts } from './useInVsCodeChat';

/** The vendor of package.json's `contributes.languageModelChatProviders`. */
export { LM_VENDOR } from '../shared/featureIds';

export function createLanguageModelProvider(services: Services): vscode.LanguageModelChatProvider & vscode.Disposable {
  return new ModelgateChatProvider(services);
}

/**
 * The lm feature's commands ("Use in VS Code Chat": it edits the user's settings.json with
 * jsonc-parser, which activation never needs). `prompts` is what tests answer the modal with; the
 * real dialogs when it gives none.
 */
export function registerLmCommands(services: Services, prompts: () => VsCodeChatPrompts | undefined): vscode.Disposable[] {
  return commandTable(LM_COMMANDS, {
    useInVsCodeChat: () => useInVsCodeChat(services, prompts() ?? defaultPrompts),
  }).map(([id, run]) => vscode.commands.registerCommand(id, run));
}
