import * as assert from 'node:assert/strict';
import { ModelCatalogue } from '../../../src/core/catalogue';
import type { ToolDefinition } from '../../../src/core/types';
import { newConversation } from '../../../src/chat/transcript';
import { addPending, chatModelInfo, composerState, nextMessageContext, pinFile, removeAttachment, toolOffer } from '../../../src/chat/turnContext';

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
    assert.deepEqual(toolOffer(flagship, true, 8, () => defs), { tools: defs });
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
    assert.deepEqual(c.pinned.map((p) => [p.id, p.content]), [['p1', 'new'], ['p2', 'b']]);
    addPending(c, { id: 's1', kind: 'selection', label: 'a.ts:1-2', contexts: [{ title: 't', text: 'one' }] });
    addPending(c, { id: 's2', kind: 'selection', label: 'a.ts:1-2', contexts: [{ title: 't', text: 'two' }] });
    addPending(c, { id: 'i1', kind: 'image', label: 'x.png', mime: 'image/png', dataUrl: 'data:image/png;base64,AA' });
    addPending(c, { id: 'i2', kind: 'image', label: 'x.png', mime: 'image/png', dataUrl: 'data:image/png;base64,BB' });
    assert.deepEqual(c.pending.map((p) => p.id), ['s2', 'i1', 'i2']);
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
  });
});
