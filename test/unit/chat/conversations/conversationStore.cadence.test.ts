// The store's write cadence while an answer streams: soon enough that a crash loses at most
// ~100 ms of it, and never piling writes up when the disk is slower than that.
import * as assert from 'node:assert/strict';
import { ConversationStore, DEFAULT_SAVE_DEBOUNCE_MS, MemoryBackend } from '../../../../src/chat/conversations/conversationStore';
import type { AssistantRecord, Conversation } from '../../../../src/chat/conversations/conversationTranscript';
import { userMessage } from '../../../../src/core/prompt/promptLayout';

function startAnswer(c: Conversation): { text: string } {
  c.messages.push({ id: 'u0', role: 'user', text: 'q', attachments: [], createdAt: 1, context: [], wire: userMessage('q') });
  c.messages.push({ id: 'a1', role: 'assistant', parts: [{ kind: 'text', text: '' }], status: 'streaming', model: 'm', channel: 'default', createdAt: 2, wire: [] });
  return (c.messages[1] as AssistantRecord).parts[0] as { text: string };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chat: conversation store write cadence', () => {
  it('writes a streaming answer at most 100 ms after a change by default', () => {
    assert.ok(DEFAULT_SAVE_DEBOUNCE_MS <= 100, `${DEFAULT_SAVE_DEBOUNCE_MS} ms`);
  });

  it('keeps one timed write in flight: a slow disk gets the latest state, not a backlog', async () => {
    const backend = new MemoryBackend();
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    const writes: string[] = [];
    const write = backend.write.bind(backend);
    backend.write = async (name, text) => {
      if (name.startsWith('conversation-')) {
        writes.push(text);
        await gate; // the disk is slow
      }
      return write(name, text);
    };
    const s = await ConversationStore.open(backend, { debounceMs: 1 });
    const part = startAnswer(s.active);
    for (let i = 0; i < 40; i++) {
      part.text += `w${i} `;
      s.changed(s.active);
      await tick(3); // the debounce fires many times while the first write hangs
    }
    assert.equal(writes.length, 1, 'one write started; the rest wait for it');
    gate = Promise.resolve();
    release();
    await tick(30);
    await s.flush();
    assert.ok(writes.length <= 3, `${writes.length} conversation writes for 40 changes behind a slow one`);
    assert.ok(writes.at(-1)!.includes('w39 '), 'the last write has the latest text');
  });
});
