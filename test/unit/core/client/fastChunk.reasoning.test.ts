// The fast path for reasoning-only chunks (fastChunk.ts): a template learnt from a chunk that
// carries only reasoning reads later chunks of the same shape without JSON.parse, with the same
// result as the full path (the stream corpus compares both paths on every transcript).
import * as assert from 'node:assert/strict';
import { FastChunks } from '../../../../src/core/client/fastChunk';

const chunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });

describe('core/fastChunk: reasoning templates', () => {
  it('learns DeepSeek’s reasoning_content chunk and reads the next ones (escapes included)', () => {
    const f = new FastChunks();
    f.learn(chunk({ content: null, reasoning_content: 'Okay' }), JSON.parse(chunk({ content: null, reasoning_content: 'Okay' })));
    assert.deepEqual(f.reasoning(chunk({ content: null, reasoning_content: 'a "quoted" \n line é' }), false), {
      text: 'a "quoted" \n line é',
      field: 'reasoning_content',
    });
    assert.equal(f.content(chunk({ content: null, reasoning_content: 'x' }), false), undefined, 'not a content template');
    assert.equal(f.reasoning(chunk({ content: 'text', reasoning_content: 'x' }), false), undefined, 'content beside it: the full path');
    assert.equal(f.reasoning(chunk({ content: null, reasoning_content: 'x' }, 'stop'), false), undefined, 'a finish: the full path');
  });

  it('learns vLLM’s `reasoning` only without reasoning_content, and never from a chunk with content text, tool calls or details', () => {
    const learn = (delta: object) => {
      const f = new FastChunks();
      f.learn(chunk(delta), JSON.parse(chunk(delta)));
      return f;
    };
    assert.deepEqual(learn({ reasoning: 'Think' }).reasoning(chunk({ reasoning: 'ing' }), false), { text: 'ing', field: 'reasoning' });
    assert.equal(
      learn({ reasoning: 'a', reasoning_content: 'b' }).reasoning(chunk({ reasoning: 'a', reasoning_content: 'c' }), false)?.field,
      'reasoning_content',
    );
    assert.equal(
      learn({ reasoning: 'a', reasoning_details: [{ type: 'reasoning.text', text: 'a' }] }).reasoning(
        chunk({ reasoning: 'b', reasoning_details: [{ type: 'reasoning.text', text: 'a' }] }),
        false,
      ),
      undefined,
    );
    assert.equal(
      learn({ reasoning_content: 'a', tool_calls: [{ index: 0, function: { arguments: '{' } }] }).reasoning(
        chunk({ reasoning_content: 'b', tool_calls: [{ index: 0, function: { arguments: '{' } }] }),
        false,
      ),
      undefined,
    );
  });
});
