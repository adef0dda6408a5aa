// The notice strip: set-up notices leave once a key is stored; each notice belongs to a
// conversation (or to the panel) and goes with it; only the newest shows, the older ones fold
// behind "N more"; informational ones collapse to one line, transient ones fade; a notice whose
// condition is fixed goes away by itself. Timers are driven by the test, never waited for.
import * as assert from 'node:assert/strict';
import type { ComposerState, HostMessage } from '../../../src/chat/protocol';
import type { FrameHost } from '../../../src/webview/frameScheduler';
import { COLLAPSE_MS, Notices, TRANSIENT_MS, type NoticeTimers } from '../../../src/webview/notices';
import { byRole, newWindow, startTestChatApp } from './jsdomEnv';

/** Timers that fire only when the test says so; `ms` is kept to tell collapse from fade. */
class ManualTimers implements NoticeTimers, FrameHost {
  private next = 1;
  readonly pending = new Map<number, { cb: () => void; ms: number }>();
  setTimeout = (cb: () => void, ms: number) => {
    this.pending.set(this.next, { cb, ms });
    return this.next++;
  };
  clearTimeout = (id: never) => void this.pending.delete(id as number);
  requestAnimationFrame = (cb: () => void) => this.setTimeout(cb, 0);
  cancelAnimationFrame = (id: number) => void this.pending.delete(id);
  /** runs every timer due within `ms` */
  elapse(ms: number): void {
    for (const [id, t] of [...this.pending]) {
      if (t.ms > ms) continue;
      this.pending.delete(id);
      t.cb();
    }
  }
}

function strip() {
  const win = newWindow();
  const timers = new ManualTimers();
  const actions: string[] = [];
  const notices = new Notices(win.document, (a) => actions.push(a), timers);
  win.document.body.appendChild(notices.element);
  const texts = () => Array.from(win.document.querySelectorAll('.notice:not([hidden]) .notice-text')).map((n) => n.textContent);
  const more = () => notices.element.querySelector<HTMLButtonElement>('.notices-more')!;
  return { win, doc: win.document, timers, notices, texts, more, actions };
}

describe('webview notices: set-up notices clear themselves', () => {
  it('removes the base URL and key notices when the key becomes available, keeps the others', () => {
    const { notices, texts } = strip();
    notices.setHasKey(false);
    notices.show('error', 'No gateway base URL is configured.', ['openSettings']);
    notices.show('error', 'The gateway rejected the API key.', ['setKey']);
    notices.show('warning', 'Image input is not supported by flagship-text.', ['pickModel']);
    assert.equal(notices.shown.length, 3);
    assert.deepEqual(texts(), ['No API key is set. Set your Modelgate key to start chatting.', 'Image input is not supported by flagship-text.']);
    notices.setHasKey(true);
    assert.deepEqual(texts(), ['Image input is not supported by flagship-text.']);
    assert.equal(notices.shown.length, 1);
  });

  it('keeps set-up notices while there is still no key', () => {
    const { notices } = strip();
    notices.show('error', 'No gateway base URL is configured.', ['openSettings']);
    notices.setHasKey(false);
    assert.equal(notices.element.querySelectorAll('.notice[data-setup]').length, 1);
  });
});

describe('webview notices: the strip never buries the conversation', () => {
  it('shows only the newest; the older ones fold behind "2 more notices", a button that unfolds them', () => {
    const { notices, texts, more } = strip();
    notices.setConversation('c1');
    notices.show('warning', 'Nothing was sent: the daily budget is used up.', [], { conversationId: 'c1', topic: 'budget' });
    notices.show('info', 'Switched to the stable channel after a failure.', [], { conversationId: 'c1' });
    notices.show('warning', 'Image input is not supported by flagship-text.', ['pickModel'], { conversationId: 'c1', topic: 'model' });
    assert.deepEqual(texts(), ['Image input is not supported by flagship-text.']);
    assert.equal(more().hidden, false);
    assert.equal(more().textContent, '2 more notices');
    assert.equal(more().getAttribute('aria-expanded'), 'false');
    more().click();
    assert.equal(texts().length, 3, 'unfolded: all three');
    assert.equal(more().getAttribute('aria-expanded'), 'true');
    more().click();
    assert.equal(texts().length, 1, 'folded again');
    // dismissing the newest shows the next one, and the count follows
    notices.element.querySelector<HTMLButtonElement>('.notice:not([hidden]) [data-dismiss]')!.click();
    assert.deepEqual(texts(), ['Switched to the stable channel after a failure.']);
    assert.equal(more().textContent, '1 more notice');
  });

  it('the same notice again replaces the earlier one instead of stacking', () => {
    const { notices } = strip();
    notices.show('info', 'Code copied to the clipboard.', [], { transient: true });
    notices.show('info', 'Code copied to the clipboard.', [], { transient: true });
    assert.equal(notices.shown.length, 1);
  });

  it('each notice goes with its conversation; the panel’s own are shown with every one', () => {
    const { notices, texts } = strip();
    notices.setConversation('c1');
    notices.show('info', 'Failover note about c1.', [], { conversationId: 'c1' });
    notices.show('info', 'Note about c2, sent while c1 is on screen.', [], { conversationId: 'c2' });
    assert.deepEqual(texts(), ['Failover note about c1.']);
    notices.setConversation('c2');
    assert.deepEqual(texts(), ['Note about c2, sent while c1 is on screen.']);
    notices.setConversation('c3');
    assert.deepEqual(texts(), [], 'a new chat starts without the others’ notices');
    notices.show('info', 'Code copied to the clipboard.', [], { transient: true });
    assert.deepEqual(texts(), ['Code copied to the clipboard.']);
    notices.setConversation('c1');
    assert.equal(notices.shown.length, 2, 'back on c1: its note and the panel’s');
    notices.keepConversations(['c2', 'c3']);
    assert.deepEqual(
      notices.shown.map((n) => n.message),
      ['Failover note about c1.', 'Code copied to the clipboard.'],
      'the conversation on screen keeps its notices even when a list without it arrives',
    );
    notices.setConversation('c3');
    notices.keepConversations(['c3']);
    notices.setConversation('c2');
    assert.deepEqual(texts(), ['Code copied to the clipboard.'], 'c2 was deleted: its notice went with it');
  });

  it('informational notices collapse to one line after a few seconds; More shows them whole; warnings stay', () => {
    const { notices, timers } = strip();
    notices.show('warning', 'The budget is used up.', [], { topic: 'budget' });
    notices.show('info', 'Switched from flagship-text on direct to stable after a 503.');
    timers.elapse(COLLAPSE_MS - 1);
    assert.deepEqual(
      notices.shown.map((n) => n.collapsed),
      [false, false],
    );
    timers.elapse(COLLAPSE_MS);
    assert.deepEqual(
      notices.shown.map((n) => n.collapsed),
      [false, true],
      'the info notice is one line now, the warning is not',
    );
    const info = notices.element.querySelectorAll<HTMLElement>('.notice-list .notice')[1]!;
    const expand = byRole(info, 'button', 'Show the whole notice')[0]!;
    assert.equal(expand.hidden, false, 'a keyboard-reachable button opens it');
    assert.equal(expand.getAttribute('aria-expanded'), 'false');
    assert.equal(info.querySelector('.notice-text')!.getAttribute('title'), 'Switched from flagship-text on direct to stable after a 503.');
    expand.click();
    assert.equal(notices.shown[1]!.collapsed, false);
    assert.equal(expand.hidden, true);
  });

  it('transient notices fade away; not while the focus is on them', () => {
    const { notices, timers, doc } = strip();
    notices.show('info', 'Code copied to the clipboard.', [], { transient: true });
    assert.ok(TRANSIENT_MS < COLLAPSE_MS);
    const dismiss = notices.element.querySelector<HTMLButtonElement>('[data-dismiss]')!;
    dismiss.focus();
    assert.equal(doc.activeElement, dismiss);
    timers.elapse(TRANSIENT_MS);
    assert.equal(notices.shown.length, 1, 'kept while focused');
    dismiss.blur();
    timers.elapse(TRANSIENT_MS);
    assert.equal(notices.shown.length, 0, 'gone');
  });

  it('a notice whose condition is fixed goes away by itself (of one conversation, or all)', () => {
    const { notices } = strip();
    notices.setConversation('c1');
    notices.show('warning', 'Budget refusal in c1.', [], { conversationId: 'c1', topic: 'budget' });
    notices.show('warning', 'Budget refusal in c2.', [], { conversationId: 'c2', topic: 'budget' });
    notices.show('warning', 'Model cannot take images.', ['pickModel'], { conversationId: 'c1', topic: 'model' });
    notices.resolve('budget', 'c1');
    assert.deepEqual(
      notices.shown.map((n) => n.message),
      ['Model cannot take images.'],
    );
    notices.setConversation('c2');
    assert.deepEqual(
      notices.shown.map((n) => n.message),
      ['Budget refusal in c2.'],
    );
    notices.resolve('budget');
    assert.equal(notices.shown.length, 0);
  });
});

describe('webview notices: the panel routes the host’s notices', () => {
  const composer = (over: Partial<ComposerState> = {}): ComposerState => ({
    model: 'flagship-text',
    channel: 'stable',
    imageInput: false,
    attachments: [],
    contextTokens: 0,
    contextWindow: 1_000_000,
    hasKey: true,
    ...over,
  });
  const snapshot = (id: string, busy = false): HostMessage => ({
    type: 'snapshot',
    conversation: { id, title: id, messages: [], draft: '' },
    conversations: [
      { id: 'c1', title: 'c1', updatedAt: 2 },
      { id: 'c2', title: 'c2', updatedAt: 1 },
    ],
    composer: composer(),
    busy,
  });

  function panel() {
    const timers = new ManualTimers();
    const { win, host } = startTestChatApp(timers);
    const shown = () => Array.from(win.document.querySelectorAll('.notices .notice:not(.key-banner):not([hidden]) .notice-text')).map((n) => n.textContent);
    return { win, host, shown, timers };
  }

  it('a failover note about one conversation is not shown on another or on a new chat', () => {
    const p = panel();
    p.host(snapshot('c1'));
    p.host({ type: 'notice', level: 'info', message: 'Failover in c1.', conversationId: 'c1' });
    assert.deepEqual(p.shown(), ['Failover in c1.']);
    p.host(snapshot('c2'));
    assert.deepEqual(p.shown(), []);
    p.host(snapshot('c1'));
    assert.deepEqual(p.shown(), ['Failover in c1.']);
  });

  it('a sent message resolves its conversation’s refusals; a model change the model notices; the host the budget; the end of an answer "busy"', () => {
    const p = panel();
    p.host(snapshot('c1', true));
    p.host({ type: 'notice', level: 'info', message: 'Still writing.', conversationId: 'c1', topic: 'busy' });
    p.host({ type: 'busy', busy: false });
    assert.deepEqual(p.shown(), []);
    p.host({ type: 'notice', level: 'warning', message: 'Budget used up.', conversationId: 'c1', topic: 'budget' });
    p.host({ type: 'noticeResolved', topic: 'budget' });
    assert.deepEqual(p.shown(), []);
    p.host({ type: 'notice', level: 'warning', message: 'No images on this model.', actions: ['pickModel'], conversationId: 'c1', topic: 'model' });
    p.host({ type: 'composer', composer: composer({ attachments: [] }) });
    assert.deepEqual(p.shown(), ['No images on this model.'], 'the same model: still true');
    p.host({ type: 'composer', composer: composer({ model: 'vision-pro' }) });
    assert.deepEqual(p.shown(), []);
    p.host({ type: 'notice', level: 'warning', message: 'Budget used up.', conversationId: 'c1', topic: 'budget' });
    p.host({ type: 'messageAdded', message: { id: 'u1', role: 'user', text: 'hi', attachments: [], createdAt: 1 } });
    assert.deepEqual(p.shown(), [], 'the message went out: the refusal is history');
  });
});
