import * as assert from 'node:assert/strict';
import { transcript } from '../streamCorpus/index';
import { chat, errorOf, KEY, useGateway, user } from './helpers';

describe('gateway simulator: [[replay:NAME]] (the stream corpus)', function () {
  this.timeout(30_000);
  const ctx = useGateway();

  it('sends the transcript byte for byte and charges its usage', async () => {
    const t = transcript('kimi-thinking-text')!;
    const before = ctx.gw.balance(KEY);
    const res = await chat(ctx.gw, { messages: [user('Hi [[replay:kimi-thinking-text]]')] });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    assert.equal(await res.text(), t.body);
    assert.ok(ctx.gw.balance(KEY) < before, 'charged');
  });

  it('answers the follow-up of a tool round as usual, and refuses an unknown name', async () => {
    const res = await chat(ctx.gw, {
      stream: false,
      tools: [{ type: 'function', function: { name: 'list_files', parameters: { type: 'object' } } }],
      messages: [
        user('Files? [[replay:deepseek-thinking-tools]]'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_00_Jk3vN8qLr2', type: 'function', function: { name: 'list_files', arguments: '{"path": "."}' } }],
        },
        { role: 'tool', tool_call_id: 'call_00_Jk3vN8qLr2', content: 'README.md' },
      ],
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    assert.match(body.choices[0]!.message.content, /Tool list_files returned/);
    const bad = await chat(ctx.gw, { messages: [user('[[replay:no-such-thing]]')] });
    assert.equal(bad.status, 400);
    assert.match((await errorOf(bad)).message, /No transcript named no-such-thing/);
  });
});
