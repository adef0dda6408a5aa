// The panel driven the way the host and a user drive it: host messages arrive as window
// 'message' events, the user clicks and types, and a stub webview API records what is posted.
import * as assert from 'node:assert/strict';
import type { ComposerState, HostMessage, MessageView, WebviewMessage } from '../../../src/chat/protocol';
import { formatUsd } from '../../../src/core/spend/cost';
import { startChatApp } from '../../../src/webview/app';
import type { FrameHost } from '../../../src/webview/frameScheduler';
import { byRole, isShown, newWindow } from './jsdomEnv';
import { toolOffer } from '../../../src/chat/context/turnContext';

/** Animation frames and timers that run only when the test says so. */
class ManualFrames implements FrameHost {
  private next = 1;
  private frames = new Map<number, () => void>();
  private timers = new Map<number, () => void>();
  requestAnimationFrame = (cb: () => void) => {
    this.frames.set(this.next, cb);
    return this.next++;
  };
  cancelAnimationFrame = (id: number) => void this.frames.delete(id);
  setTimeout = (cb: () => void) => {
    this.timers.set(this.next, cb);
    return this.next++;
  };
  clearTimeout = (id: never) => void this.timers.delete(id as number);
  get pending(): number {
    return this.frames.size + this.timers.size;
  }
  frame(): void {
    const f = [...this.frames.values()];
    this.frames.clear();
    f.forEach((cb) => cb());
  }
  timeout(): void {
    const t = [...this.timers.values()];
    this.timers.clear();
    t.forEach((cb) => cb());
  }
}

const composer = (over: Partial<ComposerState> = {}): ComposerState => ({
  model: 'flagship-text',
  channel: 'stable',
  imageInput: false,
  attachments: [],
  contextTokens: 120_000,
  contextWindow: 1_000_000,
  hasKey: true,
  ...over,
});

const user = (id: string, text: string): MessageView => ({ id, role: 'user', text, attachments: [], createdAt: 1 });
type AssistantView = Extract<MessageView, { role: 'assistant' }>;
const assistant = (id: string, text: string, status: 'done' | 'streaming' = 'done'): AssistantView => ({
  id,
  role: 'assistant',
  parts: text ? [{ kind: 'text', text }] : [],
  status,
  model: 'flagship-text',
  channel: 'stable',
  createdAt: 2,
});

function snapshot(messages: MessageView[], over: Partial<Extract<HostMessage, { type: 'snapshot' }>> = {}): HostMessage {
  return {
    type: 'snapshot',
    conversation: { id: 'c1', title: 'First chat', messages, draft: '', totalCost: 0.0123 },
    conversations: [
      { id: 'c1', title: 'First chat', updatedAt: 2 },
      { id: 'c2', title: 'Older chat', updatedAt: 1 },
    ],
    composer: composer(),
    busy: false,
    ...over,
  };
}

function setup(initialState?: unknown) {
  const win = newWindow();
  const doc = win.document;
  const posted: WebviewMessage[] = [];
  let state = initialState;
  const api = { postMessage: (m: unknown) => void posted.push(m as WebviewMessage), getState: () => state, setState: (s: unknown) => (state = s) };
  const frames = new ManualFrames();
  const app = startChatApp(win, api, { frameHost: frames, draftDebounceMs: 5 });
  const host = (data: unknown) => win.dispatchEvent(new win.MessageEvent('message', { data }));
  const button = (name: string) => {
    const found = byRole(doc, 'button', name);
    assert.equal(found.length, 1, `exactly one button named ${name} (found ${found.length})`);
    return found[0] as HTMLButtonElement;
  };
  const input = () => byRole(doc, 'textarea', 'Message')[0] as HTMLTextAreaElement;
  const type = (text: string) => {
    input().value = text;
    input().dispatchEvent(new win.Event('input', { bubbles: true }));
  };
  const key = (target: EventTarget, key: string, init: KeyboardEventInit = {}) => {
    const e = new win.KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(e);
    return e;
  };
  const articles = (name?: string) => Array.from(doc.querySelectorAll('article')).filter((a) => !name || a.getAttribute('aria-label') === name);
  const sent = <T extends WebviewMessage['type']>(type: T) => posted.filter((m): m is Extract<WebviewMessage, { type: T }> => m.type === type);
  return { win, doc, posted, frames, app, host, button, input, type, key, articles, sent, state: () => state };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('chat panel (main.ts in jsdom)', function () {
  // jsdom is slow and the test machines are shared: a generous limit (no timing is asserted)
  this.timeout(60_000);

  it('says ready and renders no conversation before the snapshot', () => {
    const t = setup();
    // with whether the page holds the keyboard: Open Chat focuses the view again only when it does not
    assert.deepEqual(t.posted, [{ type: 'ready', hasFocus: t.doc.hasFocus() }]);
    assert.equal(t.doc.querySelectorAll('[role="log"]').length, 1);
    assert.equal(t.doc.querySelector('[role="log"]')!.getAttribute('aria-live'), 'polite');
    assert.ok(t.input(), 'a textbox named Message');
    t.host({ type: 'messageAdded', message: user('u0', 'too early') });
    t.host({ type: 'textDelta', messageId: 'x', text: 'too early' });
    assert.equal(t.articles().length, 0);
    t.type('hello');
    t.key(t.input(), 'Enter');
    assert.equal(t.sent('send').length, 0, 'nothing is sent before the snapshot');
  });

  it('says when it takes or loses the keyboard after ready, so that Open Chat does not focus the view again while the user types', () => {
    const t = setup();
    t.win.dispatchEvent(new t.win.FocusEvent('focus'));
    t.win.dispatchEvent(new t.win.FocusEvent('blur'));
    assert.deepEqual(t.posted[0], { type: 'ready', hasFocus: false });
    assert.deepEqual(t.sent('keyboardFocus'), [
      { type: 'keyboardFocus', hasFocus: true },
      { type: 'keyboardFocus', hasFocus: false },
    ]);
  });

  it('opened cold: the first focus the workbench gives the frame goes to the message box, a click does not', () => {
    const t = setup();
    assert.equal(t.doc.hasFocus(), false, 'the frame does not have the keyboard when the snapshot arrives');
    t.host(snapshot([]));
    assert.notEqual(t.doc.activeElement, t.input(), 'no cursor yet');
    t.win.dispatchEvent(new t.win.FocusEvent('focus'));
    assert.equal(t.doc.activeElement, t.input(), 'the view given the keyboard puts the cursor in the message box');
    t.input().blur();
    t.win.dispatchEvent(new t.win.FocusEvent('focus'));
    assert.notEqual(t.doc.activeElement, t.input(), 'only the first focus');

    const c = setup();
    c.host(snapshot([]));
    c.win.dispatchEvent(new c.win.Event('pointerdown'));
    c.win.dispatchEvent(new c.win.FocusEvent('focus'));
    assert.notEqual(c.doc.activeElement, c.input(), 'a click into the panel is not taken over');
  });

  it('renders a snapshot with the accessible names the tests use', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'Explain this'), assistant('a1', 'Here is `code`:\n\n```ts\nconst x = 1;\n```\n')]));
    assert.equal(t.articles('You').length, 1);
    assert.equal(t.articles('Assistant').length, 1);
    assert.ok(t.button('Send'));
    assert.ok(t.button('Stop'));
    assert.equal(byRole(t.doc, 'button', 'New chat').length, 0, 'New chat is in the view title bar only, not also in the panel');
    assert.ok(t.button('Conversations: First chat'));
    assert.ok(t.button('Copy'));
    assert.ok(t.button('Insert'));
    assert.ok(t.button('Apply'));
    for (const name of ['Attach selection', 'Attach file', 'Attach image', 'Delete conversation', 'Regenerate', 'Edit']) assert.ok(t.button(name), name);
    assert.equal(t.doc.querySelectorAll('select').length, 0, 'no bare <select> of conversations');
    assert.equal(isShown(t.button('Stop')), false, 'Stop is hidden when idle');
    // the fixture's answer has no usage reported: the total says so rather than hiding it, short
    // in the badge (the header stays one row at 290 px), whole in its title and accessible name
    assert.equal(t.doc.querySelector('.total-cost')?.textContent, '≥ $0.0123');
    assert.match(t.doc.querySelector('.total-cost')?.getAttribute('title') ?? '', /^Cost of this conversation so far: \$0\.0123 \+ 1 answer without a price/);
    assert.equal(t.doc.querySelector('.total-cost')?.getAttribute('aria-label'), 'Cost of this conversation so far: $0.0123 + 1 answer without a price');
    assert.equal(t.doc.querySelector('.meter-text')?.textContent, '12% of 1M tokens');
  });

  it('an answer the gateway refused before answering (a 402, nothing received) is not "without a price"', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'q'), { ...assistant('a2', ''), status: 'error' }]));
    assert.equal(t.doc.querySelector('.total-cost')?.textContent, '$0.0123', 'a restored conversation');
    t.host({ type: 'messageAdded', message: assistant('a3', '', 'streaming') });
    t.host({ type: 'messageFinished', messageId: 'a3', status: 'error', totalCost: 0.0123, costUnknown: false });
    assert.equal(t.doc.querySelector('.total-cost')?.textContent, '$0.0123', 'an answer that just ended');
    t.host({ type: 'messageAdded', message: assistant('a4', '', 'streaming') });
    t.host({ type: 'messageFinished', messageId: 'a4', status: 'stopped', totalCost: 0.0123, costUnknown: true });
    assert.equal(t.doc.querySelector('.total-cost')?.textContent, '≥ $0.0123');
  });

  it('the share of the prompt read from the cache counts the answers shown: an answer that ended adds to it, a removed one leaves it', () => {
    const t = setup();
    const usage = (promptTokens: number, cachedTokens: number) => ({ promptTokens, cachedTokens, completionTokens: 1, cost: 0.001 });
    const shareInTitle = () =>
      /(\d+)% of its prompt tokens were read from the cache/.exec(t.doc.querySelector('.total-cost')?.getAttribute('title') ?? '')?.[1];
    t.host(snapshot([user('u1', 'q'), { ...assistant('a1', 'x'), usage: usage(1000, 0) }]));
    assert.equal(shareInTitle(), '0');
    t.host({ type: 'messageAdded', message: user('u2', 'again') });
    t.host({ type: 'messageAdded', message: assistant('a2', '', 'streaming') });
    t.host({ type: 'messageFinished', messageId: 'a2', status: 'done', usage: usage(1000, 1000), totalCost: 0.002, costUnknown: false });
    assert.equal(shareInTitle(), '50', 'both answers: 1,000 of 2,000 prompt tokens');
    // Regenerate removes the last answer: the header says what the conversation list says
    t.host({ type: 'truncated', fromMessageId: 'u2' });
    assert.equal(shareInTitle(), '0', 'the removed answer no longer counts');
  });

  it('Enter sends, Shift+Enter does not, and the box is cleared', () => {
    const t = setup();
    t.host(snapshot([]));
    t.type('line one');
    const shift = t.key(t.input(), 'Enter', { shiftKey: true });
    assert.equal(shift.defaultPrevented, false, 'Shift+Enter inserts a new line');
    assert.equal(t.sent('send').length, 0);
    const enter = t.key(t.input(), 'Enter');
    assert.equal(enter.defaultPrevented, true);
    assert.deepEqual(t.sent('send'), [{ type: 'send', text: 'line one' }]);
    assert.equal(t.input().value, '');
    t.key(t.input(), 'Enter');
    assert.equal(t.sent('send').length, 1, 'an empty box sends nothing');
  });

  it('while busy: Stop takes the place of Send (disabled, hidden), Escape stops', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'q'), assistant('a1', '', 'streaming')], { busy: true }));
    assert.equal(t.button('Send').disabled, true);
    assert.equal(isShown(t.button('Send')), false, 'Send gives its room to Stop (and to the model chip beside it)');
    assert.equal(isShown(t.button('Stop')), true);
    t.type('next question');
    t.key(t.input(), 'Enter');
    assert.equal(t.sent('send').length, 0);
    t.key(t.doc.body, 'Escape');
    assert.deepEqual(t.sent('stop'), [{ type: 'stop' }]);
    t.button('Stop').click();
    assert.equal(t.sent('stop').length, 2);
    t.host({ type: 'busy', busy: false });
    assert.equal(t.button('Send').disabled, false);
    assert.equal(isShown(t.button('Send')), true);
    assert.equal(isShown(t.button('Stop')), false);
  });

  it('draws the first words of an answer at once, then batches streamed text to one update per frame, with a timer fallback', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'q')], { busy: true }));
    t.host({ type: 'messageAdded', message: assistant('a1', '', 'streaming') });
    const body = () => t.articles('Assistant')[0].querySelector('.message-body')!.textContent;
    t.host({ type: 'textDelta', messageId: 'a1', text: 'Hello ' });
    assert.equal(body(), 'Hello', 'the first words do not wait for a frame');
    assert.equal(t.frames.pending, 0);
    t.host({ type: 'textDelta', messageId: 'a1', text: 'world' });
    assert.equal(body(), 'Hello', 'later deltas wait for the frame');
    t.frames.frame();
    assert.equal(body(), 'Hello world');
    t.host({ type: 'textDelta', messageId: 'a1', text: ', hidden' });
    t.frames.timeout(); // a hidden view gets no frames
    assert.equal(body(), 'Hello world, hidden');
    assert.equal(t.frames.pending, 0, 'the frame and the timer cancel each other');
    t.host({ type: 'textDelta', messageId: 'nope', text: 'ignored' });
    assert.equal(t.frames.pending, 0);
  });

  it('finishes a message with usage, cost, and Regenerate on the last answer', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'q')], { busy: true }));
    t.host({ type: 'messageAdded', message: assistant('a1', '', 'streaming') });
    t.host({ type: 'textDelta', messageId: 'a1', text: 'Answer' });
    assert.equal(t.articles('Assistant')[0].getAttribute('aria-busy'), 'true');
    t.host({
      type: 'messageFinished',
      messageId: 'a1',
      status: 'done',
      usage: { promptTokens: 1234, cachedTokens: 1024, completionTokens: 321, cost: 0.0012 },
      totalCost: 0.5,
      costUnknown: false,
    });
    t.host({ type: 'busy', busy: false });
    const a = t.articles('Assistant')[0];
    assert.equal(a.getAttribute('aria-busy'), 'false');
    assert.equal(a.querySelector('.message-body')!.textContent, 'Answer', 'pending text is flushed on finish');
    assert.equal(a.querySelector('.message-usage')!.textContent, '1,234 prompt (1,024 cached) · 321 completion · $0.0012 · flagship-text · stable');
    assert.equal(t.doc.querySelector('.total-cost')!.textContent, formatUsd(0.5));
    assert.equal(isShown(t.button('Regenerate')), true);
    t.button('Regenerate').click();
    assert.deepEqual(t.sent('regenerate'), [{ type: 'regenerate' }]);
  });

  it('offers Regenerate only on the last answer, and not while busy', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'q1'), assistant('a1', 'one'), user('u2', 'q2'), assistant('a2', 'two')]));
    const shown = () =>
      byRole(t.doc, 'button', 'Regenerate')
        .filter(isShown)
        .map((b) => b.closest('article')!.getAttribute('data-message-id'));
    assert.deepEqual(shown(), ['a2']);
    t.host({ type: 'busy', busy: true });
    assert.deepEqual(shown(), []);
  });

  it('shows errors with their actions, and stopped answers as stopped', () => {
    const t = setup();
    const failed: MessageView = {
      ...assistant('a1', ''),
      status: 'error',
      error: { message: 'Insufficient balance (402)', actions: ['topUp', 'switchChannel', 'retry'] },
    };
    const stopped: MessageView = { ...assistant('a2', 'partial'), status: 'stopped' };
    t.host(snapshot([user('u1', 'q'), failed, user('u2', 'q2'), stopped]));
    const err = t.articles('Assistant')[0].querySelector('[role="alert"]')!;
    assert.match(err.textContent!, /Insufficient balance \(402\)/);
    for (const [name, action] of [
      ['Top up balance', 'topUp'],
      ['Switch channel', 'switchChannel'],
    ] as const) {
      t.button(name).click();
      assert.deepEqual(t.sent('action').at(-1), { type: 'action', action });
    }
    // Retry answers the last message: an older error card does not offer it.
    assert.equal(byRole(err, 'button', 'Retry').length, 0);
    assert.match(t.articles('Assistant')[1].textContent!, /Stopped/);
  });

  it('an error card offers Retry or Regenerate, never both side by side', () => {
    const t = setup();
    const failed: MessageView = { ...assistant('a1', ''), status: 'error', error: { message: 'Server error (502)', actions: ['retry', 'showLog'] } };
    t.host(snapshot([user('u1', 'q'), failed]));
    const card = t.articles('Assistant')[0]!;
    const shown = (name: string) => byRole(card, 'button', name).filter((b) => isShown(b)).length;
    assert.equal(shown('Retry'), 1);
    assert.equal(shown('Regenerate'), 0, 'Regenerate is hidden where Retry does the same');
    t.button('Retry').click();
    assert.deepEqual(t.sent('action').at(-1), { type: 'action', action: 'retry' });
    // An error without a Retry action keeps Regenerate.
    const t2 = setup();
    t2.host(snapshot([user('u1', 'q'), { ...assistant('a1', ''), status: 'error', error: { message: 'Bad request (400)', actions: ['pickModel'] } }]));
    const card2 = t2.articles('Assistant')[0]!;
    assert.equal(byRole(card2, 'button', 'Regenerate').filter((b) => isShown(b)).length, 1);
    assert.equal(byRole(card2, 'button', 'Retry').length, 0);
  });

  it('code block buttons post copyCode / insertCode / applyCode, and Copy shows feedback', () => {
    const t = setup();
    t.host(snapshot([assistant('a1', '```py\nprint("hi")\n```')]));
    t.button('Copy').click();
    t.button('Insert').click();
    t.button('Apply').click();
    assert.deepEqual(t.sent('copyCode'), [{ type: 'copyCode', code: 'print("hi")' }]);
    assert.deepEqual(t.sent('insertCode'), [{ type: 'insertCode', code: 'print("hi")' }]);
    assert.deepEqual(t.sent('applyCode'), [{ type: 'applyCode', code: 'print("hi")', language: 'py' }]);
    assert.equal(t.doc.querySelector('.code-feedback')?.textContent, 'Copied');
    assert.ok(t.button('Copy'), 'the button keeps its name');
  });

  it('links open through the host; refused links are not links', () => {
    const t = setup();
    t.host(snapshot([assistant('a1', '[docs](https://example.com/docs) [bad](command:evil) ![img](https://attacker/?q=1)')]));
    const links = Array.from(t.doc.querySelectorAll('article a'));
    assert.equal(links.length, 2);
    for (const a of links) {
      const e = new t.win.MouseEvent('click', { bubbles: true, cancelable: true });
      a.dispatchEvent(e);
      assert.equal(e.defaultPrevented, true, 'the webview never navigates');
    }
    assert.deepEqual(t.sent('openLink'), [
      { type: 'openLink', href: 'https://example.com/docs' },
      { type: 'openLink', href: 'https://attacker/?q=1' },
    ]);
  });

  it('renders tool calls collapsed, with name, arguments and status, and updates them', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'q'), assistant('a1', '', 'streaming')], { busy: true }));
    t.host({ type: 'textDelta', messageId: 'a1', text: 'Let me look.' });
    t.host({ type: 'toolCall', messageId: 'a1', call: { id: 't1', name: 'read_file', arguments: '{"path":"src/a.ts"}', status: 'running' } });
    t.host({ type: 'textDelta', messageId: 'a1', text: 'Found it.' });
    t.frames.frame();
    const details = t.doc.querySelector('details.tool-call') as HTMLDetailsElement;
    assert.equal(details.open, false);
    assert.match(details.querySelector('summary')!.textContent!, /read_file.*src\/a\.ts.*running/);
    t.host({ type: 'toolCall', messageId: 'a1', call: { id: 't1', name: 'read_file', arguments: '{"path":"src/a.ts"}', status: 'done', result: 'file text' } });
    assert.equal(t.doc.querySelectorAll('details.tool-call').length, 1);
    assert.match(details.querySelector('summary')!.textContent!, /done/);
    assert.equal(details.querySelector('.tool-result')!.textContent, 'file text');
    const body = t.articles('Assistant')[0].querySelector('.message-body')!;
    assert.deepEqual(
      Array.from(body.children).map((c) => (c.textContent!.includes('read_file') ? 'tool' : c.textContent)),
      ['Let me look.', 'tool', 'Found it.'],
    );
  });

  it('Edit puts a message into the box and Send posts editAndResend', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'first question'), assistant('a1', 'answer')]));
    t.type('unsent draft');
    t.button('Edit').click();
    assert.equal(t.input().value, 'first question');
    assert.ok(t.articles('You')[0].classList.contains('editing'));
    t.type('first question, rephrased');
    t.button('Send').click();
    assert.deepEqual(t.sent('editAndResend'), [{ type: 'editAndResend', messageId: 'u1', text: 'first question, rephrased' }]);
    assert.equal(t.sent('send').length, 0);
    assert.equal(t.input().value, 'unsent draft', 'the draft comes back');
    t.button('Edit').click();
    t.key(t.input(), 'Escape');
    assert.equal(t.input().value, 'unsent draft', 'Escape cancels the edit');
  });

  it('attach image is disabled with a reason on a text-only model, and says why instead of sending', () => {
    const t = setup();
    t.host(snapshot([]));
    const attach = t.button('Attach image');
    assert.equal(attach.getAttribute('aria-disabled'), 'true');
    assert.match(attach.title, /not supported by flagship-text/);
    attach.click();
    assert.equal(t.sent('attachImage').length, 0);
    assert.match(t.doc.querySelector('.notices [role="alert"]')!.textContent!, /not supported by flagship-text/);
    t.host({ type: 'composer', composer: composer({ model: 'vision-model', imageInput: true }) });
    assert.equal(t.button('Attach image').getAttribute('aria-disabled'), 'false');
    t.button('Attach image').click();
    assert.deepEqual(t.sent('attachImage'), [{ type: 'attachImage' }]);
  });

  it('pasting an image: a notice on a text-only model, pasteImage (base64) on a vision model', async () => {
    const t = setup();
    t.host(snapshot([]));
    const paste = (type: string) => {
      const file = new t.win.File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type });
      const e = new t.win.Event('paste', { bubbles: true, cancelable: true });
      Object.defineProperty(e, 'clipboardData', { value: { items: [{ kind: 'file', type, getAsFile: () => file }] } });
      t.input().dispatchEvent(e);
      return e;
    };
    assert.equal(paste('image/png').defaultPrevented, true);
    await wait(20);
    assert.equal(t.sent('pasteImage').length, 0);
    assert.match(t.doc.querySelector('.notices [role="alert"]')!.textContent!, /not supported by flagship-text/);
    t.host({ type: 'composer', composer: composer({ model: 'vision-model', imageInput: true }) });
    paste('image/png');
    for (let i = 0; i < 50 && t.sent('pasteImage').length === 0; i++) await wait(10);
    assert.deepEqual(t.sent('pasteImage'), [{ type: 'pasteImage', mime: 'image/png', base64: 'iVBORw==', name: 'shot.png' }]);
    paste('image/bmp');
    await wait(20);
    assert.equal(t.sent('pasteImage').length, 1, 'unsupported image types are refused');
  });

  it('shows attachment chips with remove buttons and a context warning', () => {
    const t = setup();
    t.host(snapshot([], { composer: composer({ attachments: [{ id: 'f1', kind: 'file', label: 'src/a.ts' }], contextTokens: 950_000 }) }));
    t.button('Remove attachment src/a.ts').click();
    assert.deepEqual(t.sent('removeAttachment'), [{ type: 'removeAttachment', attachmentId: 'f1' }]);
    const meter = t.doc.querySelector('[role="meter"]')!;
    assert.ok(meter.classList.contains('warn'));
    assert.equal(meter.getAttribute('aria-valuetext'), 'Context: 950,000 of 1,000,000 tokens (95%)');
    assert.equal(meter.getAttribute('aria-label'), 'Context');
    assert.equal(meter.querySelector('.meter-text')?.textContent, '95% of 1M tokens');
  });

  it('Attach problems posts attachDiagnostics; the problems chip has its own icon and a remove button', () => {
    const t = setup();
    t.host(snapshot([], { composer: composer() }));
    t.button('Attach problems').click();
    assert.deepEqual(t.sent('attachDiagnostics'), [{ type: 'attachDiagnostics' }]);
    t.host({ type: 'composer', composer: composer({ attachments: [{ id: 'd1', kind: 'diagnostics', label: 'Problems: a.json (2)' }] }) });
    const chip = t.doc.querySelector('.composer-attachments .chip-diagnostics')!;
    assert.ok(chip, 'a problems chip');
    assert.equal(chip.textContent, 'Problems: a.json (2)');
    t.button('Remove attachment Problems: a.json (2)').click();
    assert.deepEqual(t.sent('removeAttachment'), [{ type: 'removeAttachment', attachmentId: 'd1' }]);
  });

  it('keeps the draft: webview state at once, the host after a pause, restored on reload', async () => {
    const t = setup();
    t.host(snapshot([]));
    t.type('half a thought');
    assert.deepEqual(t.state(), { draft: 'half a thought', conversationId: 'c1' });
    await wait(30);
    assert.deepEqual(t.sent('draft').at(-1), { type: 'draft', text: 'half a thought' });
    // reload: a new page with the saved state, and a host that never received the last edit
    const r = setup(t.state());
    assert.equal(r.input().value, 'half a thought', 'shown before the host answers');
    r.host(snapshot([], { conversation: { id: 'c1', title: 'First chat', messages: [], draft: 'older' } }));
    assert.equal(r.input().value, 'half a thought');
    await wait(30);
    assert.deepEqual(r.sent('draft').at(-1), { type: 'draft', text: 'half a thought' });
  });

  it('text typed while a new chat is on its way goes with the new chat, not lost', async () => {
    const t = setup();
    t.host(snapshot([user('u1', 'a'), assistant('a1', 'b')]));
    t.win.dispatchEvent(new t.win.Event('blur')); // the view title's New Chat takes the focus first
    t.type('typed at once'); // ... and the user types before the host's snapshot arrives
    t.host(snapshot([], { conversation: { id: 'c2', title: 'New chat', messages: [], draft: '' } }));
    assert.equal(t.input().value, 'typed at once', 'still in the box');
    await wait(30);
    assert.deepEqual(t.sent('draft').at(-1), { type: 'draft', text: 'typed at once' }, 'and handed to the host for the new chat');
    // switching to a conversation with a draft of its own keeps both
    t.type('more');
    t.host(snapshot([], { conversation: { id: 'c3', title: 'Other', messages: [], draft: 'its own' } }));
    assert.equal(t.input().value, 'its own\n\nmore');
    // a draft already handed to the host stays with its conversation (the switch shows the next one's)
    await wait(30);
    t.host(snapshot([], { conversation: { id: 'c4', title: 'Fourth', messages: [], draft: 'fourth draft' } }));
    assert.equal(t.input().value, 'fourth draft');
  });

  it('text typed before the first snapshot stays in the box and reaches the host (a slow host, seen in a CI run)', async () => {
    for (const posted of [false, true]) {
      const t = setup();
      t.type('typed before the host answered');
      // the debounced draft post went out, or not, before the host made its snapshot
      if (posted) await wait(30);
      t.host(snapshot([], { conversation: { id: 'c1', title: 'New chat', messages: [], draft: '' } }));
      assert.equal(t.input().value, 'typed before the host answered', `still in the box (draft posted first: ${posted})`);
      await wait(30);
      assert.deepEqual(t.sent('draft').at(-1), { type: 'draft', text: 'typed before the host answered' }, 'the host has it as the draft');
      t.key(t.input(), 'Enter');
      assert.deepEqual(t.sent('send').at(-1), { type: 'send', text: 'typed before the host answered' }, 'and Enter sends it');
    }
    // the host's draft (its copy of an older page's typing) and what was typed meanwhile are both kept
    const t = setup({ draft: 'older draft', conversationId: 'c1' });
    t.type('older draft and more');
    t.host(snapshot([], { conversation: { id: 'c1', title: 'New chat', messages: [], draft: 'older draft' } }));
    assert.equal(t.input().value, 'older draft and more', 'the text typed on top of the restored draft, once');
    const u = setup();
    u.type('new words');
    u.host(snapshot([], { conversation: { id: 'c1', title: 'New chat', messages: [], draft: 'the host had this' } }));
    assert.equal(u.input().value, 'the host had this\n\nnew words', 'both, nothing lost');
    const v = setup();
    v.type('see the last line');
    v.host(snapshot([], { conversation: { id: 'c1', title: 'New chat', messages: [], draft: 'last' } }));
    assert.equal(v.input().value, 'last\n\nsee the last line', 'a host draft that only occurs inside the typed text is kept too');
  });

  it('restores a message the host could not send (setDraft)', () => {
    const t = setup();
    t.host(snapshot([]));
    t.type('important question');
    t.key(t.input(), 'Enter');
    assert.equal(t.input().value, '');
    t.host({ type: 'setDraft', text: 'important question' });
    assert.equal(t.input().value, 'important question');
    assert.equal(t.doc.activeElement, t.input());
  });

  it('a second snapshot replaces everything; truncated removes from a message on', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'a'), assistant('a1', 'b'), user('u2', 'c'), assistant('a2', 'd')]));
    t.host({ type: 'truncated', fromMessageId: 'u2' });
    assert.deepEqual(
      t.articles().map((a) => a.getAttribute('data-message-id')),
      ['u1', 'a1'],
    );
    t.host(snapshot([user('x1', 'other')], { conversation: { id: 'c2', title: 'Older chat', messages: [user('x1', 'other')], draft: 'its draft' } }));
    assert.deepEqual(
      t.articles().map((a) => a.getAttribute('data-message-id')),
      ['x1'],
    );
    assert.equal(t.input().value, 'its draft');
    assert.ok(t.button('Conversations: Older chat'), 'the history control shows the active title');
  });

  it('switches, creates and deletes conversations through the host', async () => {
    const t = setup();
    t.host(snapshot([]));
    t.type('draft of c1');
    t.button('Conversations: First chat').click();
    assert.deepEqual(t.sent('draft').at(-1), { type: 'draft', text: 'draft of c1' }, 'the draft is saved before the list opens');
    assert.deepEqual(t.sent('openConversations'), [{ type: 'openConversations' }]);
    // The view title's New chat and the list take the focus out of the panel first: the draft goes to the host then.
    t.type('second draft');
    t.win.dispatchEvent(new t.win.Event('blur'));
    assert.deepEqual(t.sent('draft').at(-1), { type: 'draft', text: 'second draft' });
    t.host({ type: 'conversations', conversations: [{ id: 'c1', title: 'Renamed', updatedAt: 1 }], activeId: 'c1' });
    assert.ok(t.button('Conversations: Renamed'), 'a rename shows at once');
    t.button('Delete conversation').click();
    assert.deepEqual(t.sent('deleteConversation'), [{ type: 'deleteConversation', conversationId: 'c1' }]);
  });

  it('ignores unknown and malformed host messages', () => {
    const t = setup();
    t.host(snapshot([user('u1', 'q')]));
    for (const bad of [null, 'text', 42, { type: 'nope' }, { type: 'messageAdded' }, { type: 'textDelta', messageId: 1 }, { type: 'busy', busy: 'yes' }])
      t.host(bad);
    assert.equal(t.articles().length, 1);
  });
});

// The composer's "tools are off" hint shows the host's reason once: the reason (turnContext.ts)
// is already a whole sentence starting "Workspace tools are off:", and the composer used to put
// that prefix in front again ("Workspace tools are off: Workspace tools are off: ...").
describe('chat panel: the tools-off hint', () => {
  it('shows the reason the host gives, once', () => {
    const reason = toolOffer({ id: 'm', tools: true } as never, false, 8, () => []).reason!;
    assert.match(reason, /^Workspace tools are off: /);
    const win = newWindow();
    const frames = {
      requestAnimationFrame: (cb: () => void) => (cb(), 1),
      cancelAnimationFrame: () => {},
      setTimeout: (cb: () => void) => (cb(), 1),
      clearTimeout: () => {},
    };
    startChatApp(win, { postMessage: () => {}, getState: () => undefined, setState: () => {} }, { frameHost: frames as never });
    const composer: ComposerState = {
      model: 'm',
      channel: 'stable',
      imageInput: false,
      attachments: [],
      contextTokens: 1,
      contextWindow: 1000,
      hasKey: true,
      toolsDisabledReason: reason,
    };
    const snapshot: HostMessage = {
      type: 'snapshot',
      conversation: { id: 'c1', title: 'x', messages: [], draft: '', totalCost: 0 },
      conversations: [{ id: 'c1', title: 'x', updatedAt: 1 }],
      composer,
      busy: false,
    };
    win.dispatchEvent(new win.MessageEvent('message', { data: snapshot }));
    const hint = win.document.querySelector('.composer-hint')!;
    assert.equal(hint.textContent, reason);
  });
});
