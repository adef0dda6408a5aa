// What an error during completions says, in the status-bar item's tooltip and at the top of its
// menu: one sentence on what happened and when completions try again, and the label of its one
// action (src/core/completions/completionTrouble.ts decides the kind, the back-off and the action).
import * as vscode from 'vscode';
import { TROUBLE_ACTION, type TroubleState } from '../core/completions/completionTrouble';

export function troubleText(t: TroubleState): string {
  switch (t.kind) {
    case 'key':
      return vscode.l10n.t('The gateway refused the API key. Completions resume once a new key is set.');
    case 'balance':
      return vscode.l10n.t('The gateway balance is used up. Completions try again in 10 minutes, or after you top up.');
    case 'rateLimit':
      return vscode.l10n.t('The gateway limits the request rate. Completions try again shortly; another channel may not be limited.');
    case 'server':
      return vscode.l10n.t('The channel is failing ({0}). Completions try again shortly; another channel may work now.', t.message);
    case 'network':
      return vscode.l10n.t('The gateway cannot be reached ({0}). Completions try again shortly.', t.message);
    default:
      return vscode.l10n.t('The gateway refused the completion request ({0}). Check the completion model and channel.', t.message);
  }
}

/** The label of a trouble's one action. */
export function troubleActionLabel(t: TroubleState): string {
  switch (TROUBLE_ACTION[t.kind]) {
    case 'setKey':
      return vscode.l10n.t('Set API Key');
    case 'topUp':
      return vscode.l10n.t('Top Up');
    case 'changeChannel':
      return vscode.l10n.t('Change Channel');
    case 'showLog':
      return vscode.l10n.t('Show Log');
    default:
      return vscode.l10n.t('Choose Completion Model');
  }
}
