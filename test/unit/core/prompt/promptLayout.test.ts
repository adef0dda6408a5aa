import * as assert from 'node:assert/strict';
import {
  canonicalMessage,
  fenceFor,
  hasImages,
  imagesOf,
  layoutPrompt,
  pinnedMessage,
  replayReasoning,
  systemMessage,
  userMessage,
  type PinnedFile,
} from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage } from '../../../../src/core/client/types';

const SYSTEM = 'You are a test assistant.';
const pinned: PinnedFile[] = [
  { path: 'src/a.ts', language: 'typescript', content: 'export const a = 1;\n' },
  { path: 'README.md', language: 'markdown', content: '# Title\n```js\nx()\n```\n' },
];

/** What the gateway simulator compares for its prefix cache: JSON of tools, then messages. */
const serialize = (messages: ChatMessage[]) => JSON.stringify(messages);

describe('chat: prompt layout for the prefix cache', () => {
  it('puts the system prompt and the pinned files first, in attach order', () => {
    const m = layoutPrompt({ systemPrompt: SYSTEM, pinned, history: [userMessage('hi')] });
    assert.equal(m[0]!.role, 'system');
    const content = m[0]!.content as string;
    assert.ok(content.startsWith(SYSTEM));
    assert.ok(content.indexOf('File: src/a.ts') < content.indexOf('File: README.md'));
    assert.ok(content.includes('export const a = 1;'));
    assert.deepEqual(m[1], { role: 'user', content: 'hi' });
  });

  it('fences file content so a ``` inside it cannot close the block', () => {
    assert.equal(fenceFor('no ticks'), '```');
    assert.equal(fenceFor('a ``` b'), '````');
    assert.equal(fenceFor('``````'), '```````');
    const content = systemMessage(SYSTEM, [pinned[1]!]).content as string;
    assert.ok(content.includes('````markdown\n# Title\n```js\nx()\n```\n````'), content);
  });

  it('keeps the prefix byte-stable across turns: each request starts with the whole previous one', () => {
    const turn1 = [userMessage('First question', [{ title: 'Selection from src/a.ts, line 1', language: 'typescript', text: 'export const a = 1;' }])];
    const r1 = layoutPrompt({ systemPrompt: SYSTEM, pinned, history: turn1 });
    const turn2 = [
      ...turn1,
      { role: 'assistant', content: 'An answer.' } as ChatMessage,
      userMessage('Second question', [{ title: 'Selection from src/b.ts, line 3', text: 'other' }]),
    ];
    const r2 = layoutPrompt({ systemPrompt: SYSTEM, pinned, history: turn2 });
    const s1 = serialize(r1);
    const s2 = serialize(r2);
    // everything but the closing bracket of turn 1 is a prefix of turn 2
    assert.ok(s2.startsWith(s1.slice(0, -1)), 'turn 2 does not start with turn 1');
    // and the system message is identical
    assert.deepEqual(r2[0], r1[0]);
  });

  it('puts volatile context only into the newest user message', () => {
    const selection = { title: 'Selection from src/a.ts, lines 1-2', language: 'typescript', text: 'VOLATILE_SELECTION_TEXT' };
    const history = [userMessage('earlier'), { role: 'assistant', content: 'ok' } as ChatMessage, userMessage('now', [selection])];
    const m = layoutPrompt({ systemPrompt: SYSTEM, pinned, history });
    const holders = m.filter((x) => JSON.stringify(x).includes('VOLATILE_SELECTION_TEXT'));
    assert.equal(holders.length, 1);
    assert.equal(holders[0], m[m.length - 1]);
    const last = m[m.length - 1]!.content as string;
    // context first, the question last
    assert.ok(last.indexOf('VOLATILE_SELECTION_TEXT') < last.indexOf('now'));
    assert.ok(last.endsWith('now'));
  });

  it('sends a message without context or images as the plain text', () => {
    assert.deepEqual(userMessage('[[echo]] **bold**'), { role: 'user', content: '[[echo]] **bold**' });
  });

  it('sends images as image_url content parts with data URLs', () => {
    const m = userMessage('what is this?', [], [{ dataUrl: 'data:image/png;base64,AAAA' }]);
    assert.deepEqual(m.content, [
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ]);
    assert.deepEqual(imagesOf(m), [{ dataUrl: 'data:image/png;base64,AAAA' }]);
    assert.equal(hasImages([userMessage('x'), m]), true);
    assert.equal(hasImages([userMessage('x')]), false);
  });

  it('replays tool rounds exactly: assistant tool_calls, tool results, then the answer', () => {
    const calls: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"src/a.ts"}' } },
        { id: 'call_2', type: 'function', function: { name: 'list_files', arguments: '{}' } },
      ],
    };
    const history: ChatMessage[] = [
      userMessage('read it'),
      calls,
      { role: 'tool', tool_call_id: 'call_1', content: 'export const a = 1;' },
      { role: 'tool', tool_call_id: 'call_2', content: 'src/a.ts' },
      { role: 'assistant', content: 'It exports a.' },
      userMessage('thanks'),
    ];
    const m = layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history });
    assert.deepEqual(m.slice(1), history);
    assert.deepEqual(
      m.map((x) => x.role),
      ['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user'],
    );
  });

  it('serializes a message that went through storage (other key order) to the same bytes', () => {
    const original: ChatMessage = {
      role: 'assistant',
      content: 'x',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'n', arguments: '{}' } }],
    };
    const shuffled = JSON.parse(
      '{"tool_calls":[{"function":{"arguments":"{}","name":"n"},"type":"function","id":"c"}],"content":"x","role":"assistant"}',
    ) as ChatMessage;
    assert.notEqual(JSON.stringify(shuffled), JSON.stringify(original));
    assert.equal(JSON.stringify(canonicalMessage(shuffled)), JSON.stringify(canonicalMessage(original)));
    assert.equal(
      JSON.stringify(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [shuffled] })),
      JSON.stringify(layoutPrompt({ systemPrompt: SYSTEM, pinned: [], history: [original] })),
    );
  });

  it('is deterministic: same input, same bytes (no clock, no randomness)', () => {
    const input = { systemPrompt: SYSTEM, pinned, history: [userMessage('q', [{ title: 't', text: 'x' }])] };
    assert.equal(serialize(layoutPrompt(input)), serialize(layoutPrompt(input)));
  });

  describe('a file pinned mid-conversation', () => {
    const turn1: ChatMessage[] = [userMessage('First question'), { role: 'assistant', content: 'First answer.' }];
    const late: PinnedFile = { path: 'src/late.ts', language: 'typescript', content: 'export const late = 2;\n' };

    it('goes after the turns already sent: the previous request, but for its newest message, is a byte prefix of the next', () => {
      const r1 = layoutPrompt({ systemPrompt: SYSTEM, pinned, history: turn1 });
      // pinned after the answer (at = 2 wire messages), then the next question
      const r2 = layoutPrompt({ systemPrompt: SYSTEM, pinned: [...pinned, { ...late, at: 2 }], history: [...turn1, userMessage('Second question')] });
      assert.deepEqual(r2[0], r1[0], 'the system message is not rewritten');
      assert.ok(serialize(r2).startsWith(serialize(r1).slice(0, -1)), 'turn 2 starts with the whole of turn 1');
      assert.deepEqual(r2.slice(r1.length), [pinnedMessage([late]), { role: 'user', content: 'Second question' }]);
      assert.ok(!JSON.stringify(r2[0]).includes('late.ts'));
      // and turn 3 starts with the whole of turn 2: the pin stays where it was
      const r3 = layoutPrompt({
        systemPrompt: SYSTEM,
        pinned: [...pinned, { ...late, at: 2 }],
        history: [...turn1, userMessage('Second question'), { role: 'assistant', content: 'Second answer.' }, userMessage('Third')],
      });
      assert.ok(serialize(r3).startsWith(serialize(r2).slice(0, -1)), 'turn 3 starts with the whole of turn 2');
    });

    it('shares one message with files pinned at the same point, in attach order; at 0 means the system message', () => {
      const other: PinnedFile = { path: 'b.md', content: 'b' };
      const m = layoutPrompt({
        systemPrompt: SYSTEM,
        pinned: [
          { ...late, at: 2 },
          { ...pinned[0]!, at: 0 },
          { ...other, at: 2 },
        ],
        history: [...turn1, userMessage('q')],
      });
      assert.deepEqual(
        m.map((x) => x.role),
        ['system', 'user', 'assistant', 'user', 'user'],
      );
      assert.ok((m[0]!.content as string).includes('File: src/a.ts'));
      const block = m[3]!.content as string;
      assert.ok(block.indexOf('File: src/late.ts') >= 0 && block.indexOf('File: src/late.ts') < block.indexOf('File: b.md'), block);
    });

    it('a position past the history lands at its end', () => {
      const m = layoutPrompt({ systemPrompt: SYSTEM, pinned: [{ ...late, at: 99 }], history: turn1 });
      assert.deepEqual(m.at(-1), pinnedMessage([late]));
      assert.equal(m.length, 4);
    });
  });
});

describe('core/promptLayout: the replay rule for reasoning', () => {
  const call = (id: string) => [{ id, type: 'function' as const, function: { name: 'f', arguments: '{}' } }];
  const turn1: ChatMessage[] = [
    { role: 'user', content: 'q1' },
    { role: 'assistant', content: null, tool_calls: call('c1'), reasoning_content: 'r1' },
    { role: 'tool', tool_call_id: 'c1', content: 'x' },
    { role: 'assistant', content: 'a1', reasoning_content: 'final-1' },
  ];

  it('layoutPrompt keeps the reasoning of every earlier tool-call message (Kimi refuses without), not of final answers', () => {
    const out = layoutPrompt({ systemPrompt: 's', pinned: [], history: [...turn1, { role: 'user', content: 'q2' }] });
    assert.deepEqual(
      out.map((m) => m.reasoning_content ?? null),
      [null, null, 'r1', null, null, null],
    );
    assert.equal(out[2]!.tool_calls?.length, 1, 'the tool round itself stays');
    // the bytes of the tool-call message are those the tool loop sent: same keys, same order
    assert.equal(JSON.stringify(out[2]), JSON.stringify({ role: 'assistant', content: null, tool_calls: call('c1'), reasoning_content: 'r1' }));
  });

  it('replayReasoning keeps it on every assistant message with tool calls, in the field it came in', () => {
    const loop: ChatMessage[] = [
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: null, tool_calls: call('c2'), reasoning: 'r2' },
      { role: 'tool', tool_call_id: 'c2', content: 'y' },
      // a vscode.lm caller's text beside the tool results: still the same loop
      { role: 'user', content: 'context beside the results' },
      { role: 'assistant', content: null, tool_calls: call('c3'), reasoning_content: 'r3' },
      { role: 'tool', tool_call_id: 'c3', content: 'z' },
    ];
    const out = replayReasoning([...turn1, ...loop]);
    assert.deepEqual(
      out.map((m) => m.reasoning_content ?? m.reasoning ?? null),
      [null, 'r1', null, null, null, 'r2', null, null, 'r3', null],
    );
    assert.equal(out[5]!.reasoning, 'r2');
    assert.equal(out[8]!.reasoning_content, 'r3');
    // a finished answer without tool calls never carries reasoning
    assert.equal(
      replayReasoning([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', reasoning_content: 'r' },
      ])[1]!.reasoning_content,
      undefined,
    );
  });

  it('canonicalMessage keeps reasoning on assistant messages with tool calls only', () => {
    assert.equal(canonicalMessage(turn1[1]!).reasoning_content, 'r1');
    assert.equal(canonicalMessage(turn1[3]!).reasoning_content, undefined);
  });
});
