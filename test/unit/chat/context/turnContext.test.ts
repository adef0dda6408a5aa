import * as assert from 'node:assert/strict';
import { ModelCatalogue } from '../../../../src/core/catalogue/modelCatalogue';
import type { ToolDefinition } from '../../../../src/core/client/types';
import { newConversation } from '../../../../src/chat/conversations/conversationTranscript';
import { layoutPrompt } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage } from '../../../../src/core/client/types';
import { truncateFrom, wireHistory, type Conversation } from '../../../../src/chat/conversations/conversationTranscript';
import {
  addPending,
  chatModelInfo,
  composerState,
  nextMessageContext,
  pinFile,
  pinnedFor,
  removeAttachment,
  toolOffer,
} from '../../../../src/chat/context/turnContext';

const catalogue = ModelCatalogue.build({});
const flagship = chatModelInfo(catalogue, 'flagship-text');
const defs: ToolDefinition[] = [{ type: 'function', function: { name: 'read_file', parameters: {} } }];

describe('chat: turn context', () => {
  it('falls back to conservative facts for a model nothing describes', () => {
    const m = chatModelInfo(catalogue, 'mystery-model');
    assert.equal(m.id, 'mystery-model');
    assert.equal(m.imageInput, false);
    assert.ok(m.contextWindow > 0);
  });

  it('offers tools only when trusted, supported and allowed, and says why not', () => {
    assert.deepEqual(
      toolOffer(flagship, true, 8, () => defs),
      { tools: defs },
    );
    assert.match(toolOffer(flagship, false, 8, () => defs).reason!, /not trusted/);
    assert.match(toolOffer({ ...flagship, tools: false }, true, 8, () => defs).reason!, /does not support tool calls/);
    assert.match(toolOffer(flagship, true, 0, () => defs).reason!, /maxToolRounds/);
    assert.match(toolOffer(flagship, true, 8, () => []).reason!, /open a folder/);
    let asked = false;
    toolOffer(flagship, false, 8, () => ((asked = true), defs));
    assert.equal(asked, false, 'an untrusted workspace does not even list the tools');
  });

  it('edits the attachment lists: pin replaces in place, a selection replaces the same range, remove', () => {
    const c = newConversation(0);
    pinFile(c, { id: 'p1', label: 'a.ts', path: 'a.ts', content: 'old' });
    pinFile(c, { id: 'p2', label: 'b.ts', path: 'b.ts', content: 'b' });
    pinFile(c, { id: 'p3', label: 'a.ts', path: 'a.ts', content: 'new' });
    assert.deepEqual(
      c.pinned.map((p) => [p.id, p.content]),
      [
        ['p1', 'new'],
        ['p2', 'b'],
      ],
    );
    addPending(c, { id: 's1', kind: 'selection', label: 'a.ts:1-2', contexts: [{ title: 't', text: 'one' }] });
    addPending(c, { id: 's2', kind: 'selection', label: 'a.ts:1-2', contexts: [{ title: 't', text: 'two' }] });
    addPending(c, { id: 'i1', kind: 'image', label: 'x.png', mime: 'image/png', dataUrl: 'data:image/png;base64,AA' });
    addPending(c, { id: 'i2', kind: 'image', label: 'x.png', mime: 'image/png', dataUrl: 'data:image/png;base64,BB' });
    assert.deepEqual(
      c.pending.map((p) => p.id),
      ['s2', 'i1', 'i2'],
    );
    const next = nextMessageContext(c);
    assert.deepEqual(next.contexts, [{ title: 't', text: 'two' }]);
    assert.equal(next.images.length, 2);
    assert.equal(removeAttachment(c, 'p1'), true);
    assert.equal(removeAttachment(c, 'i1'), true);
    assert.equal(removeAttachment(c, 'nope'), false);
    assert.deepEqual([...c.pinned.map((p) => p.id), ...c.pending.map((p) => p.id)], ['p2', 's2', 'i2']);
  });

  it('reports how much of the window the next request uses, attachments included', () => {
    const c = newConversation(0);
    const empty = composerState(c, flagship, 'default', {}, true);
    pinFile(c, { id: 'p', label: 'big.ts', path: 'big.ts', content: 'x'.repeat(40_000) });
    const pinned = composerState(c, flagship, 'stable', { reason: 'why' }, false);
    assert.ok(pinned.contextTokens >= empty.contextTokens + 10_000, `${empty.contextTokens} -> ${pinned.contextTokens}`);
    assert.equal(pinned.contextWindow, flagship.contextWindow);
    assert.equal(pinned.channel, 'stable');
    assert.equal(pinned.toolsDisabledReason, 'why');
    assert.equal(pinned.hasKey, false);
    assert.deepEqual(pinned.attachments, [{ id: 'p', kind: 'file', label: 'big.ts' }]);
    const withTools = composerState(c, flagship, 'stable', { tools: defs }, false);
    assert.ok(withTools.contextTokens > pinned.contextTokens, 'tool definitions count too');
    const rules = [{ path: 'AGENTS.md', content: 'r'.repeat(8_000), truncated: false }];
    const withRules = composerState(c, flagship, 'stable', { tools: defs }, false, rules);
    assert.ok(
      withRules.contextTokens >= withTools.contextTokens + 1_500,
      `the rules files count too: ${withTools.contextTokens} -> ${withRules.contextTokens}`,
    );
  });

  describe('pins in a conversation that has turns', () => {
    const user = (id: string, text: string) => ({
      id,
      role: 'user' as const,
      text,
      attachments: [],
      createdAt: 0,
      context: [],
      wire: { role: 'user' as const, content: text },
    });
    const answer = (id: string, wire: ChatMessage[]) => ({
      id,
      role: 'assistant' as const,
      parts: [],
      status: 'done' as const,
      model: 'm',
      channel: 'default' as const,
      createdAt: 0,
      wire,
    });
    const request = (c: Conversation) => JSON.stringify(layoutPrompt({ systemPrompt: 'S', pinned: pinnedFor(c), history: wireHistory(c) }));
    const withTurn = () => {
      const c = newConversation(0);
      pinFile(c, { id: 'p0', label: 'first.ts', path: 'first.ts', content: 'first' });
      c.messages.push(user('u1', 'q1'));
      // an answer with a tool round: three wire messages
      c.messages.push(
        answer('a1', [
          { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 't', content: 'x' },
          { role: 'assistant', content: 'done' },
        ]),
      );
      return c;
    };

    it('places a file pinned after a turn after that turn, so the sent prefix keeps its bytes', () => {
      const c = withTurn();
      const before = request(c);
      pinFile(c, { id: 'p1', label: 'late.ts', path: 'late.ts', content: 'late' });
      assert.deepEqual(
        pinnedFor(c).map((p) => [p.path, p.at]),
        [
          ['first.ts', undefined],
          ['late.ts', 4],
        ],
      );
      c.messages.push(user('u2', 'q2'));
      const after = request(c);
      assert.ok(after.startsWith(before.slice(0, -1)), 'the earlier request is a prefix of the next');
      assert.ok(after.indexOf('late.ts') > before.length - 1);
    });

    it('re-pinning: unchanged content changes nothing; new content moves to the current point, keeping the chip', () => {
      const c = withTurn();
      const before = request(c);
      assert.equal(pinFile(c, { id: 'x', label: 'first.ts', path: 'first.ts', content: 'first' }), false);
      assert.equal(request(c), before);
      assert.equal(pinFile(c, { id: 'y', label: 'first.ts', path: 'first.ts', content: 'first v2' }), true);
      assert.deepEqual(
        c.pinned.map((p) => [p.id, p.content, p.after]),
        [['p0', 'first v2', 'a1']],
      );
      const m = layoutPrompt({ systemPrompt: 'S', pinned: pinnedFor(c), history: wireHistory(c) });
      assert.equal(m[0]!.content, 'S', 'the old copy left the system message');
      assert.match(m.at(-1)!.content as string, /first v2/);
      // before any further message, pinning it again replaces it where it is
      pinFile(c, { id: 'z', label: 'first.ts', path: 'first.ts', content: 'first v3' });
      assert.deepEqual(
        c.pinned.map((p) => [p.id, p.content, p.after]),
        [['p0', 'first v3', 'a1']],
      );
    });

    it('a pin whose message is removed (edit, regenerate) follows the last message that stays', () => {
      const c = withTurn();
      pinFile(c, { id: 'p1', label: 'late.ts', path: 'late.ts', content: 'late' });
      truncateFrom(c, 'a1');
      assert.equal(c.pinned[1]!.after, 'u1');
      truncateFrom(c, 'u1');
      assert.equal(c.pinned[1]!.after, undefined, 'nothing left: into the system message');
    });
  });

  it('problems: the same file again replaces its chip (the count in the label may differ), and they go into the next message', () => {
    const c = newConversation(0);
    addPending(c, { id: 'd1', kind: 'diagnostics', label: 'Problems: a.json (1)', contexts: [{ title: 'Problems VS Code reports in a.json', text: 'one' }] });
    addPending(c, { id: 'd2', kind: 'diagnostics', label: 'Problems: b.json (1)', contexts: [{ title: 'Problems VS Code reports in b.json', text: 'b' }] });
    addPending(c, { id: 'd3', kind: 'diagnostics', label: 'Problems: a.json (2)', contexts: [{ title: 'Problems VS Code reports in a.json', text: 'two' }] });
    assert.deepEqual(
      c.pending.map((p) => p.id),
      ['d2', 'd3'],
    );
    const next = nextMessageContext(c);
    assert.deepEqual(
      next.contexts.map((x) => x.text),
      ['b', 'two'],
    );
    assert.deepEqual(
      next.attachments.map((a) => a.kind),
      ['diagnostics', 'diagnostics'],
    );
  });
});
