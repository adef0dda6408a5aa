import * as assert from 'node:assert/strict';
import { chat, readStream, useGateway, user } from './helpers';

const tools = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
  { type: 'function', function: { name: 'search', parameters: {} } },
];

/** Rebuilds tool calls from streamed fragments the way a client must: by index. */
function assemble(chunks: any[]): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const c of chunks) {
    for (const tc of c.choices?.[0]?.delta?.tool_calls ?? []) {
      const call = (calls[tc.index] ??= { id: '', name: '', arguments: '' });
      if (tc.id) call.id = tc.id;
      if (tc.function?.name) call.name = tc.function.name;
      if (tc.function?.arguments) call.arguments += tc.function.arguments;
    }
  }
  return calls;
}

describe('gateway simulator: tool calls', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();
  const ask = '[[call:read_file {"path":"src/a.ts"}]] and [[call:search {"query":"TODO ]] here","limit":10}]]';

  it('streams parallel calls: ids and names once, then argument fragments interleaved by index', async () => {
    const s = await readStream(await chat(ctx.gw, { tools, messages: [user(ask)] }));
    assert.ok(s.done);
    const fragments = s.chunks.flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []);
    // The first fragment of each call carries id, type, name and empty arguments.
    const heads = fragments.filter((f: any) => f.id);
    assert.deepEqual(
      heads.map((f: any) => [f.index, f.id, f.type, f.function.name, f.function.arguments]),
      [
        [0, 'call_1', 'function', 'read_file', ''],
        [1, 'call_2', 'function', 'search', ''],
      ],
    );
    // Later fragments carry only index + a piece of arguments, alternating between the calls.
    const rest = fragments.filter((f: any) => !f.id);
    assert.ok(rest.every((f: any) => f.function.name === undefined && typeof f.function.arguments === 'string'));
    const order = rest.map((f: any) => f.index).slice(0, 4);
    assert.deepEqual(order, [0, 1, 0, 1]);
    assert.ok(rest.filter((f: any) => f.index === 0).length > 2, 'arguments arrive in several pieces');

    assert.deepEqual(assemble(s.chunks), [
      { id: 'call_1', name: 'read_file', arguments: '{"path":"src/a.ts"}' },
      { id: 'call_2', name: 'search', arguments: '{"query":"TODO ]] here","limit":10}' },
    ]);
    const finish = s.chunks.find((c) => c.choices?.[0]?.finish_reason);
    assert.equal(finish.choices[0].finish_reason, 'tool_calls');
    assert.equal(s.text, '');
  });

  it('answers stream:false with message.tool_calls', async () => {
    const body = (await (await chat(ctx.gw, { stream: false, tools, messages: [user(ask)] })).json()) as any;
    assert.equal(body.choices[0].finish_reason, 'tool_calls');
    assert.equal(body.choices[0].message.content, null);
    assert.deepEqual(body.choices[0].message.tool_calls, [
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } },
      { id: 'call_2', type: 'function', function: { name: 'search', arguments: '{"query":"TODO ]] here","limit":10}' } },
    ]);
  });

  it('passes arguments through verbatim, even when they are not JSON', async () => {
    const body = (await (await chat(ctx.gw, { stream: false, tools, messages: [user('[[call:read_file {"path": "unterminated]]')] })).json()) as any;
    assert.equal(body.choices[0].message.tool_calls[0].function.arguments, '{"path": "unterminated');
  });

  it('summarises tool results so tests can see they reached the model', async () => {
    const messages = [
      user(ask),
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } },
          { id: 'call_2', type: 'function', function: { name: 'search', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'export const a = 1;\nexport const b = 2;\n' },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'no `matches`' }] },
    ];
    const s = await readStream(await chat(ctx.gw, { tools, messages }));
    assert.equal(
      s.text,
      'Tool read_file returned 40 characters. First line: `export const a = 1;`\n\n' + 'Tool search returned 12 characters. First line: `` no `matches` ``',
    );
    assert.equal(s.chunks.find((c) => c.choices?.[0]?.finish_reason)?.choices[0].finish_reason, 'stop');
  });

  it('says so in text when the marker names a tool that was not offered', async () => {
    const body = (await (await chat(ctx.gw, { stream: false, tools, messages: [user('[[call:delete_everything {}]]')] })).json()) as any;
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.match(body.choices[0].message.content, /cannot call `delete_everything`/);
    const none = (await (await chat(ctx.gw, { stream: false, messages: [user('[[call:read_file {}]]')] })).json()) as any;
    assert.match(none.choices[0].message.content, /No tools were offered/);
  });

  it('calls only the offered names when a marker list mixes known and unknown', async () => {
    const body = (await (await chat(ctx.gw, { stream: false, tools, messages: [user('[[call:nope {}]] [[call:search {"q":1}]]')] })).json()) as any;
    assert.deepEqual(
      body.choices[0].message.tool_calls.map((c: any) => c.function.name),
      ['search'],
    );
  });

  it('makes no calls with tool_choice none, and calls the named tool when forced', async () => {
    const none = (await (await chat(ctx.gw, { stream: false, tools, tool_choice: 'none', messages: [user(ask)] })).json()) as any;
    assert.equal(none.choices[0].finish_reason, 'stop');
    const forced = (await (
      await chat(ctx.gw, { stream: false, tools, tool_choice: { type: 'function', function: { name: 'search' } }, messages: [user('hello')] })
    ).json()) as any;
    assert.equal(forced.choices[0].message.tool_calls[0].function.name, 'search');
  });

  it('repeats the calls for [[rounds:N]] rounds with fresh ids, then answers', async () => {
    const question = user('[[rounds:2]] [[call:read_file {"path":"a"}]]');
    const messages: any[] = [question];
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      const body = (await (await chat(ctx.gw, { stream: false, tools, messages })).json()) as any;
      const msg = body.choices[0].message;
      if (round === 2) {
        assert.equal(body.choices[0].finish_reason, 'stop');
        assert.match(msg.content, /^Tool read_file returned 7 characters/);
        break;
      }
      assert.equal(body.choices[0].finish_reason, 'tool_calls', `round ${round}`);
      ids.push(msg.tool_calls[0].id);
      messages.push(msg, { role: 'tool', tool_call_id: msg.tool_calls[0].id, content: 'content' });
    }
    assert.deepEqual(ids, ['call_1', 'call_2']);
  });
});
