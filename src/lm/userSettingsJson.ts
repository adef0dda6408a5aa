// The user's settings.json, read and written as a file: for settings that the configuration API
// cannot write (vsCodeChatPlan.ts HIDDEN_FROM_EXTENSIONS). The file is found by opening it
// ("Preferences: Open User Settings (JSON)": the active profile's file, and the user sees what
// changes), and changed with jsonc-parser's edits, which keep comments, order and formatting.
// User settings only: a file inside a workspace folder is never written.
// the ESM build: the package's main (UMD) requires its parts at run time, which a bundle cannot follow
import { applyEdits, modify, parse } from 'jsonc-parser/lib/esm/main.js';
import * as vscode from 'vscode';

export interface UserSettingsFile {
  uri: vscode.Uri;
  /** the editor has changes that are not saved (writing the file now would lose them or be refused) */
  dirty: boolean;
}

/** Opens the user's settings.json in an editor and returns where it is (throws when what opened is not it). */
export async function openUserSettingsJson(): Promise<UserSettingsFile> {
  await vscode.commands.executeCommand('workbench.action.openSettingsJson');
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || !doc.uri.path.endsWith('/settings.json') || vscode.workspace.getWorkspaceFolder(doc.uri) || doc.uri.scheme === 'untitled')
    throw new Error(vscode.l10n.t('Modelgate could not open your user settings (JSON).'));
  return { uri: doc.uri, dirty: doc.isDirty };
}

/** The editor showing the file (opened again if the user closed it meanwhile). */
async function editorOf(file: UserSettingsFile): Promise<vscode.TextEditor> {
  const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === file.uri.toString());
  return shown ?? vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file.uri));
}

/** The file's top-level values as its editor has them (a text that does not parse as an object reads as empty). */
export async function userSettingsValues(file: UserSettingsFile): Promise<Record<string, unknown>> {
  const value: unknown = parse((await editorOf(file)).document.getText(), [], { allowTrailingComma: true });
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Sets (or removes, for undefined) top-level keys through the file's editor and saves it: VS Code
 * then reads the settings from its own save (a write beside the editor would need a file watcher
 * and leave the editor's copy stale).
 */
export async function writeUserSettingsJson(file: UserSettingsFile, values: readonly [key: string, value: unknown][]): Promise<void> {
  const editor = await editorOf(file);
  const doc = editor.document;
  const before = doc.getText();
  const formattingOptions = {
    insertSpaces: editor.options.insertSpaces !== false,
    tabSize: typeof editor.options.tabSize === 'number' ? editor.options.tabSize : 4,
    eol: doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
  };
  let text = before.trim() ? before : '{}';
  for (const [key, value] of values) text = applyEdits(text, modify(text, [key], value, { formattingOptions }));
  if (text !== before) {
    const done = await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(before.length)), text));
    if (!done) throw new Error(vscode.l10n.t('Modelgate could not change your user settings (JSON).'));
  }
  if (doc.isDirty) await saved(doc);
}

/**
 * Saves the document. In 1.139's web workbench TextDocument.save() answers false for the user's
 * settings.json and the save completes a moment later (seen: not dirty 1 s after), so the answer
 * is the save event, or the document no longer dirty, within 10 s.
 */
async function saved(doc: vscode.TextDocument): Promise<void> {
  let sub: vscode.Disposable | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const event = new Promise<void>((resolve) => {
    sub = vscode.workspace.onDidSaveTextDocument((d) => d === doc && resolve());
    timer = setTimeout(resolve, 10_000);
  });
  try {
    if (!(await doc.save()) && doc.isDirty) await event;
  } finally {
    sub?.dispose();
    clearTimeout(timer);
  }
  if (doc.isDirty) throw new Error(vscode.l10n.t('Modelgate could not save your user settings (JSON).'));
}
