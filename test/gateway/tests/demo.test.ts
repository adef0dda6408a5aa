import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY, useGateway, user } from './helpers';
import { CONSOLE_PATH, TOP_UP_USD } from '../console-page';

const tools = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
];
const sample = (rel: string) => readFileSync(join(__dirname, '../../../../test/demo/sample', rel), 'utf8');

async function ask(
  baseUrl: string,
  messages: unknown[],
): Promise<{ content: string | null; reasoning_content?: string; tool_calls?: { id: string; function: { name: string; arguments: string } }[] }> {
  const res = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: 'flagship-text', stream: false, tools, messages }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { choices: { message: never }[] }).choices[0]!.message;
}

describe('gateway simulator: the demo', function () {
  this.timeout(30_000);
  const demo = useGateway({ demo: true });
  const plain = useGateway();

  it('a question about mean() reads src/math.ts, thinks, then explains it and proposes a fix in a block that names the file', async () => {
    const question = user('What does mean() do?');
    const first = await ask(demo.gw.baseUrl, [question]);
    assert.equal(first.tool_calls?.length, 1);
    assert.equal(first.tool_calls![0]!.function.name, 'read_file');
    assert.deepEqual(JSON.parse(first.tool_calls![0]!.function.arguments), { path: 'src/math.ts' });
    assert.match(first.reasoning_content ?? '', /read that file first/);
    const math = sample('src/math.ts');
    // the tool-call message goes back with its reasoning, as a thinking model wants it
    const read = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: first.tool_calls![0]!.id, type: 'function', function: first.tool_calls![0]!.function }],
      reasoning_content: first.reasoning_content,
    };
    const result = { role: 'tool', tool_call_id: first.tool_calls![0]!.id, content: `src/math.ts (lines 1-7 of 7)\n${math}` };
    const second = await ask(demo.gw.baseUrl, [question, read, result]);
    assert.match(second.content!, /`mean\(xs\)` adds the numbers up/);
    const block = /```ts src\/math\.ts\n([\s\S]*?)\n```/.exec(second.content!);
    assert.ok(block, second.content!);
    assert.match(block[1]!, /^export function mean\(xs: number\[\]\): number \{/);
    assert.doesNotMatch(block[1]!, /function add/);
    assert.match(second.reasoning_content ?? '', /empty array/);
    // a file without mean() any more: no made-up explanation
    const gone = await ask(demo.gw.baseUrl, [
      question,
      { ...read, tool_calls: [{ id: 'c1', type: 'function', function: first.tool_calls![0]!.function }] },
      { role: 'tool', tool_call_id: 'c1', content: 'src/math.ts (lines 1-3 of 3)\nexport const x = 1;' },
    ]);
    assert.match(gone.content!, /has no `mean\(\)` function any more/);
    // the demo's model follows Kimi's rule: the next question, with the first turn's reasoning, is answered...
    const answered = { role: 'assistant', content: second.content };
    const next = await ask(demo.gw.baseUrl, [question, read, result, answered, user('Explain the add function.')]);
    assert.equal(next.tool_calls?.[0]?.function.name, 'read_file');
    // ...and refused without it
    const { reasoning_content: _dropped, ...bare } = read;
    const refused = await fetch(`${demo.gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'flagship-text', stream: false, tools, messages: [question, bare, result, answered, user('Explain the add function.')] }),
    });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /reasoning_content in the thinking mode must be passed back/);
  });

  it('anything else gets the demo guide; test markers still drive the answer; outside the demo nothing changes', async () => {
    assert.match((await ask(demo.gw.baseUrl, [user('Hello')])).content!, /answers are scripted/);
    assert.equal((await ask(demo.gw.baseUrl, [user('[[echo]] just this')])).content, 'just this');
    const notDemo = await ask(plain.gw.baseUrl, [user('What does mean() do?')]);
    assert.equal(notDemo.tool_calls, undefined);
    assert.doesNotMatch(notDemo.content!, /scripted/);
  });

  it('serves a console page whose top-up adds to the balance (the demo only)', async () => {
    const origin = demo.gw.baseUrl.replace(/\/v1$/, '');
    const before = demo.gw.balance(KEY);
    const page = await fetch(`${origin}${CONSOLE_PATH}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Gateway console/);
    assert.ok(!html.includes(KEY), 'the key is masked');
    // relative, so the form works behind code-server's port proxy (/proxy/PORT/console) too
    assert.match(html, /<form method="post" action="console\/top-up">/);
    const topUp = await fetch(`${origin}${CONSOLE_PATH}/top-up`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'key=0',
    });
    assert.equal(topUp.status, 200);
    const after = await topUp.text();
    assert.match(after, /Added \$10/);
    assert.match(after, /<form method="post" action="top-up">/, 'from /console/top-up the next top-up posts to the same address');
    assert.equal(demo.gw.balance(KEY), before + TOP_UP_USD);
    assert.equal((await fetch(`${plain.gw.baseUrl.replace(/\/v1$/, '')}${CONSOLE_PATH}`)).status, 404);
  });
});
