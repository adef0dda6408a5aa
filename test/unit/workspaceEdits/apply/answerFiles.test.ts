// The files a conversation names, newest first (src/workspaceEdits/apply/answerFiles.ts).
import * as assert from 'node:assert/strict';
import { conversationFiles, type ConversationLike } from '../../../../src/workspaceEdits/apply/answerFiles';

describe('apply: files the conversation names (pure)', () => {
  describe('files the conversation names', () => {
    it('newest first: tool reads, attached selections and files, pinned files, the pending selection first', () => {
      const c: ConversationLike = {
        pinned: [{ path: 'src/pinned.ts' }],
        pending: [
          { kind: 'selection', label: 'src/pending.ts:3-4' },
          { kind: 'image', label: 'shot.png' },
        ],
        messages: [
          { role: 'user', attachments: [{ kind: 'selection', label: 'src/sel.ts:10' }] },
          {
            role: 'assistant',
            parts: [
              { kind: 'tool', call: { name: 'read_file', arguments: '{"path":"src/read1.ts"}' } },
              { kind: 'tool', call: { name: 'list_files', arguments: '{"path":"src"}' } },
              { kind: 'tool', call: { name: 'read_file', arguments: '{"path":"src/read2.ts"}' } },
              { kind: 'tool', call: { name: 'read_file', arguments: '{broken' } },
              { kind: 'text', text: 'done' },
            ],
          },
        ],
      };
      assert.deepEqual(conversationFiles(c), ['src/pending.ts', 'src/read2.ts', 'src/read1.ts', 'src/sel.ts', 'src/pinned.ts']);
    });
  });
});
