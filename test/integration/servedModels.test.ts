// A real gateway that does not serve the built-in default (`flagship-text`), in a real VS Code:
// once its GET /models has answered, the model picker and vscode.lm (Manage Language Models)
// offer only what it lists, a new profile starts on a model it serves (status bar, chat), and
// the first question is answered instead of "Model “flagship-text” is not available on the
// gateway"; a model the user set stays, marked as not listed.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { config, lastAssistant, until, useModelgate, type AnswerView } from './helpers';

const KEY = 'sk-served-models-31b8e6';

describe('models the gateway serves (real VS Code)', function () {
  this.timeout(90_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } }, servedModels: ['long-context-tools', 'image-small'] },
    // a new profile: no chat or image model set
    settings: { 'chat.model': undefined, 'image.model': undefined, models: {} },
    key: KEY,
    chat: true,
  });
  const lmIds = async () => (await vscode.lm.selectChatModels({ vendor: 'modelgate' })).map((m) => m.id).sort();

  it('offers only listed models, and starts on one the gateway serves', async () => {
    await mg.api.refreshCatalogue();
    await until(() => mg.api.settings().chatModel === 'long-context-tools', 'the default moves to a model the gateway serves');
    assert.equal(mg.api.settings().imageModel, 'image-small');
    assert.deepEqual(
      mg.api.modelPickerItems().map((r) => r.label.replace(/^\$\([a-z]+\) /, '')),
      ['long-context-tools'],
    );
    assert.match(mg.api.statusBarText(), /long-context-tools/);
    if (typeof vscode.lm?.registerLanguageModelChatProvider === 'function') {
      assert.deepEqual(await until(async () => ((await lmIds()).length === 1 ? await lmIds() : undefined), 'vscode.lm lists one model'), [
        'long-context-tools',
      ]);
    }
    const chat = mg.api.chat.controller;
    await chat.newChat();
    await chat.send('Hello there [[words:3]]');
    const answer = (await lastAssistant(chat)) as AnswerView;
    assert.equal(answer.status, 'done', answer.error?.message);
    assert.equal(answer.model, 'long-context-tools');
  });

  it('a model the user set stays in the picker and in vscode.lm, marked as not listed by the gateway', async () => {
    await config().update('chat.model', 'flagship-text', vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().chatModel === 'flagship-text', 'the user’s model');
    const row = await until(() => mg.api.modelPickerItems().find((r) => r.label.endsWith('flagship-text')), 'the user’s model in the picker');
    assert.match(row.description ?? '', /not listed by the gateway/);
    assert.ok(row.label.startsWith('$(check)'));
    if (typeof vscode.lm?.registerLanguageModelChatProvider === 'function') {
      const [flagship] = await until(async () => {
        const found = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'flagship-text' });
        return found.length ? found : undefined;
      }, 'the user’s model through vscode.lm');
      assert.ok(flagship);
    }
    await config().update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().chatModel === 'long-context-tools', 'back to a served default');
    assert.ok(!mg.api.modelPickerItems().some((r) => r.label.endsWith('flagship-text')), 'not offered once the user no longer sets it');
  });
});
