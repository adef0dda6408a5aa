// Turns any failure into a message a person can act on, with the actions that fix it. Chat
// shows these in the transcript; commands show them as notifications with buttons.
import * as vscode from 'vscode';
import { GatewayError } from '../core';
import { errorActions, type ErrorAction, type ErrorView } from '../core/errorView';
import type { Services } from '../services/serviceContainer';
import { topUp } from './balanceTopUp';
import { errorText } from '../core/errorText';

export function describeError(err: unknown): ErrorView {
  if (err instanceof GatewayError) {
    const actions = errorActions(err.kind, err.code);
    return { message: err.message, actions };
  }
  const message = errorText(err);
  return { message: message || vscode.l10n.t('Something went wrong.'), actions: ['retry', 'showLog'] };
}

// Functions, so each label is translated when shown (vscode.l10n.t), not when this module loads.
const ACTION_LABELS: Record<ErrorAction, () => string> = {
  setKey: () => vscode.l10n.t('Set API Key'),
  topUp: () => vscode.l10n.t('Top Up Balance'),
  switchChannel: () => vscode.l10n.t('Switch Channel'),
  pickModel: () => vscode.l10n.t('Pick Model'),
  retry: () => vscode.l10n.t('Retry'),
  openSettings: () => vscode.l10n.t('Open Settings'),
  showLog: () => vscode.l10n.t('Show Log'),
  newChat: () => vscode.l10n.t('New Chat'),
  compactRetry: () => vscode.l10n.t('Compact and Retry'),
  undoCompaction: () => vscode.l10n.t('Undo Compaction'),
};

export function actionLabel(action: ErrorAction): string {
  return ACTION_LABELS[action]();
}

/** Runs an action; 'retry' and the chat's compaction actions are the caller's business and are ignored here. */
export async function runErrorAction(action: ErrorAction, services: Services): Promise<void> {
  switch (action) {
    case 'setKey':
      await vscode.commands.executeCommand('modelgate.setApiKey');
      return;
    case 'topUp':
      await topUp();
      return;
    case 'switchChannel':
      await vscode.commands.executeCommand('modelgate.pickChannel');
      return;
    case 'pickModel':
      await vscode.commands.executeCommand('modelgate.pickModel');
      return;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'modelgate');
      return;
    case 'showLog':
      services.log.show();
      return;
    case 'newChat':
      await vscode.commands.executeCommand('modelgate.newChat');
      return;
    case 'retry':
    case 'compactRetry':
    case 'undoCompaction':
      return;
  }
}

/**
 * Shows an error notification with its actions as buttons (not modal, so it never blocks).
 * `retry`, when given, is offered as a button and run on click.
 */
export async function showError(err: unknown, services: Services, retry?: () => unknown): Promise<void> {
  const view = describeError(err);
  if (err instanceof GatewayError && err.kind === 'aborted') return;
  services.log.error(view.message);
  const actions = view.actions.filter((a) => a !== 'retry' || retry);
  const pick = await vscode.window.showErrorMessage(vscode.l10n.t('Modelgate: {0}', view.message), ...actions.map(actionLabel));
  const action = actions.find((a) => actionLabel(a) === pick);
  if (!action) return;
  if (action === 'retry') retry?.();
  else await runErrorAction(action, services);
}
