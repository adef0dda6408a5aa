// Per-model request parameters: validation in the catalogue (the message names
// the bad field), the merge into the chat body (reserved fields never overridden, the caller's
// own fields win), and a vscode.lm caller's modelOptions.
import * as assert from 'node:assert/strict';
import { ModelCatalogue } from '../../../../src/core/catalogue/modelCatalogue';
import { mergeParams, paramsFromModelOptions, withModelParams } from '../../../../src/core/client/modelParams';
import { chatBody } from '../../../../src/core/client/requestBody';

const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('core/client: per-model request parameters', () => {
  it('valid parameters reach the catalogue entry', () => {
    const cat = ModelCatalogue.build({
      overrides: {
        m: { maxOutputTokens: 4096, maxTokensField: 'max_completion_tokens', temperature: 0.2, topP: 0.9, reasoningEffort: 'high', extraBody: { seed: 7 } },
      },
    });
    assert.deepEqual(cat.chatModel('m')?.params, {
      maxOutputTokens: 4096,
      maxTokensField: 'max_completion_tokens',
      temperature: 0.2,
      topP: 0.9,
      reasoningEffort: 'high',
      extraBody: { seed: 7 },
    });
    assert.equal(cat.chatModel('m')?.reasoning, true, 'a model with an effort set can switch it in the picker');
    assert.equal(cat.chatModel('flagship-text')?.params, undefined);
  });

  for (const [entry, field] of [
    [{ maxOutputTokens: -1 }, 'maxOutputTokens'],
    [{ maxOutputTokens: 1.5 }, 'maxOutputTokens'],
    [{ temperature: 3 }, 'temperature'],
    [{ topP: 'high' }, 'topP'],
    [{ reasoningEffort: 'extreme' }, 'reasoningEffort'],
    [{ maxTokensField: 'tokens' }, 'maxTokensField'],
    [{ extraBody: { model: 'other' } }, 'extraBody.model'],
    [{ extraBody: { stream_options: {} } }, 'extraBody.stream_options'],
    [{ extraBody: { provider: { channel: 'direct' } } }, 'extraBody.provider'],
    [{ extraBody: 'x' }, 'extraBody'],
  ] as const) {
    it(`refuses ${JSON.stringify(entry)} with a message naming ${field}`, () => {
      const cat = ModelCatalogue.build({ overrides: { m: entry } });
      assert.equal(cat.problems.length, 1);
      assert.equal(cat.problems[0]!.modelId, 'm');
      assert.ok(cat.problems[0]!.message.startsWith(`${field}:`), cat.problems[0]!.message);
    });
  }

  it('the chat body gets the fields under their wire names', () => {
    const body = JSON.parse(
      chatBody(request, {
        stream: true,
        includeUsage: true,
        params: { maxOutputTokens: 100, temperature: 0.5, topP: 0.8, reasoningEffort: 'low', extraBody: { seed: 1 } },
      }),
    ) as Record<string, unknown>;
    assert.equal(body.max_tokens, 100);
    assert.equal(body.temperature, 0.5);
    assert.equal(body.top_p, 0.8);
    assert.equal(body.reasoning_effort, 'low');
    assert.equal(body.seed, 1);
    assert.equal(body.stream, true);
    const completion = JSON.parse(
      chatBody(request, { stream: false, includeUsage: false, params: { maxOutputTokens: 100, maxTokensField: 'max_completion_tokens' } }),
    ) as Record<string, unknown>;
    assert.equal(completion.max_completion_tokens, 100);
    assert.equal(completion.max_tokens, undefined);
  });

  it('extraBody never overrides the request itself, even when it reached the client unvalidated', () => {
    const body = JSON.parse(
      chatBody(
        { ...request, provider: { channel: 'direct' } },
        { stream: true, includeUsage: true, params: { extraBody: { model: 'x', messages: [], stream: false, tools: [], provider: {}, stream_options: {} } } },
      ),
    ) as Record<string, unknown>;
    assert.equal(body.model, 'm');
    assert.equal((body.messages as unknown[]).length, 1);
    assert.equal(body.stream, true);
    assert.equal(body.tools, undefined);
    assert.deepEqual(body.provider, { channel: 'direct' });
    assert.deepEqual(body.stream_options, { include_usage: true });
  });

  it("the request's own fields win over the settings (a caller's max_tokens goes to the field the entry names)", () => {
    const merged = withModelParams(
      { model: 'm', temperature: 1, max_tokens: 50 },
      { temperature: 0.1, maxOutputTokens: 500, maxTokensField: 'max_completion_tokens' },
    );
    assert.equal(merged.temperature, 1);
    assert.equal(merged.max_completion_tokens, 50);
    assert.equal(merged.max_tokens, undefined);
  });

  it("a vscode.lm caller's modelOptions are read where they name the same things; others and bad values are ignored", () => {
    assert.deepEqual(paramsFromModelOptions({ temperature: 0.3, max_tokens: 200, top_p: 0.5, reasoning_effort: 'medium', foo: 1 }), {
      maxOutputTokens: 200,
      temperature: 0.3,
      topP: 0.5,
      reasoningEffort: 'medium',
    });
    assert.deepEqual(paramsFromModelOptions({ maxTokens: 10, reasoningEffort: 'high' }), { maxOutputTokens: 10, reasoningEffort: 'high' });
    assert.deepEqual(paramsFromModelOptions({ temperature: 9, max_tokens: -1, reasoning_effort: 'max' }), {});
    assert.deepEqual(paramsFromModelOptions(undefined), {});
    assert.deepEqual(mergeParams({ temperature: 0.1, maxOutputTokens: 5 }, { temperature: 0.9 }), { temperature: 0.9, maxOutputTokens: 5 });
    assert.deepEqual(mergeParams({ temperature: 0.1 }, {}), { temperature: 0.1 });
  });
});
