import * as assert from 'node:assert/strict';
import { baseModelId, modelFamily } from '../../../src/lm/modelFamily';

describe('lm: model family', () => {
  it('reports the families VS Code knows, from gateway ids with vendors, dates and tags', () => {
    const cases: [string, string][] = [
      ['openai/gpt-4o-2024-08-06', 'gpt-4o'],
      ['gpt-4o-mini', 'gpt-4o-mini'],
      ['gpt-4.1', 'gpt-4.1'],
      ['gpt-4.1-mini-2025-04-14', 'gpt-4.1-mini'],
      ['gpt-5', 'gpt-5'],
      ['openai/gpt-5-mini', 'gpt-5-mini'],
      ['gpt-5.1-codex', 'gpt-5.1-codex'],
      ['o3', 'o3'],
      ['o4-mini', 'o4-mini'],
      ['anthropic/claude-sonnet-4-20250514', 'claude-sonnet-4'],
      ['claude-sonnet-4-5', 'claude-sonnet-4.5'],
      ['claude-opus-4.1', 'claude-opus-4.1'],
      ['claude-3-5-sonnet-latest', 'claude-3.5-sonnet'],
      ['claude-3-7-sonnet-20250219', 'claude-3.7-sonnet'],
      ['google/gemini-2.5-pro', 'gemini-2.5-pro'],
      ['gemini-2.0-flash-lite', 'gemini-2.0-flash-lite'],
    ];
    for (const [id, family] of cases) assert.equal(modelFamily(id), family, id);
  });

  it('keeps an unknown id as its own family (cleaned)', () => {
    assert.equal(modelFamily('flagship-text'), 'flagship-text');
    assert.equal(modelFamily('deepseek/deepseek-chat'), 'deepseek-chat');
    assert.equal(modelFamily('o3x-custom'), 'o3x-custom');
    assert.equal(baseModelId('Qwen/Qwen3-Coder:free'), 'qwen3-coder');
  });
});
