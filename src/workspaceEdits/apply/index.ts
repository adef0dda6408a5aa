// Apply: a code block from an answer becomes a proposed change of the right file, shown as a
// diff with Accept and Discard in the editor title and a status-bar entry, written only on
// Accept. registerApply() is called once by registerChat; the controller calls `propose`.
import * as vscode from 'vscode';
import { APPLY_COMMANDS, commandTable } from '../../shared/featureIds';
import type { Log } from '../../services/log';
import { ApplyFlow, type ApplyOutcome, type ApplyRequest } from './applyFlow';
import { vscodeApplyUi, type ApplyUi } from './applyUi';
import { PendingChanges, type Decision, type PendingChange } from './pendingChanges';

export type { ApplyOutcome, ApplyRequest } from './applyFlow';
export type { ApplyUi, Placement } from './applyUi';
export type { Decision, PendingChange } from './pendingChanges';
export { PROPOSAL_SCHEME } from './pendingChanges';

export interface ChatApply {
  /** Proposes `code` as a change (the panel's Apply); resolves once the diff is shown, or with why not. */
  propose(req: ApplyRequest): Promise<ApplyOutcome>;
  /** Changes waiting for Accept or Discard. */
  pending(): readonly PendingChange[];
  /** What the accept/discard commands do: `arg` names the change (id or diff URI), else the active diff's. */
  accept(arg?: unknown): Promise<Decision | undefined>;
  discard(arg?: unknown): Promise<Decision | undefined>;
  /** Why the last Accept was refused (the message the user was shown). */
  lastRefusal(): string | undefined;
  /** The status-bar entry's text while a change is pending. */
  statusText(): string | undefined;
  /** The questions Apply asks (quick picks); the integration tests answer them instead. */
  ui: ApplyUi;
}

export function registerApply(log: Log): { apply: ChatApply; disposables: vscode.Disposable[] } {
  const pending = new PendingChanges((m) => log.info(m));
  const apply: ChatApply = {
    ui: vscodeApplyUi,
    propose: (req) => flow.propose(req),
    pending: () => pending.list(),
    async accept(arg) {
      const change = await pick(arg, 'accept');
      if (!change) return undefined;
      const d = await pending.accept(change);
      if (d === 'changed')
        void vscode.window.showWarningMessage(
          vscode.l10n.t(
            '{0} changed after the change was proposed, so nothing was written. Click Apply in the chat again to propose it against the current text.',
            change.label,
          ),
        );
      if (d === 'refused')
        void vscode.window.showErrorMessage(vscode.l10n.t('Modelgate did not write the change to {0}: {1}', change.label, pending.lastRefusal ?? ''));
      if (d === 'failed')
        void vscode.window.showErrorMessage(
          vscode.l10n.t('The change to {0} could not be written (VS Code refused the edit). Nothing was changed; see the Modelgate log.', change.label),
        );
      return d;
    },
    async discard(arg) {
      const change = await pick(arg, 'discard');
      return change ? pending.discard(change) : undefined;
    },
    statusText: () => pending.statusText,
    lastRefusal: () => pending.lastRefusal,
  };
  const flow = new ApplyFlow(pending, () => apply.ui);

  /** The change a command acts on; with several pending and none active, the user picks one. */
  async function pick(arg: unknown, verb: string): Promise<PendingChange | undefined> {
    const found = pending.resolve(arg);
    if (found || pending.list().length === 0) return found;
    const choice = await vscode.window.showQuickPick(
      pending.list().map((c) => ({ label: c.label, description: c.description, change: c })),
      {
        title:
          verb === 'accept' ? vscode.l10n.t('Which proposed change do you want to accept?') : vscode.l10n.t('Which proposed change do you want to discard?'),
      },
    );
    return choice?.change;
  }

  const disposables: vscode.Disposable[] = [
    pending,
    ...commandTable(APPLY_COMMANDS, {
      accept: (arg?: unknown) => apply.accept(arg),
      discard: (arg?: unknown) => apply.discard(arg),
      showPending: async () => {
        const list = pending.list();
        const one = list.length === 1 ? list[0] : await pick(undefined, 'review');
        if (one) await pending.show(one);
      },
    }).map(([id, run]) => vscode.commands.registerCommand(id, run)),
  ];
  return { apply, disposables };
}
