// Model facts from GET /models: every form real servers use, bad values
// skipped (never the entry, never the list), and the user's modelgate.models winning.
import * as assert from 'node:assert/strict';
import { describeFactsProblems, parseModelFacts } from '../../../../src/core/catalogue/modelFacts';
import { ModelCatalogue } from '../../../../src/core/catalogue/modelCatalogue';

// Shaped after OpenRouter's GET /api/v1/models (https://openrouter.ai/docs/api-reference/list-available-models).
const openRouter = {
  id: 'deepseek/deepseek-r1',
  name: 'DeepSeek: R1',
  context_length: 163840,
  architecture: { modality: 'text+image->text', input_modalities: ['text', 'image'], output_modalities: ['text'] },
  pricing: { prompt: '0.0000004', completion: '0.000002', input_cache_read: '0.0000001', request: '0' },
  top_provider: { context_length: 163840, max_completion_tokens: 32768, is_moderated: false },
  supported_parameters: ['max_tokens', 'temperature', 'tools', 'reasoning', 'include_reasoning'],
};
// vLLM's ModelCard (https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html).
const vllm = { id: 'Qwen/Qwen3-32B', object: 'model', owned_by: 'vllm', root: 'Qwen/Qwen3-32B', max_model_len: 40960 };
// LiteLLM-style model info fields (https://docs.litellm.ai/docs/proxy/model_management).
const litellm = {
  id: 'claude-sonnet',
  max_input_tokens: 200000,
  max_output_tokens: 64000,
  input_cost_per_token: 0.000003,
  output_cost_per_token: 0.000015,
  supports_vision: true,
  supports_function_calling: true,
  supports_reasoning: true,
};

describe('core/catalogue: model facts from /models', () => {
  it('reads the OpenRouter form: context, max output, per-token string prices as per 1M, modalities, tools and reasoning', () => {
    const { models, problems } = parseModelFacts([openRouter]);
    assert.deepEqual(problems, []);
    assert.deepEqual(models[0], {
      id: 'deepseek/deepseek-r1',
      contextWindow: 163840,
      maxOutput: 32768,
      imageInput: true,
      tools: true,
      reasoning: true,
      price: { input: 0.4, output: 2, cacheRead: 0.1 },
    });
  });

  it("reads vLLM's max_model_len and the context_window / max_*_tokens / *_cost_per_token forms", () => {
    const { models } = parseModelFacts([vllm, litellm, { id: 'w', context_window: 32000 }]);
    assert.deepEqual(models[0], { id: 'Qwen/Qwen3-32B', contextWindow: 40960 });
    assert.deepEqual(models[1], {
      id: 'claude-sonnet',
      contextWindow: 200000,
      maxOutput: 64000,
      imageInput: true,
      tools: true,
      reasoning: true,
      price: { input: 3, output: 15 },
    });
    assert.deepEqual(models[2], { id: 'w', contextWindow: 32000 });
  });

  it('a text-only OpenRouter model without tools says so (false, not unknown)', () => {
    const { models } = parseModelFacts([{ id: 'x', architecture: { input_modalities: ['text'] }, supported_parameters: ['temperature'] }]);
    assert.deepEqual(models[0], { id: 'x', imageInput: false, tools: false, reasoning: false });
  });

  it('skips bad values (negative, NaN, not a number, fractional, absurdly large) and keeps the entry and the list', () => {
    const entries = [
      { id: 'neg', context_length: -1, pricing: { prompt: '-1', completion: '-1' } },
      { id: 'nan', context_length: 'lots', max_model_len: NaN, pricing: { prompt: 'abc', completion: '0.000001' } },
      { id: 'huge', context_length: 1e12, top_provider: { max_completion_tokens: 1.5 }, input_cost_per_token: 5, output_cost_per_token: 1 },
      { id: 'fallback', context_length: -5, max_model_len: 8192 },
      'plain-id',
      { no: 'id' },
      null,
    ];
    const { models, problems } = parseModelFacts(entries);
    assert.deepEqual(
      models.map((m) => m.id),
      ['neg', 'nan', 'huge', 'fallback', 'plain-id'],
    );
    for (const m of models.slice(0, 3)) assert.deepEqual(m, { id: m.id }, `${m.id}: nothing bad kept`);
    assert.deepEqual(models[3], { id: 'fallback', contextWindow: 8192 }, 'the next form is used when the first is bad');
    const fields = problems.map((p) => `${p.modelId} ${p.field}`);
    for (const f of [
      'neg context_length',
      'neg pricing.prompt',
      'nan context_length',
      'nan max_model_len',
      'nan pricing.prompt',
      'huge context_length',
      'huge top_provider.max_completion_tokens',
      'huge input_cost_per_token',
    ]) {
      assert.ok(fields.includes(f), `${f} reported: ${fields.join(', ')}`);
    }
    const line = describeFactsProblems(problems)!;
    assert.equal(line.split('\n').length, 1, 'one log line');
    assert.match(line, /ignored \d+ bad value/);
    assert.equal(describeFactsProblems([]), undefined);
  });

  it('feeds the catalogue: context and prices from the gateway, marked as such', () => {
    const { models } = parseModelFacts([openRouter, vllm, { id: 'flagship-text', context_length: 500000 }]);
    const cat = ModelCatalogue.build({ gatewayModels: models });
    assert.equal(cat.chatModel('Qwen/Qwen3-32B')?.contextWindow, 40960);
    assert.equal(cat.chatModel('flagship-text')?.contextWindow, 500000, 'the gateway knows its built-in models better than the defaults');
    const r1 = cat.chatModel('deepseek/deepseek-r1')!;
    assert.equal(r1.imageInput, true);
    assert.equal(r1.reasoning, true);
    assert.deepEqual(cat.price(r1.id, 'stable'), { input: 0.4, output: 2, cacheRead: 0.1 });
    assert.equal(cat.priceSource(r1.id, 'stable'), 'gateway');
    assert.equal(cat.priceSource('Qwen/Qwen3-32B', 'stable'), undefined, 'no price, no source');
  });

  it("the user's modelgate.models always wins over the gateway's facts, and the price source says settings", () => {
    const { models } = parseModelFacts([openRouter]);
    const cat = ModelCatalogue.build({
      gatewayModels: models,
      overrides: { 'deepseek/deepseek-r1': { contextWindow: 64000, imageInput: false, prices: { direct: { input: 1, output: 3 } } } },
    });
    const m = cat.chatModel('deepseek/deepseek-r1')!;
    assert.equal(m.contextWindow, 64000);
    assert.equal(m.imageInput, false);
    assert.equal(m.maxOutput, 32768, 'what the user did not set still comes from the gateway');
    assert.deepEqual(cat.price(m.id, 'direct'), { input: 1, output: 3 });
    assert.equal(cat.priceSource(m.id, 'direct'), 'settings');
    assert.equal(cat.priceSource(m.id, 'economical'), 'gateway', 'other channels keep the gateway price');
    const all = ModelCatalogue.build({ gatewayModels: models, overrides: { 'deepseek/deepseek-r1': { prices: { default: { input: 9, output: 9 } } } } });
    assert.deepEqual(all.price(m.id, 'stable'), { input: 9, output: 9 });
    assert.equal(all.priceSource(m.id, 'stable'), 'settings');
  });

  it('an id that looks like an image model but comes with chat facts is a chat model', () => {
    const { models } = parseModelFacts([{ id: 'vision-imagen-chat', context_length: 32000 }, { id: 'flux-pro' }]);
    const cat = ModelCatalogue.build({ gatewayModels: models });
    assert.equal(cat.chatModel('vision-imagen-chat')?.contextWindow, 32000);
    assert.equal(cat.imageModel('flux-pro')?.rulesUnknown, true);
  });
});

describe('core/catalogue: per-image prices from /models', () => {
  const listed = {
    id: 'image-restricted',
    architecture: { input_modalities: ['text'], output_modalities: ['image'] },
    pricing: { image_output: { standard: { '1024x1024': '0.04', '1792x1024': 0.08 }, hd: { '1024x1024': '0.08', huge: '1', '1024x1792': '-1' } } },
  };

  it('reads pricing.image_output (USD per image by quality and size); bad sizes and prices are skipped and reported', () => {
    const { models, problems } = parseModelFacts([listed]);
    assert.deepEqual(models[0]!.imagePrices, { standard: { '1024x1024': 0.04, '1792x1024': 0.08 }, hd: { '1024x1024': 0.08 } });
    assert.deepEqual(
      problems.map((p) => p.field),
      ['pricing.image_output.hd.huge', 'pricing.image_output.hd.1024x1792'],
    );
    assert.equal(models[0]!.price, undefined, 'not a chat price');
  });

  it('the catalogue prices a listed image model with them (built-in or new), and the user setting still wins', () => {
    const fresh = { ...listed, id: 'acme-painter' };
    const { models } = parseModelFacts([listed, fresh]);
    const cat = ModelCatalogue.build({ gatewayModels: models });
    assert.equal(cat.imageCost('image-restricted', '1024x1024', 2), 0.08);
    assert.equal(cat.imageCost('image-restricted', '1024x1024', 1, 'hd'), 0.08);
    assert.equal(cat.imageModel('acme-painter')?.kind, 'image', 'a model listed with image prices is an image model');
    assert.equal(cat.imageCost('acme-painter', '1792x1024', 1), 0.08);
    const mine = ModelCatalogue.build({
      gatewayModels: models,
      overrides: { 'image-restricted': { kind: 'image', prices: { standard: { '1024x1024': 0.05 } } } },
    });
    assert.equal(mine.imageCost('image-restricted', '1024x1024', 1), 0.05);
    assert.equal(ModelCatalogue.build({ gatewayIds: ['image-restricted'] }).imageCost('image-restricted', '1024x1024', 1), undefined, 'not listed: no price');
  });
});
