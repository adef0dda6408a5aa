// A stopped (or failed, or interrupted) answer keeps Copy and Insert on the code block it was cut
// off in, but not Apply: that block is not the model's whole proposal.
import * as assert from 'node:assert/strict';
import type { MessageView } from '../../../src/chat/protocol';
import { endsInOpenFence } from '../../../src/webview/codeBlock';
import type { FrameHost } from '../../../src/webview/frameScheduler';
import { startTestChatApp } from './jsdomEnv';

class Timers implements FrameHost {
  private next = 1;
  private readonly pending = new Map<number, () => void>();
  setTimeout = (cb: () => void) => (this.pending.set(this.next, cb), this.next++);
  clearTimeout = (id: never) => void this.pending.delete(id as number);
  run(): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    all.forEach((cb) => cb());
  }
}

const CUT = 'Here is the fix:\n\n```ts\nexport function mean(xs: number[]) {\n  return xs.reduce((a, b) => a + b, 0) /';
const WHOLE = 'Here is the fix:\n\n```ts\nexport const one = 1;\n```\n';

function panel(messages: MessageView[] = []) {
  const timers = new Timers();
  const { win, posted, host } = startTestChatApp(timers);
  host({
    type: 'snapshot',
    conversation: { id: 'c1', title: 'c1', messages, draft: '' },
    conversations: [{ id: 'c1', title: 'c1', updatedAt: 1 }],
    composer: { model: 'm', channel: 'stable', imageInput: false, attachments: [], contextTokens: 0, contextWindow: 0, hasKey: true },
    busy: false,
  });
  const buttons = (action: string) => Array.from(win.document.querySelectorAll<HTMLButtonElement>(`[data-code-action="${action}"]`)).filter((b) => !b.hidden);
  return { win, host, timers, posted, buttons };
}

type Answer = Extract<MessageView, { role: 'assistant' }>;
const answer = (id: string, text: string, status: Answer['status']): Answer => ({
  id,
  role: 'assistant',
  parts: [{ kind: 'text', text }],
  status,
  model: 'm',
  channel: 'stable',
  createdAt: 1,
});

describe('webview: a cut-off code block offers no Apply', () => {
  it('endsInOpenFence: open, closed, longer and tilde fences, quotes, a backtick info string', () => {
    assert.equal(endsInOpenFence(CUT), true);
    assert.equal(endsInOpenFence(WHOLE), false);
    assert.equal(endsInOpenFence('````md\n```ts\nx\n```\n'), true, 'a shorter fence does not close a longer one');
    assert.equal(endsInOpenFence('~~~\nx\n~~~'), false);
    assert.equal(endsInOpenFence('> ```js\n> x'), true);
    assert.equal(endsInOpenFence('- ```js\n  x\n  ```'), false);
    assert.equal(endsInOpenFence('``` a`b\nnot a fence'), false);
    assert.equal(endsInOpenFence('no code at all'), false);
  });

  it('an answer stopped while a code block streamed: Copy and Insert stay, Apply goes and posts nothing', () => {
    const p = panel();
    p.host({ type: 'messageAdded', message: { ...answer('a1', '', 'done'), parts: [], status: 'streaming' } });
    p.host({ type: 'textDelta', messageId: 'a1', text: CUT.slice(0, 30) });
    p.host({ type: 'textDelta', messageId: 'a1', text: CUT.slice(30) });
    p.timers.run();
    assert.equal(p.buttons('apply').length, 1, 'while streaming the block shows its toolbar');
    p.host({ type: 'messageFinished', messageId: 'a1', status: 'stopped', costUnknown: true });
    assert.equal(p.buttons('apply').length, 0);
    assert.equal(p.buttons('copy').length, 1);
    assert.equal(p.buttons('insert').length, 1);
    assert.match(p.win.document.querySelector('.code-cut-note')!.textContent!, /cut off/);
    p.win.document.querySelector<HTMLButtonElement>('[data-code-action="apply"]')!.click();
    assert.equal(p.posted.filter((m) => m.type === 'applyCode').length, 0);
  });

  it('restored: stopped, failed and interrupted answers cut in a block have no Apply; whole blocks keep it', () => {
    const p = panel([
      answer('a1', CUT, 'stopped'),
      answer('a2', CUT, 'error'),
      answer('a3', CUT, 'interrupted'),
      answer('a4', WHOLE, 'stopped'),
      answer('a5', WHOLE, 'done'),
    ]);
    const applies = p.buttons('apply').map((b) => b.closest('article')!.getAttribute('data-message-id'));
    assert.deepEqual(applies, ['a4', 'a5']);
    p.buttons('apply')[0]!.click();
    assert.deepEqual(
      p.posted.filter((m) => m.type === 'applyCode'),
      [{ type: 'applyCode', code: 'export const one = 1;', language: 'ts' }],
    );
  });
});
