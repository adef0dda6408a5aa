import * as assert from 'node:assert/strict';
import { DeltaCoalescer } from '../../../../src/chat/view/deltaCoalescer';
import type { HostMessage } from '../../../../src/chat/protocol';

describe('chat: delta coalescer', () => {
  it('merges deltas of one message into one post per interval', async () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 5);
    for (const t of ['a', 'b', 'c']) c.text('m1', t);
    assert.equal(out.length, 0);
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(out, [{ type: 'textDelta', messageId: 'm1', text: 'abc' }]);
  });

  it('keeps order: another message flushes pending text first', () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 1000);
    c.text('m1', 'Hello');
    c.post({ type: 'busy', busy: false });
    c.text('m1', ' world');
    c.text('m2', '!');
    c.flush();
    assert.deepEqual(out, [
      { type: 'textDelta', messageId: 'm1', text: 'Hello' },
      { type: 'busy', busy: false },
      { type: 'textDelta', messageId: 'm1', text: ' world' },
      { type: 'textDelta', messageId: 'm2', text: '!' },
    ]);
    c.dispose();
  });

  it('drops pending text when a snapshot replaces it', async () => {
    const out: HostMessage[] = [];
    const c = new DeltaCoalescer((m) => out.push(m), 5);
    c.text('m1', 'dup');
    c.discard();
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(out, []);
  });
});
