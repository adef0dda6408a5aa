import * as assert from 'node:assert/strict';
import {
  estimateMessageTokens,
  estimateRequestTokens,
  estimateTokens,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  outputReserve,
} from '../../../../src/core/prompt/tokens';

describe('chat: token estimates', () => {
  it('counts prose at about 4 characters per token', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('The quick brown fox jumps over the lazy dog'), Math.ceil(43 / 4));
    const prose = 'word '.repeat(1000);
    assert.equal(estimateTokens(prose), 1250);
  });

  it('counts punctuation-heavy code higher than prose of the same length', () => {
    const code = 'f(a,b);{x[0]=y.z;}'.repeat(100);
    const prose = 'abcdefghijklmnopqr'.repeat(100);
    assert.equal(code.length, prose.length);
    assert.ok(estimateTokens(code) > estimateTokens(prose) * 1.5, `${estimateTokens(code)} vs ${estimateTokens(prose)}`);
    // symbols are half a token each: "();" = 1.5 -> 2
    assert.equal(estimateTokens('();'), 2);
  });

  it('counts a non-ASCII character as a whole token (CJK, emoji)', () => {
    assert.equal(estimateTokens('日本語'), 3);
    assert.equal(estimateTokens('😀'), 1); // one code point, though two UTF-16 units
  });

  it('adds framing per message, tool calls, and a flat cost per image', () => {
    assert.equal(estimateMessageTokens({ role: 'user', content: 'abcd' }), MESSAGE_OVERHEAD_TOKENS + 1);
    const withImage = estimateMessageTokens({
      role: 'user',
      content: [
        { type: 'text', text: 'abcd' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,' + 'A'.repeat(100_000) } },
      ],
    });
    assert.equal(withImage, MESSAGE_OVERHEAD_TOKENS + 1 + IMAGE_TOKENS);
    const call = estimateMessageTokens({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: '1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }],
    });
    assert.ok(call > MESSAGE_OVERHEAD_TOKENS + 4);
  });

  it('includes the tool definitions of a request', () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const tools = [{ type: 'function' as const, function: { name: 'read_file', description: 'Read a file of the workspace', parameters: { type: 'object' } } }];
    assert.ok(estimateRequestTokens(messages, tools) > estimateRequestTokens(messages) + 10);
  });

  it('keeps a reserve for the answer that never swallows the window', () => {
    assert.equal(outputReserve(1_000_000, 128_000), 8_192);
    assert.equal(outputReserve(2_000_000, 2_000_000), 8_192);
    assert.equal(outputReserve(8_000, 8_000), 2_000);
    assert.equal(outputReserve(128_000, 4_096), 4_096);
  });
});
