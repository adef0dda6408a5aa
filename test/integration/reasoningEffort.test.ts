// A thinking model's reasoning effort where a user looks for it, in a real VS Code: in the model
// picker right under the current model (the picker's first screen, not below the channels and the
// key), with its current value in the row and the picker's title, and in the chat panel's model
// chip (the composer state carries it); a model that does not think shows none.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { config as cfg, until, useModelgate } from './helpers';

describe('reasoning effort: beside the model, in the picker’s first screen and the panel (real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    settings: { 'chat.model': 'reasoner', channel: 'stable', models: { reasoner: { reasoningEffort: 'high' } } },
    ready: (api) => api.settings().chatModel === 'reasoner' && api.catalogue().chatModel('reasoner')?.reasoning === true,
    key: 'sk-test',
    chat: true,
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('the combined picker shows the effort right under the current model, within its first nine rows; picking it opens the efforts', async () => {
    const picking = vscode.commands.executeCommand('modelgate.pickModelOrChannel');
    const rows = await until(() => mg.api.pickerRows(), 'the picker open');
    const labels = rows.map((r) => r.label);
    const model = labels.findIndex((l) => l === '$(check) reasoner');
    const effort = labels.findIndex((l) => /Reasoning effort: high$/.test(l));
    assert.ok(model >= 0, labels.join(' | '));
    assert.equal(effort, model + 1, `the effort row is right under the current model: ${labels.join(' | ')}`);
    assert.ok(effort < 9, `the effort row is on the first screen (row ${effort + 1}): ${labels.join(' | ')}`);
    assert.equal(labels.filter((l) => /^\$\((check|blank)\) (low|medium|high|Model default)$/.test(l)).length, 0, 'no separate effort section further down');
    // the picker opens on the current model; the next row is the effort, which opens the list of efforts
    await until(() => mg.api.pickerActiveRow() === '$(check) reasoner', 'the current model active');
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await until(() => /Reasoning effort: high$/.test(mg.api.pickerActiveRow() ?? ''), 'the effort row active');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const efforts = await until(() => mg.api.pickerRows()?.some((r) => /Model default$/.test(r.label)) && mg.api.pickerRows(), 'the list of efforts open');
    assert.deepEqual(
      efforts.map((r) => r.label),
      ['$(blank) Model default', '$(blank) low', '$(blank) medium', '$(check) high'],
    );
    // Enter keeps the current effort
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picking;
    assert.equal(mg.api.catalogue().chatModel('reasoner')?.params?.reasoningEffort, 'high');
  });

  it('the panel’s composer carries the effort for a model that thinks (the chip shows it), none for one that does not', async () => {
    const chat = mg.api.chat.controller;
    assert.equal((await chat.composer()).reasoningEffort, 'high');
    await cfg().update('models', { reasoner: { reasoningEffort: 'low' } }, vscode.ConfigurationTarget.Global);
    await until(async () => (await chat.composer()).reasoningEffort === 'low', 'the new effort reaches the composer');
    await cfg().update('chat.model', 'flagship-text', vscode.ConfigurationTarget.Global);
    await until(async () => (await chat.composer()).model === 'flagship-text', 'the model switched');
    assert.equal((await chat.composer()).reasoningEffort, undefined, 'a model that does not think has no effort');
  });
});
