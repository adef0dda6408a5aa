import * as assert from 'node:assert/strict';
import { userMessage } from '../../../../src/core/prompt/promptLayout';
import {
  appendText,
  appendThinking,
  composerAttachments,
  endThinking,
  conversationView,
  markInterrupted,
  newConversation,
  titleFrom,
  truncateFrom,
  upsertToolCall,
  wireHistory,
  type AssistantRecord,
  type Conversation,
  type UserRecord,
} from '../../../../src/chat/conversations/conversationTranscript';
import { parseConversation, serializeConversation } from '../../../../src/chat/conversations/conversationFormat';

const user = (id: string, text: string): UserRecord => ({ id, role: 'user', text, attachments: [], createdAt: 1, context: [], wire: userMessage(text) });
const assistant = (id: string, text: string, status: AssistantRecord['status'] = 'done'): AssistantRecord => ({
  id,
  role: 'assistant',
  parts: text ? [{ kind: 'text', text }] : [],
  status,
  model: 'flagship-text',
  channel: 'default',
  createdAt: 2,
  wire: text ? [{ role: 'assistant', content: text }] : [],
});

function sample(): Conversation {
  const c = newConversation(100, 'conv-1');
  c.messages.push(user('u1', 'first'), assistant('a1', 'one'), user('u2', 'second'), assistant('a2', 'two'));
  return c;
}

describe('chat: transcript', () => {
  it('titles a conversation from the first message: trimmed, one line, cut at a word', () => {
    assert.equal(titleFrom('  How do I\n  read a file?  '), 'How do I read a file?');
    assert.equal(titleFrom('   '), 'New chat');
    const long = titleFrom('word '.repeat(40));
    assert.ok(long.length <= 60, long);
    assert.ok(long.endsWith('…'));
    assert.ok(!long.includes('  '));
  });

  it('flattens the wire history in order, user then assistant wire messages', () => {
    const c = sample();
    assert.deepEqual(wireHistory(c), [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'one' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'two' },
    ]);
    assert.deepEqual(wireHistory(c, 2), [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'one' },
    ]);
  });

  it('truncates from a message (regenerate, edit and resend)', () => {
    const c = sample();
    const removed = truncateFrom(c, 'u2');
    assert.deepEqual(
      removed.map((m) => m.id),
      ['u2', 'a2'],
    );
    assert.deepEqual(
      c.messages.map((m) => m.id),
      ['u1', 'a1'],
    );
    assert.deepEqual(truncateFrom(c, 'nope'), []);
    assert.equal(c.messages.length, 2);
  });

  it('marks an answer that was streaming at load as interrupted and keeps its text', () => {
    const c = sample();
    const cut = assistant('a3', 'partial ans', 'streaming');
    cut.wire = []; // streaming: nothing committed yet
    cut.parts.push({ kind: 'tool', call: { id: 't', name: 'read_file', arguments: '{}', status: 'running' } });
    c.messages.push(user('u3', 'third'), cut);
    assert.equal(markInterrupted(c), true);
    assert.equal(cut.status, 'interrupted');
    assert.deepEqual(cut.parts[0], { kind: 'text', text: 'partial ans' });
    assert.equal((cut.parts[1] as { call: { status: string } }).call.status, 'error');
    assert.deepEqual(cut.wire, [], 'a round cut off while its tools ran is not replayed');
    assert.equal(markInterrupted(c), false);
  });

  it('replays the text an interrupted answer had, after its completed tool rounds', () => {
    const c = sample();
    const cut = assistant('a3', '', 'streaming');
    cut.parts.push(
      { kind: 'text', text: 'Let me look. ' },
      { kind: 'tool', call: { id: 't', name: 'read_file', arguments: '{}', status: 'done', result: 'x' } },
      { kind: 'text', text: 'It says x, and' },
    );
    const round = {
      role: 'assistant' as const,
      content: 'Let me look. ',
      tool_calls: [{ id: 't', type: 'function' as const, function: { name: 'read_file', arguments: '{}' } }],
    };
    cut.wire.push(round, { role: 'tool', tool_call_id: 't', content: 'x' });
    c.messages.push(user('u3', 'third'), cut);
    markInterrupted(c);
    assert.deepEqual(cut.wire.slice(2), [{ role: 'assistant', content: 'It says x, and' }]);
    assert.deepEqual(
      wireHistory(c)
        .slice(-4)
        .map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
  });

  it('appends streamed text to the last text part, or a new part after a tool call', () => {
    const a = assistant('a', '');
    appendText(a, 'Hel');
    appendText(a, 'lo');
    upsertToolCall(a, { id: 'c1', name: 'read_file', arguments: '{}', status: 'running' });
    upsertToolCall(a, { id: 'c1', name: 'read_file', arguments: '{}', status: 'done', result: 'ok' });
    appendText(a, 'After');
    assert.deepEqual(a.parts, [
      { kind: 'text', text: 'Hello' },
      { kind: 'tool', call: { id: 'c1', name: 'read_file', arguments: '{}', status: 'done', result: 'ok' } },
      { kind: 'text', text: 'After' },
    ]);
  });

  it('round-trips through its stored form, and refuses damaged files', () => {
    const c = sample();
    c.pinned.push({ id: 'p1', label: 'src/a.ts', path: 'src/a.ts', language: 'typescript', content: 'x' });
    c.pending.push({ id: 's1', kind: 'selection', label: 'src/a.ts:1', contexts: [{ title: 'Selection', text: 'x' }] });
    c.draft = 'unsent';
    c.totalCost = 0.0123;
    const back = parseConversation(serializeConversation(c));
    assert.deepEqual(back, c);
    assert.equal(parseConversation('{"version":1,'), undefined);
    assert.equal(parseConversation(JSON.stringify({ version: 2, ...c })), undefined);
    assert.equal(parseConversation(JSON.stringify({ version: 1, ...c, id: '../../escape' })), undefined);
    const bad = JSON.parse(serializeConversation(c)) as { messages: { role: string }[] };
    bad.messages[0]!.role = 'system';
    assert.equal(parseConversation(JSON.stringify(bad)), undefined);
  });

  it('gives the webview a copy (mutating the view does not touch the record) and the chips', () => {
    const c = sample();
    c.pinned.push({ id: 'p1', label: 'src/a.ts', path: 'src/a.ts', content: 'x' });
    c.pending.push({
      id: 'i1',
      kind: 'image',
      label: 'shot.png',
      mime: 'image/png',
      dataUrl: 'data:image/png;base64,AA',
      thumbnail: 'data:image/png;base64,AA',
    });
    const v = conversationView(c);
    (v.messages[1] as { parts: { text: string }[] }).parts[0]!.text = 'changed';
    assert.equal((c.messages[1] as AssistantRecord).parts[0]!.kind === 'text' && ((c.messages[1] as AssistantRecord).parts[0] as { text: string }).text, 'one');
    assert.deepEqual(composerAttachments(c), [
      { id: 'p1', kind: 'file', label: 'src/a.ts' },
      { id: 'i1', kind: 'image', label: 'shot.png', thumbnail: 'data:image/png;base64,AA' },
    ]);
  });
});

describe('chat: transcript, reasoning', () => {
  it('keeps Thinking parts, their time, reasoning on wire messages and reasoning tokens through storage', () => {
    const c = newConversation(100, 'conv-r');
    const a: AssistantRecord = {
      id: 'a1',
      role: 'assistant',
      parts: [],
      status: 'streaming',
      model: 'm',
      channel: 'default',
      createdAt: 2,
      wire: [
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }], reasoning_content: 'why' },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
        { role: 'assistant', content: 'done', reasoning: 'or-form' },
      ],
      usage: { promptTokens: 10, cachedTokens: 0, completionTokens: 50, reasoningTokens: 30 },
    };
    appendThinking(a, 'let me ');
    appendThinking(a, 'see');
    endThinking(a, 1200);
    appendThinking(a, 'again');
    appendText(a, 'Answer');
    a.status = 'done';
    assert.deepEqual(a.parts, [
      { kind: 'thinking', text: 'let me see', ms: 1200 },
      { kind: 'thinking', text: 'again' },
      { kind: 'text', text: 'Answer' },
    ]);
    c.messages.push(user('u1', 'q'), a);
    const back = parseConversation(serializeConversation(c));
    assert.ok(back, 'parses');
    assert.deepEqual(back, c);
    assert.deepEqual(conversationView(back).messages[1], { ...conversationView(c).messages[1] });
    assert.deepEqual((conversationView(back).messages[1] as { parts: unknown[] }).parts[0], { kind: 'thinking', text: 'let me see', ms: 1200 });
  });

  it('an interrupted answer keeps its thinking out of the replayed text', () => {
    const c = newConversation(100, 'conv-i');
    const a: AssistantRecord = { id: 'a1', role: 'assistant', parts: [], status: 'streaming', model: 'm', channel: 'default', createdAt: 2, wire: [] };
    appendThinking(a, 'thinking');
    appendText(a, 'partial');
    c.messages.push(user('u1', 'q'), a);
    markInterrupted(c);
    assert.deepEqual(a.wire, [{ role: 'assistant', content: 'partial' }]);
  });
});
