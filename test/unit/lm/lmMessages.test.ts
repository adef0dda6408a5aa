// The vscode.lm -> wire mapping, through the plain shapes that vscodeParts.ts produces from
// VS Code's classes (which cannot be constructed outside VS Code).
import * as assert from 'node:assert/strict';
import { LmInputError, toWireMessages, toolResultText, type LmMessage, type LmTargetModel } from '../../../src/lm/lmMessages';
import { estimateLmMessageTokens } from '../../../src/lm/lmTokens';
import { IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS, estimateTokens } from '../../../src/core/prompt/tokens';

const TEXT_ONLY: LmTargetModel = { id: 'flagship-text', label: 'Flagship (text)', imageInput: false };
const VISION: LmTargetModel = { id: 'long-context-tools', label: 'Long context + images', imageInput: true };

// A real 1x1 PNG (signature, IHDR, IDAT, IEND).
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64'));
const utf8 = (s: string) => new TextEncoder().encode(s);

const user = (...parts: LmMessage['parts']): LmMessage => ({ role: 'user', parts });
const assistant = (...parts: LmMessage['parts']): LmMessage => ({ role: 'assistant', parts });
const text = (t: string) => ({ kind: 'text' as const, text: t });

describe('lm: messages to the wire', () => {
  it('maps roles and joins the text parts of a message into one string', () => {
    const wire = toWireMessages(
      [{ role: 'system', parts: [text('Be brief.')] }, user(text('hello '), text('world')), assistant(text('Hi.')), user(text('again'))],
      TEXT_ONLY,
    );
    assert.deepEqual(wire, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hello world' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'again' },
    ]);
  });

  it('turns assistant tool-call parts into tool_calls with JSON arguments, and results into tool messages', () => {
    const wire = toWireMessages(
      [
        user(text('look it up')),
        assistant(
          text('Let me check.'),
          { kind: 'toolCall', callId: 'call_1', name: 'lookup', input: { q: 'x' } },
          { kind: 'toolCall', callId: 'call_2', name: 'now', input: {} },
        ),
        user(
          {
            kind: 'toolResult',
            callId: 'call_1',
            content: [
              { kind: 'text', text: 'line 1' },
              { kind: 'text', text: 'line 2' },
            ],
          },
          { kind: 'toolResult', callId: 'call_2', content: [{ kind: 'text', text: '12:00' }] },
        ),
      ],
      TEXT_ONLY,
    );
    assert.deepEqual(wire, [
      { role: 'user', content: 'look it up' },
      {
        role: 'assistant',
        content: 'Let me check.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
          { id: 'call_2', type: 'function', function: { name: 'now', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'line 1\nline 2' },
      { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
    ]);
  });

  it('gives an assistant message with calls only null content, and puts tool messages before text of the same user message', () => {
    const wire = toWireMessages(
      [
        assistant({ kind: 'toolCall', callId: 'c', name: 'lookup', input: undefined }),
        user(text('and then?'), { kind: 'toolResult', callId: 'c', content: [] }),
      ],
      TEXT_ONLY,
    );
    assert.deepEqual(wire, [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c', content: '' },
      { role: 'user', content: 'and then?' },
    ]);
  });

  it('sends an image as a data: URL, by its bytes, to a model with image input', () => {
    const wire = toWireMessages([user(text('what is this?'), { kind: 'data', mimeType: 'image/jpeg', data: PNG })], VISION);
    assert.equal(wire.length, 1);
    const content = wire[0]!.content;
    assert.ok(Array.isArray(content));
    assert.deepEqual(content[0], { type: 'text', text: 'what is this?' });
    assert.deepEqual(content[1], { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString('base64')}` } });
  });

  it('refuses an image for a text-only model, naming the model', () => {
    assert.throws(
      () => toWireMessages([user(text('see'), { kind: 'data', mimeType: 'image/png', data: PNG })], TEXT_ONLY),
      (e: unknown) => e instanceof LmInputError && /Flagship \(text\) \(flagship-text\) accepts text only/.test(e.message),
    );
  });

  it('refuses bytes that are not an image format the gateway takes', () => {
    assert.throws(() => toWireMessages([user({ kind: 'data', mimeType: 'image/png', data: utf8('<svg/>') })], VISION), /not a PNG, JPEG, WebP or GIF/);
  });

  it('skips marker data parts, decodes text data, and refuses other binary content', () => {
    const wire = toWireMessages(
      [
        user(text('a'), { kind: 'data', mimeType: 'cache_control', data: utf8('ephemeral') }, { kind: 'data', mimeType: 'text/plain', data: utf8('b') }),
        assistant(text('ok'), { kind: 'data', mimeType: 'stateful_marker', data: utf8('x') }, { kind: 'ignored', what: 'thinking' }),
      ],
      TEXT_ONLY,
    );
    assert.deepEqual(wire, [
      { role: 'user', content: 'ab' },
      { role: 'assistant', content: 'ok' },
    ]);
    assert.throws(() => toWireMessages([user({ kind: 'data', mimeType: 'application/pdf', data: utf8('%PDF') })], VISION), /application\/pdf cannot be sent/);
  });

  it('writes tool results as text: prompt-tsx text extracted, images named rather than dropped', () => {
    const tsx = {
      node: {
        type: 1,
        children: [
          { type: 2, text: 'Hello ' },
          { type: 1, children: [{ type: 2, text: 'there' }] },
        ],
      },
    };
    assert.equal(toolResultText([{ kind: 'other', value: tsx }]), 'Hello there');
    assert.equal(toolResultText([{ kind: 'data', mimeType: 'application/json', data: utf8('{"a":1}') }]), '{"a":1}');
    assert.match(toolResultText([{ kind: 'data', mimeType: 'image/png', data: PNG }]), /^\[image\/png content of \d+ bytes omitted/);
  });

  it('refuses parts in the wrong message (a call in a user message, a result in an assistant message)', () => {
    assert.throws(() => toWireMessages([user({ kind: 'toolCall', callId: 'c', name: 'x', input: {} })], TEXT_ONLY), LmInputError);
    assert.throws(() => toWireMessages([assistant({ kind: 'toolResult', callId: 'c', content: [] })], TEXT_ONLY), LmInputError);
  });

  it('estimates tokens per part without encoding images', () => {
    assert.equal(estimateLmMessageTokens(user(text('abcd'))), MESSAGE_OVERHEAD_TOKENS + 1);
    assert.equal(estimateLmMessageTokens(user(text('abcd'), { kind: 'data', mimeType: 'image/png', data: PNG })), MESSAGE_OVERHEAD_TOKENS + 1 + IMAGE_TOKENS);
    const call = estimateLmMessageTokens(assistant({ kind: 'toolCall', callId: 'c', name: 'lookup', input: { q: 'x' } }));
    assert.equal(call, MESSAGE_OVERHEAD_TOKENS + estimateTokens('lookup') + estimateTokens('{"q":"x"}') + 4);
  });
});
