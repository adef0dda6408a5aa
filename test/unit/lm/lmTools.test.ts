import * as assert from 'node:assert/strict';
import { LmInputError } from '../../../src/lm/lmMessages';
import { parseToolCall, toWireTools, TOOL_MODE_REQUIRED } from '../../../src/lm/lmTools';
import { modelInformation, tokenLimits } from '../../../src/lm/modelInformation';
import { BUILTIN_MODELS, type ChatModelInfo } from '../../../src/core/catalogue/modelCatalogue';

const WITH_TOOLS = { id: 'flagship-text', label: 'Flagship (text)', tools: true };

describe('lm: tools', () => {
  it('maps tools to wire functions; a missing or non-object schema becomes an empty object schema', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const out = toWireTools(
      [
        { name: 'lookup', description: 'Look something up', inputSchema: schema },
        { name: 'now', description: '' },
        { name: 'odd', description: 'x', inputSchema: ['not', 'an', 'object'] },
      ],
      1,
      WITH_TOOLS,
    );
    assert.deepEqual(out, {
      tools: [
        { type: 'function', function: { name: 'lookup', description: 'Look something up', parameters: schema } },
        { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'odd', description: 'x', parameters: { type: 'object', properties: {} } } },
      ],
    });
  });

  it('sends tool_choice "required" only for the Required mode, and nothing without tools', () => {
    assert.equal(toWireTools([{ name: 'a' }], TOOL_MODE_REQUIRED, WITH_TOOLS).tool_choice, 'required');
    assert.equal(toWireTools([{ name: 'a' }], 1, WITH_TOOLS).tool_choice, undefined);
    assert.deepEqual(toWireTools([], TOOL_MODE_REQUIRED, WITH_TOOLS), {});
    assert.deepEqual(toWireTools(undefined, TOOL_MODE_REQUIRED, WITH_TOOLS), {});
  });

  it('refuses tools for a model without tool calling', () => {
    assert.throws(
      () => toWireTools([{ name: 'a' }], 1, { id: 'm', label: 'M', tools: false }),
      (e: unknown) => e instanceof LmInputError && /M \(m\) does not support tool calling/.test(e.message),
    );
  });

  it('parses complete tool-call arguments into an object, and reports anything else', () => {
    assert.deepEqual(parseToolCall({ id: 'c1', name: 'lookup', arguments: '{"q":"x","n":[1,2]}' }), {
      ok: true,
      id: 'c1',
      name: 'lookup',
      input: { q: 'x', n: [1, 2] },
    });
    assert.deepEqual(parseToolCall({ id: 'c2', name: 'now', arguments: '  ' }), { ok: true, id: 'c2', name: 'now', input: {} });
    const bad = parseToolCall({ id: 'c3', name: 'lookup', arguments: '{"q": ' });
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.message : '', /tool "lookup" with arguments that are not valid JSON: \{"q":$/);
    const arr = parseToolCall({ id: 'c4', name: 'lookup', arguments: '[1]' });
    assert.match(!arr.ok ? arr.message : '', /not a JSON object/);
    assert.equal(parseToolCall({ id: 'c5', name: 'lookup', arguments: '"x"' }).ok, false);
  });
});

describe('lm: model information', () => {
  const builtin = (id: string) => BUILTIN_MODELS.find((m) => m.id === id) as ChatModelInfo;

  it('splits the context window into input and a capped output reserve that add up to the window', () => {
    assert.deepEqual(tokenLimits(builtin('flagship-text')), { maxInputTokens: 1_000_000 - 8_192, maxOutputTokens: 8_192 });
    assert.deepEqual(tokenLimits(builtin('long-context-tools')), { maxInputTokens: 2_000_000 - 8_192, maxOutputTokens: 8_192 });
    // a small model whose max output equals its window still gets three quarters for the prompt
    assert.deepEqual(tokenLimits({ contextWindow: 16_000, maxOutput: 16_000 }), { maxInputTokens: 12_000, maxOutputTokens: 4_000 });
    assert.deepEqual(tokenLimits({ contextWindow: 128_000, maxOutput: 4_096 }), { maxInputTokens: 123_904, maxOutputTokens: 4_096 });
  });

  it('describes a model: id as family, capabilities, and the channel in detail and tooltip', () => {
    const info = modelInformation(builtin('long-context-tools'), 'economical');
    assert.equal(info.id, 'long-context-tools');
    assert.equal(info.name, 'Long context + images');
    assert.equal(info.family, 'long-context-tools');
    assert.equal(info.version, '1');
    assert.deepEqual(info.capabilities, { imageInput: true, toolCalling: true });
    assert.match(info.detail, /Economical channel/);
    assert.match(info.tooltip, /economical channel: Routed for the lowest price/);
    assert.match(info.tooltip, /2M token context, text and images, tool calling/);
    const text = modelInformation(builtin('flagship-text'), 'default');
    assert.deepEqual(text.capabilities, { imageInput: false, toolCalling: true });
    assert.match(text.detail, /Default channel/);
    // the Pricing column of Chat: Manage Language Models: only with a known price
    assert.equal(text.pricing, undefined);
    // short enough for the column's first cell (the e2e spend suite reads it whole); the whole price in the tooltip
    const priced = modelInformation(builtin('long-context-tools'), 'stable', { input: 1, output: 8, cacheRead: 0.25 });
    assert.equal(priced.pricing, '$1/$8');
    assert.match(priced.tooltip, /Price per 1M tokens: \$1 in, \$8 out, \$0\.25 cached\.$/);
    assert.doesNotMatch(text.tooltip, /Price per 1M/);
  });

  it('a window the gateway named in an overflow error: the limits follow it and the tooltip says where it came from', () => {
    const learned = modelInformation({ ...builtin('flagship-text'), contextWindow: 16_000 }, 'default', undefined, 1_000_000);
    assert.equal(learned.maxInputTokens + learned.maxOutputTokens, 16_000);
    assert.match(learned.tooltip, /16K token context/);
    assert.match(learned.tooltip, /takes at most 16,000 tokens here, not the 1,000,000 the settings or its model list give\./);
    assert.doesNotMatch(modelInformation(builtin('flagship-text'), 'default', undefined, 1_000_000).tooltip, /overflow error/);
  });
});
