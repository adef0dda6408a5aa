// The questions Apply asks: where to put a block when no region of the file matches, whether a
// block of another language really goes into this file, and the path of a new file. An
// interface so the integration tests can answer them (a real quick pick is answered by a
// person; the flow around it is what the tests check).
import * as vscode from 'vscode';

export type Placement = 'selection' | 'cursor' | 'end' | 'whole' | 'newFile';

export interface ApplyUi {
  /** Where a block goes in `label` when no region matched; undefined when the user cancels. */
  pickPlacement(label: string, offered: readonly Placement[]): Promise<Placement | undefined>;
  /** A `blockLanguage` block for a `fileLanguage` file: apply anyway, a new file, or cancel (undefined). */
  confirmLanguage(blockLanguage: string, label: string, fileLanguage: string): Promise<'apply' | 'newFile' | undefined>;
  /** A workspace-relative path for a new file; `validate` returns why a path cannot be used. */
  askNewFilePath(suggestion: string, validate: (path: string) => Promise<string | undefined>): Promise<string | undefined>;
}

/** Translated when shown (vscode.l10n reads its bundle at activation, not at module load). */
const placementLabel = (p: Placement): string =>
  ({
    selection: `$(selection) ${vscode.l10n.t('Replace the selection')}`,
    cursor: `$(insert) ${vscode.l10n.t('Insert at the cursor')}`,
    end: `$(arrow-down) ${vscode.l10n.t('Add at the end of the file')}`,
    whole: `$(replace-all) ${vscode.l10n.t('Replace the whole file')}`,
    newFile: `$(new-file) ${vscode.l10n.t('Create a new file…')}`,
  })[p];

export const vscodeApplyUi: ApplyUi = {
  async pickPlacement(label, offered) {
    const items = offered.map((p) => ({ label: placementLabel(p), placement: p }));
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Apply: where does this code go in {0}?', label),
      placeHolder: vscode.l10n.t('No part of the file matches the start of the block. Nothing is written before you accept the diff.'),
      ignoreFocusOut: true,
    });
    return pick?.placement;
  },

  async confirmLanguage(blockLanguage, label, fileLanguage) {
    const items = [
      { label: `$(warning) ${vscode.l10n.t('Apply to {0} anyway', label)}`, answer: 'apply' as const },
      { label: `$(new-file) ${vscode.l10n.t('Create a new {0} file…', blockLanguage)}`, answer: 'newFile' as const },
      { label: `$(close) ${vscode.l10n.t('Cancel')}`, answer: undefined },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Apply: this block is {0}, but {1} is {2}', blockLanguage, label, fileLanguage),
      placeHolder: vscode.l10n.t('Choose where the code goes'),
      ignoreFocusOut: true,
    });
    return pick?.answer;
  },

  async askNewFilePath(suggestion, validate) {
    const dot = suggestion.lastIndexOf('.');
    const slash = suggestion.lastIndexOf('/') + 1;
    return vscode.window.showInputBox({
      title: vscode.l10n.t('Apply: new file'),
      prompt: vscode.l10n.t('Path of the new file, relative to the workspace folder'),
      value: suggestion,
      valueSelection: [slash, dot > slash ? dot : suggestion.length],
      ignoreFocusOut: true,
      validateInput: validate,
    });
  },
};
