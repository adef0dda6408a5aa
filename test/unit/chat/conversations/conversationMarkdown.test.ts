// The Markdown export writes every stored message (compacted or not) with whole tool results, and
// the summary where the compaction cut the history; a fence in a message cannot close the export's.
import * as assert from 'node:assert/strict';
import { conversationMarkdown, exportFileName } from '../../../../src/chat/conversations/conversationMarkdown';
import type { Conversation } from '../../../../src/chat/conversations/conversationTranscript';

const long = 'x'.repeat(5_000) + ' the end of the file';
const c: Conversation = {
  id: 'c1',
  title: 'The API design',
  createdAt: 0,
  updatedAt: 0,
  pinned: [],
  pending: [],
  draft: '',
  messages: [
    { id: 'u1', role: 'user', text: 'First question', attachments: [], createdAt: 0, context: [], wire: { role: 'user', content: 'First question' } },
    {
      id: 'a1',
      role: 'assistant',
      parts: [
        { kind: 'tool', call: { id: 't1', name: 'read_file', arguments: '{"path":"a.ts"}', status: 'done', result: 'x… (shortened)' } },
        { kind: 'text', text: 'Here:\n```ts\nconst a = 1;\n```' },
      ],
      status: 'done',
      model: 'm',
      channel: 'direct',
      createdAt: 0,
      wire: [{ role: 'tool', tool_call_id: 't1', content: long }],
    },
    { id: 'u2', role: 'user', text: 'Second question', attachments: [], createdAt: 0, context: [], wire: { role: 'user', content: 'Second question' } },
  ],
  compaction: {
    summary: 'The user asked about a.ts.',
    cutId: 'u2',
    keptRounds: [],
    stubbedCalls: [],
    model: 'm',
    channel: 'economical',
    createdAt: 0,
    cost: 0.001,
  },
} as unknown as Conversation;

describe('conversation export to Markdown', () => {
  const md = conversationMarkdown(c);

  it('writes every message, the compacted ones first, then the summary where the history was cut', () => {
    assert.match(md, /^# The API design\n/);
    assert.ok(md.indexOf('First question') < md.indexOf('**Compacted here**'));
    assert.ok(md.indexOf('**Compacted here**') < md.indexOf('Second question'));
    assert.ok(md.includes('The user asked about a.ts.'));
  });

  it('writes tool results whole (the panel shows them shortened)', () => {
    assert.ok(md.includes(long));
    assert.ok(!md.includes('(shortened)'));
  });

  it('a code fence in a message cannot close the fence around a tool result or the summary', () => {
    const tricky = conversationMarkdown({ ...c, compaction: { ...c.compaction!, summary: 'a ```` fence' } });
    assert.ok(tricky.includes('`````markdown\na ```` fence\n`````'));
  });

  it('names the file after the title, without characters a file system refuses', () => {
    assert.equal(exportFileName('Fix: src/a.ts <now>?'), 'Fix src a ts now.md');
    assert.equal(exportFileName('***'), 'conversation.md');
  });
});
