import * as assert from 'node:assert/strict';
import { DeltaCoalescer } from '../../../../src/chat/view/deltaCoalescer';
import type { HostMessage } from '../../../../src/chat/protocol';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chat: delta coalescer', () => {
  it('posts the first delta of an answer at once, then merges what keeps coming into one post per window', async () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 5);
    for (const t of ['a', 'b', 'c']) c.text('m1', t);
    // the first words are not held for the window
    assert.deepEqual(out, [{ type: 'textDelta', messageId: 'm1', text: 'a' }]);
    await wait(30);
    assert.deepEqual(out, [
      { type: 'textDelta', messageId: 'm1', text: 'a' },
      { type: 'textDelta', messageId: 'm1', text: 'bc' },
    ]);
    c.dispose();
  });

  it('after a quiet window the next delta goes at once again; the answer text after its reasoning too', async () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 5);
    c.text('m1', 'thinking', true);
    c.text('m1', 'Answer');
    assert.deepEqual(out, [
      { type: 'thinkingDelta', messageId: 'm1', text: 'thinking' },
      { type: 'textDelta', messageId: 'm1', text: 'Answer' },
    ]);
    await wait(30); // the window closed with nothing in it: idle
    c.text('m1', ' more');
    assert.equal(out.length, 3, 'posted at once, not held for a window');
    c.dispose();
  });

  it('keeps order: another message flushes pending text first', () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 1000);
    c.text('m1', 'Hello');
    c.text('m1', ',');
    c.post({ type: 'busy', busy: false });
    c.text('m1', ' world');
    c.text('m1', '.');
    c.text('m2', '!');
    c.flush();
    assert.deepEqual(out, [
      { type: 'textDelta', messageId: 'm1', text: 'Hello' },
      { type: 'textDelta', messageId: 'm1', text: ',' },
      { type: 'busy', busy: false },
      { type: 'textDelta', messageId: 'm1', text: ' world' },
      { type: 'textDelta', messageId: 'm1', text: '.' },
      { type: 'textDelta', messageId: 'm2', text: '!' },
    ]);
    c.dispose();
  });

  it('a long stream is posted once per window while it lasts, and nothing is held past the window after its last chunk', async () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 5);
    let sent = '';
    for (let i = 0; i < 2000; i++) {
      const t = `w${i} `;
      sent += t;
      c.text('m1', t);
      if (i % 100 === 99) await wait(2);
    }
    await wait(30);
    const text = out.map((m) => (m.type === 'textDelta' ? m.text : '')).join('');
    assert.equal(text, sent, 'every chunk posted, in order, once the last window closed');
    assert.ok(out.length < 200, `merged (${out.length} posts for 2,000 chunks)`);
    c.dispose();
  });

  it('drops pending text when a snapshot replaces it', async () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 5);
    c.text('m1', 'first');
    c.text('m1', 'dup');
    c.discard();
    await wait(20);
    assert.deepEqual(out, [{ type: 'textDelta', messageId: 'm1', text: 'first' }]);
  });
});
