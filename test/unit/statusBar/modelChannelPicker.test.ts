// The model picker's rows (src/statusBar/modelChannelPicker.ts) with a `vscode` stand-in: where a
// price came from (the gateway's /models or the user's modelgate.models), and the reasoning-effort
// rows that write modelgate.models.<id>.reasoningEffort to user settings.
import * as assert from 'node:assert/strict';
import { ModelCatalogue } from '../../../src/core/catalogue/modelCatalogue';
import { parseModelFacts } from '../../../src/core/catalogue/modelFacts';
import { installVscodeStub, stubState } from '../vscodeStub';

type Picker = typeof import('../../../src/statusBar/modelChannelPicker');

// OpenRouter's /models form (openrouter.ai/docs, "List available models"): USD per token, as strings.
const r1 = {
  id: 'deepseek/deepseek-r1',
  context_length: 163840,
  pricing: { prompt: '0.0000004', completion: '0.000002' },
  supported_parameters: ['tools', 'reasoning', 'include_reasoning'],
};

describe('statusBar/modelChannelPicker: price source and reasoning-effort rows', () => {
  let picker: Picker;
  before(async () => {
    installVscodeStub();
    picker = await import('../../../src/statusBar/modelChannelPicker');
  });
  beforeEach(() => {
    stubState.settings.clear();
    stubState.updates.length = 0;
  });

  it('says where each channel’s price came from: the gateway, your settings, or none', () => {
    const { models } = parseModelFacts([r1, { id: 'no-price-model', context_length: 8192 }]);
    const cat = ModelCatalogue.build({ gatewayModels: models, overrides: { 'deepseek/deepseek-r1': { prices: { direct: { input: 1, output: 3 } } } } });
    assert.equal(picker.priceWithSource(cat, r1.id, 'stable'), '$0.4 / $2 per 1M (from the gateway)');
    assert.equal(picker.priceWithSource(cat, r1.id, 'direct'), '$1 / $3 per 1M (from your settings)');
    assert.equal(picker.priceWithSource(cat, 'no-price-model', 'stable'), 'no price configured');
  });

  it('offers Model default, low, medium, high for a reasoning model, the current one checked; none for others', () => {
    const { models } = parseModelFacts([r1]);
    const cat = ModelCatalogue.build({ gatewayModels: models, overrides: { 'deepseek/deepseek-r1': { reasoningEffort: 'medium' } } });
    const rows = picker.reasoningItems(cat, r1.id);
    assert.deepEqual(
      rows.map((r) => [r.label, r.description]),
      [
        ['$(blank) Model default', 'no reasoning_effort sent; the model decides'],
        ['$(blank) low', 'reasoning_effort: low'],
        ['$(check) medium', 'reasoning_effort: medium'],
        ['$(blank) high', 'reasoning_effort: high'],
      ],
    );
    assert.deepEqual(picker.reasoningItems(cat, 'flagship-text'), [], 'a model without reasoning has no rows');
  });

  it('a row writes the effort to user settings, keeping the rest of the entry; Model default removes it', async () => {
    const cat = ModelCatalogue.build({ gatewayModels: parseModelFacts([r1]).models });
    stubState.settings.set('models', { globalValue: { 'deepseek/deepseek-r1': { temperature: 0.2 }, other: { maxOutputTokens: 10 } } });
    const rows = picker.reasoningItems(cat, r1.id);
    await rows.find((r) => r.label.endsWith('high'))!.run!();
    assert.deepEqual(stubState.updates.at(-1), {
      key: 'models',
      value: { 'deepseek/deepseek-r1': { temperature: 0.2, reasoningEffort: 'high' }, other: { maxOutputTokens: 10 } },
      target: 1, // ConfigurationTarget.Global
    });
    await rows[0]!.run!();
    assert.deepEqual(stubState.updates.at(-1)!.value, { 'deepseek/deepseek-r1': { temperature: 0.2 }, other: { maxOutputTokens: 10 } });
  });

  it('the model rows carry the current model’s reasoning effort right under it (the first screen), none for a model that does not think', () => {
    const { models } = parseModelFacts([r1, { id: 'plain', context_length: 8192 }]);
    const cat = ModelCatalogue.build({ gatewayModels: models, overrides: { 'deepseek/deepseek-r1': { reasoningEffort: 'high' } } });
    stubState.settings.set('chat.model', { globalValue: r1.id });
    const services = { settings: () => ({ chatModel: r1.id, channel: 'default' }), catalogue: () => cat } as unknown as Parameters<
      Picker['modelPickerItems']
    >[0];
    const labels = picker.modelPickerItems(services).map((r) => r.label);
    const at = labels.findIndex((l) => l.endsWith(r1.id));
    assert.ok(labels[at]!.startsWith('$(check)'));
    assert.equal(labels[at + 1], '$(blank) $(lightbulb) Reasoning effort: high');
    const plain = { settings: () => ({ chatModel: 'plain', channel: 'default' }), catalogue: () => cat } as unknown as Parameters<
      Picker['modelPickerItems']
    >[0];
    assert.ok(!picker.modelPickerItems(plain).some((r) => /Reasoning effort/.test(r.label)), 'a model that does not think has no effort row');
  });
});
