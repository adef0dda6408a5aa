import * as assert from 'node:assert/strict';
import { chat, errorOf, images, useGateway, user } from './helpers';

const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgo=';

describe('gateway simulator: request validation', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();

  const chatCases: { name: string; body: Record<string, unknown>; param: string | null; code?: string }[] = [
    { name: 'unknown model', body: { model: 'gpt-unknown', messages: [user('hi')] }, param: 'model', code: 'model_not_found' },
    { name: 'an image model on the chat endpoint', body: { model: 'image-small', messages: [user('hi')] }, param: 'model', code: 'model_not_found' },
    { name: 'missing model', body: { model: undefined, messages: [user('hi')] }, param: 'model', code: 'missing_required_parameter' },
    { name: 'missing messages', body: {}, param: 'messages', code: 'missing_required_parameter' },
    { name: 'empty messages', body: { messages: [] }, param: 'messages' },
    { name: 'unknown role', body: { messages: [{ role: 'bot', content: 'hi' }] }, param: 'messages[0].role' },
    { name: 'developer role', body: { messages: [{ role: 'developer', content: 'hi' }] }, param: 'messages[0].role' },
    { name: 'content of the wrong type', body: { messages: [{ role: 'user', content: 42 }] }, param: 'messages[0].content' },
    {
      name: 'image input to the text-only model',
      body: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this' },
              { type: 'image_url', image_url: { url: PNG_DATA_URL } },
            ],
          },
        ],
      },
      param: 'messages[0].content[1]',
      code: 'unsupported_content',
    },
    {
      name: 'an image URL that is raw base64 without a data: prefix',
      body: { model: 'long-context-tools', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'iVBORw0KGgo=' } }] }] },
      param: 'messages[0].content[0].image_url.url',
      code: 'invalid_image_url',
    },
    { name: 'unknown channel', body: { provider: { channel: 'fastest' }, messages: [user('hi')] }, param: 'provider.channel', code: 'unsupported_channel' },
    { name: 'max_tokens beyond the model maximum', body: { max_tokens: 128_001, messages: [user('hi')] }, param: 'max_tokens' },
    {
      name: 'max_completion_tokens beyond the model maximum',
      body: { max_completion_tokens: 200_000, messages: [user('hi')] },
      param: 'max_completion_tokens',
    },
    { name: 'non-integer max_tokens', body: { max_tokens: 1.5, messages: [user('hi')] }, param: 'max_tokens' },
    { name: 'stream that is not a boolean', body: { stream: 'yes', messages: [user('hi')] }, param: 'stream' },
    { name: 'an empty tools array', body: { tools: [], messages: [user('hi')] }, param: 'tools' },
    {
      name: 'a tool with an invalid name',
      body: { tools: [{ type: 'function', function: { name: 'read file' } }], messages: [user('hi')] },
      param: 'tools[0].function.name',
    },
    { name: 'tool_choice without tools', body: { tool_choice: 'auto', messages: [user('hi')] }, param: 'tool_choice' },
    {
      name: 'tool call arguments sent as an object',
      body: {
        messages: [
          user('hi'),
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: { a: 1 } } }] },
        ],
      },
      param: 'messages[1].tool_calls[0].function.arguments',
    },
    {
      name: 'a tool message that answers no call',
      body: { messages: [user('hi'), { role: 'tool', tool_call_id: 'call_9', content: 'x' }] },
      param: 'messages[1].tool_call_id',
    },
    {
      name: 'a tool call left without an answer',
      body: {
        messages: [
          user('hi'),
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          user('never mind'),
        ],
      },
      param: 'messages[2].role',
    },
    { name: 'an assistant message with neither content nor tool_calls', body: { messages: [user('hi'), { role: 'assistant' }] }, param: 'messages[1].content' },
  ];

  for (const c of chatCases) {
    it(`chat: 400 for ${c.name}`, async () => {
      const res = await chat(ctx.gw, c.body);
      assert.equal(res.status, 400);
      const error = await errorOf(res);
      assert.equal(error.type, 'invalid_request_error');
      assert.equal(error.param, c.param);
      if (c.code) assert.equal(error.code, c.code);
      assert.ok(error.message.length > 10);
    });
  }

  it('chat: 400 context_length_exceeded for a prompt over the context window', async () => {
    const res = await chat(ctx.gw, { stream: false, messages: [user('x'.repeat(4_000_100))] });
    assert.equal(res.status, 400);
    assert.equal((await errorOf(res)).code, 'context_length_exceeded');
    const ok = await chat(ctx.gw, { model: 'long-context-tools', stream: false, messages: [user('[[words:3]] ' + 'x'.repeat(4_000_100))] });
    assert.equal(ok.status, 200);
  });

  it('chat: accepts image input on long-context-tools and tells what it received', async () => {
    const res = await chat(ctx.gw, {
      model: 'long-context-tools',
      stream: false,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'describe' },
            { type: 'image_url', image_url: { url: PNG_DATA_URL, detail: 'low' } },
          ],
        },
      ],
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    assert.match(body.choices[0]!.message.content, /I received 1 image: image\/png \(8 bytes\)/);
  });

  it('chat: accepts unknown extra fields and the optional OpenAI parameters', async () => {
    const res = await chat(ctx.gw, { stream: false, temperature: 0.2, top_p: 1, stop: ['\n\n\n'], user: 'u1', seed: 7, messages: [user('hi')] });
    assert.equal(res.status, 200);
  });

  const imageCases: { name: string; body: Record<string, unknown>; param: string; code?: string }[] = [
    { name: 'unknown image model', body: { model: 'image-huge' }, param: 'model', code: 'model_not_found' },
    { name: 'a chat model on the image endpoint', body: { model: 'flagship-text' }, param: 'model', code: 'model_not_found' },
    { name: 'missing prompt', body: { prompt: undefined }, param: 'prompt', code: 'missing_required_parameter' },
    { name: 'empty prompt', body: { prompt: '' }, param: 'prompt' },
    { name: 'n > 1 on the restricted model', body: { n: 2 }, param: 'n' },
    { name: 'n = 0', body: { model: 'image-small', n: 0 }, param: 'n' },
    { name: 'n > 10 on the small model', body: { model: 'image-small', n: 11 }, param: 'n' },
    { name: 'a small size on the restricted model', body: { size: '256x256' }, param: 'size' },
    { name: 'a wide size on the small model', body: { model: 'image-small', size: '1792x1024' }, param: 'size' },
    { name: 'a size that does not exist', body: { size: '1000x1000' }, param: 'size' },
    { name: 'an invalid quality', body: { quality: 'ultra' }, param: 'quality' },
    { name: 'an invalid style', body: { style: 'cartoon' }, param: 'style' },
    { name: 'quality on the small model', body: { model: 'image-small', quality: 'standard' }, param: 'quality', code: 'unsupported_parameter' },
    { name: 'style on the small model', body: { model: 'image-small', style: 'vivid' }, param: 'style', code: 'unsupported_parameter' },
    { name: 'an invalid response_format', body: { response_format: 'png' }, param: 'response_format' },
    { name: 'unknown channel', body: { provider: { channel: 'cheap' } }, param: 'provider.channel', code: 'unsupported_channel' },
  ];

  for (const c of imageCases) {
    it(`images: 400 for ${c.name}`, async () => {
      const res = await images(ctx.gw, c.body);
      assert.equal(res.status, 400);
      const error = await errorOf(res);
      assert.equal(error.type, 'invalid_request_error');
      assert.equal(error.param, c.param);
      if (c.code) assert.equal(error.code, c.code);
    });
  }

  it('images: null n, size and style mean the defaults', async () => {
    const res = await images(ctx.gw, { n: null, size: null, style: null, response_format: 'b64_json' });
    assert.equal(res.status, 200);
    const small = await images(ctx.gw, { model: 'image-small', size: '256x256', style: null, response_format: 'b64_json' });
    assert.equal(small.status, 200);
  });
});
