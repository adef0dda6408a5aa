// "Modelgate: Use in VS Code Chat" in a real VS Code 1.139: the settings it writes are VS Code's
// own (known to this VS Code), in the user's settings only, never the workspace's; "Don't Change"
// changes nothing; it ends with VS Code's Chat view open (a second run, with nothing to change,
// opens it at once); Undo puts the user's values back. The model picker's "Use in VS Code's Chat…"
// row and the walkthrough's "Ask a first question" step lead to this command.
// The modal and the notification are answered through the test hook (useInVsCodeChatPrompts).
// chat.allowAnonymousAccess is hidden from the extension host's configuration API (VS Code
// registers it with `included: false`), so the user's values are read from settings.json itself.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { confirmButtons, type VsCodeChatOutcome, type VsCodeChatPrompts } from '../../src/lm/useInVsCodeChat';
import { openUserSettingsJson, userSettingsValues, writeUserSettingsJson } from '../../src/lm/userSettingsJson';
import { until, useModelgate } from './helpers';

const KEYS = ['chat.allowAnonymousAccess', 'chat.byokUtilityModelDefault', 'chat.disableAIFeatures'] as const;
const inspect = (key: string) => vscode.workspace.getConfiguration().inspect(key);

describe('Use in VS Code Chat (real VS Code)', function () {
  this.timeout(30_000);
  const mg = useModelgate({});
  const saved = new Map<string, unknown>();
  const asked: { message: string; detail: string }[] = [];
  const told: string[][] = [];
  const opened: string[] = [];

  function answer(confirm: boolean, action?: string): void {
    const prompts: VsCodeChatPrompts = {
      confirm: async (message, detail) => {
        asked.push({ message, detail });
        return confirm;
      },
      notify: async (message, ...actions) => {
        told.push([message, ...actions]);
        return action;
      },
      chatOpened: (model) => opened.push(model),
    };
    mg.api.useInVsCodeChatPrompts(prompts);
  }
  const run = () => vscode.commands.executeCommand<VsCodeChatOutcome>('modelgate.useInVsCodeChat');
  /** the user's settings.json as it is on disk (saved) */
  const userValues = async () => {
    const file = await openUserSettingsJson();
    assert.equal(file.dirty, false, 'the user settings are saved');
    const values = await userSettingsValues(file);
    return KEYS.map((k) => values[k]);
  };
  const setUserValues = async (values: Partial<Record<(typeof KEYS)[number], unknown>>) =>
    writeUserSettingsJson(
      await openUserSettingsJson(),
      KEYS.map((k) => [k, values[k]]),
    );
  const workspaceValues = () => KEYS.flatMap((k) => [inspect(k)?.workspaceValue, inspect(k)?.workspaceFolderValue]);
  const workspaceSettingsFile = () => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
  const workspaceSettingsText = () => (fs.existsSync(workspaceSettingsFile()) ? fs.readFileSync(workspaceSettingsFile(), 'utf8') : '');

  before(async () => {
    const values = await userValues();
    KEYS.forEach((k, i) => saved.set(k, values[i]));
    await setUserValues({});
  });
  beforeEach(() => {
    asked.length = 0;
    told.length = 0;
    opened.length = 0;
  });
  after(async () => {
    mg.api.useInVsCodeChatPrompts(undefined);
    await setUserValues(Object.fromEntries(saved));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("this VS Code registers the settings the command writes (VS Code's own), one of them hidden from extensions", () => {
    assert.equal(inspect('chat.byokUtilityModelDefault')?.defaultValue, 'copilot');
    assert.equal(inspect('chat.disableAIFeatures')?.defaultValue, false);
    // registered with `included: false`: the configuration API can neither read nor write it
    assert.equal(inspect('chat.allowAnonymousAccess')?.defaultValue, undefined);
  });

  it("Enter takes Don't Change: it is the modal's first plain button (VS Code never makes the close button the default)", () => {
    const { keep, change, order } = confirmButtons();
    // VS Code's modal: every item without isCloseAffordance is a button, the first the primary one Enter takes
    const plain = order.filter((b) => !b.isCloseAffordance);
    assert.equal(plain[0], keep, 'the first plain button is the one Enter takes');
    assert.equal(keep.title, "Don't Change");
    assert.ok(order.includes(change));
    assert.ok(!order.some((b) => b.isCloseAffordance), "Escape takes VS Code's own Cancel, which changes nothing");
  });

  it('says what it will change, and Cancel changes nothing', async () => {
    const workspaceText = workspaceSettingsText();
    answer(false);
    assert.equal(await run(), 'cancelled');
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.detail, /"chat\.allowAnonymousAccess": true/);
    assert.match(asked[0]!.detail, /"chat\.byokUtilityModelDefault": "mainAgent"/);
    assert.doesNotMatch(asked[0]!.detail, /disableAIFeatures/, 'AI features are on: left alone');
    assert.deepEqual(await userValues(), [undefined, undefined, undefined]);
    assert.deepEqual(told, []);
    assert.deepEqual(opened, [], 'Don’t Change opens nothing');
    assert.equal(workspaceSettingsText(), workspaceText);
  });

  it('writes the user settings only, never the workspace; a second run changes nothing', async () => {
    const workspaceText = workspaceSettingsText();
    answer(true);
    assert.equal(await run(), 'changed');
    assert.deepEqual(await userValues(), [true, 'mainAgent', undefined]);
    // VS Code took the saved file as the user settings (a registered key reads back through the API)
    await until(() => inspect('chat.byokUtilityModelDefault')?.globalValue === 'mainAgent', 'chat.byokUtilityModelDefault read back by VS Code');
    assert.deepEqual(workspaceValues(), [undefined, undefined, undefined, undefined, undefined, undefined]);
    assert.equal(workspaceSettingsText(), workspaceText, "the workspace's .vscode/settings.json is untouched");
    // it ends with the Chat view open, on the Modelgate chat model; the notification only offers Undo
    assert.deepEqual(opened, [mg.api.settings().chatModel], "VS Code's Chat view opened by the command itself");
    assert.deepEqual(told.at(-1)?.slice(1), ['Undo']);

    asked.length = 0;
    told.length = 0;
    assert.equal(await run(), 'unchanged');
    assert.equal(asked.length, 0, 'no question when there is nothing to change');
    assert.equal(opened.length, 2, 'nothing to change: the Chat view opens at once');
    assert.deepEqual(told, [], 'and no notification to press');
  });

  it("is where the model picker's \"Use in VS Code's Chat…\" row and the walkthrough's first-question step lead", async () => {
    const manifest = vscode.extensions.getExtension('modelgate.modelgate')!.packageJSON as {
      contributes: { walkthroughs: { steps: { id: string; description: string }[] }[] };
    };
    const step = manifest.contributes.walkthroughs[0]!.steps.find((s) => s.id === 'firstQuestion')!;
    assert.match(step.description, /\(command:modelgate\.useInVsCodeChat\)/);
    assert.doesNotMatch(step.description, /chat\.manage/, 'not Manage Language Models, which stops at the GitHub sign-in');
    // the picker's row, chosen from the real quick pick (with something to change, so the command asks)
    await setUserValues({});
    answer(false);
    const picking = vscode.commands.executeCommand('modelgate.pickModelOrChannel');
    await until(() => mg.api.pickerActiveRow(), 'the picker open');
    await vscode.commands.executeCommand('quickInput.last');
    await until(() => /Use in VS Code's Chat…$/.test(mg.api.pickerActiveRow() ?? ''), "Use in VS Code's Chat… active");
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picking;
    await until(() => asked.length === 1 || undefined, 'the command asked what to change');
  });

  it('Undo puts the previous user values back', async () => {
    await setUserValues({ 'chat.byokUtilityModelDefault': 'none' });
    answer(true, 'Undo');
    assert.equal(await run(), 'changed');
    await until(async () => {
      const file = await openUserSettingsJson();
      const values = file.dirty ? undefined : await userSettingsValues(file); // Undo's save may be under way
      return values && values['chat.allowAnonymousAccess'] === undefined && values['chat.byokUtilityModelDefault'] === 'none';
    }, 'the previous values back after Undo');
  });

  it('turns AI features back on when they were off, and says so first', async () => {
    await setUserValues({ 'chat.disableAIFeatures': true });
    await until(() => vscode.workspace.getConfiguration().get('chat.disableAIFeatures') === true, 'AI features off');
    answer(true);
    assert.equal(await run(), 'changed');
    assert.match(asked[0]!.detail, /"chat\.disableAIFeatures": false/);
    assert.deepEqual(await userValues(), [true, 'mainAgent', false]);
  });
});
