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

const PLACEMENT_ITEMS: Record<Placement, { label: string; description?: string }> = {
  selection: { label: '$(selection) Replace the selection' },
  cursor: { label: '$(insert) Insert at the cursor' },
  end: { label: '$(arrow-down) Add at the end of the file' },
  whole: { label: '$(replace-all) Replace the whole file' },
  newFile: { label: '$(new-file) Create a new file…' },
};

export const vscodeApplyUi: ApplyUi = {
  async pickPlacement(label, offered) {
    const items = offered.map((p) => ({ ...PLACEMENT_ITEMS[p], placement: p }));
    const pick = await vscode.window.showQuickPick(items, {
      title: `Apply: where does this code go in ${label}?`,
      placeHolder: 'No part of the file matches the start of the block. Nothing is written before you accept the diff.',
      ignoreFocusOut: true,
    });
    return pick?.placement;
  },

  async confirmLanguage(blockLanguage, label, fileLanguage) {
    const items = [
      { label: `$(warning) Apply to ${label} anyway`, answer: 'apply' as const },
      { label: `$(new-file) Create a new ${blockLanguage} file…`, answer: 'newFile' as const },
      { label: '$(close) Cancel', answer: undefined },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: `Apply: this block is ${blockLanguage}, but ${label} is ${fileLanguage}`,
      placeHolder: 'Choose where the code goes',
      ignoreFocusOut: true,
    });
    return pick?.answer;
  },

  async askNewFilePath(suggestion, validate) {
    const dot = suggestion.lastIndexOf('.');
    const slash = suggestion.lastIndexOf('/') + 1;
    return vscode.window.showInputBox({
      title: 'Apply: new file',
      prompt: 'Path of the new file, relative to the workspace folder',
      value: suggestion,
      valueSelection: [slash, dot > slash ? dot : suggestion.length],
      ignoreFocusOut: true,
      validateInput: validate,
    });
  },
};
