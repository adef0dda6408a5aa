// The Thinking block: streams live with its elapsed time, collapses when the answer starts, can
// be opened again, is restored from the transcript, renders hostile text inert like answers, and
// its code is never what Copy/Insert/Apply take.
import * as assert from 'node:assert/strict';
import type { MessageView, WebviewMessage } from '../../../src/chat/protocol';
import type { FrameHost } from '../../../src/webview/frameScheduler';
import { TranscriptView } from '../../../src/webview/transcriptView';
import { formatThinkingTime } from '../../../src/webview/reasoningView';
import { newWindow } from './jsdomEnv';

const host: FrameHost = { setTimeout: () => 0, clearTimeout: () => undefined };

const windows: Window[] = [];
// A live block ticks on the window's interval timer: closing the window stops it.
afterEach(() => windows.splice(0).forEach((w) => w.close()));

function setup(messages: MessageView[] = []) {
  const win = newWindow();
  windows.push(win);
  const posted: WebviewMessage[] = [];
  const t = new TranscriptView(win.document, { post: (m) => posted.push(m), edit: () => undefined }, host, { highlight: false });
  win.document.body.appendChild(t.element);
  t.reset(messages);
  const block = () => t.element.querySelector<HTMLDetailsElement>('.reasoning-block');
  return { win, t, posted, block };
}

const streaming = (parts: Extract<MessageView, { role: 'assistant' }>['parts'] = []): MessageView => ({
  id: 'a1',
  role: 'assistant',
  parts,
  status: 'streaming',
  model: 'm',
  channel: 'stable',
  createdAt: 1,
});

describe('webview: the Thinking block', () => {
  it('streams open with "Thinking…", collapses to "Thought for 3 s" when the answer starts, and opens again', () => {
    const { t, block } = setup([streaming()]);
    t.thinkingDelta('a1', 'Let me **check** ');
    t.thinkingDelta('a1', 'the file.');
    t.flushNow();
    const el = block()!;
    assert.equal(el.tagName, 'DETAILS');
    assert.equal(el.open, true);
    assert.match(el.querySelector('summary')!.textContent!, /^Thinking… \d+ s$/);
    assert.equal(el.querySelector('.reasoning-body')!.textContent!.trim(), 'Let me check the file.');
    assert.ok(el.querySelector('.reasoning-body strong'), 'rendered as markdown');
    t.thinkingDone('a1', 3200);
    t.textDelta('a1', 'The answer.');
    t.flushNow();
    assert.equal(el.open, false);
    assert.equal(el.querySelector('summary')!.textContent, 'Thought for 3 s');
    // above the answer
    const body = t.element.querySelector('.message-body')!;
    assert.equal(body.firstElementChild, el);
    assert.ok(body.lastElementChild!.textContent!.includes('The answer.'));
    el.open = true; // the summary's click toggles this natively
    assert.equal(el.open, true);
    assert.ok(!el.closest('[hidden]'));
  });

  it('collapses on the answer even without a thinkingDone message, and when the message finishes', () => {
    const { t, block } = setup([streaming()]);
    t.thinkingDelta('a1', 'hmm');
    t.textDelta('a1', 'x');
    t.flushNow();
    assert.equal(block()!.open, false);
    assert.match(block()!.querySelector('summary')!.textContent!, /^Thought for \d+ s$/);
  });

  it('code in the reasoning gets no Copy/Insert/Apply: clicks there post nothing', () => {
    const { t, posted, block } = setup([streaming()]);
    t.thinkingDelta('a1', '```ts\nconst secret = 1;\n```\n');
    t.thinkingDone('a1', 10);
    t.textDelta('a1', '```ts\nconst answer = 2;\n```\n');
    t.finish('a1', 'done');
    const thinkingButtons = block()!.querySelectorAll<HTMLButtonElement>('[data-code-action]');
    for (const b of thinkingButtons) b.click();
    assert.deepEqual(posted, []);
    const answerCopy = Array.from(t.element.querySelectorAll<HTMLButtonElement>('[data-code-action="copy"]')).find((b) => !b.closest('.reasoning-block'))!;
    answerCopy.click();
    assert.deepEqual(posted, [{ type: 'copyCode', code: 'const answer = 2;' }]);
  });

  it('hostile reasoning is as inert as a hostile answer (same sanitizer)', () => {
    const { t, block } = setup([streaming()]);
    t.thinkingDelta('a1', '<img src=x onerror="alert(1)"><script>alert(2)</script>[x](javascript:alert(3)) <iframe src="https://e.example"></iframe>');
    t.finish('a1', 'done');
    const el = block()!;
    assert.equal(el.querySelector('script, iframe, img[onerror], [onerror]'), null);
    for (const a of el.querySelectorAll('a')) assert.ok(!/^javascript:/i.test(a.getAttribute('href') ?? ''));
  });

  it('is restored from a snapshot: collapsed, with its time, in the order of the parts', () => {
    const { t } = setup([
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { kind: 'thinking', text: 'first round', ms: 1500 },
          { kind: 'tool', call: { id: 'c1', name: 'readFile', arguments: '{}', status: 'done', result: 'x' } },
          { kind: 'thinking', text: 'second round', ms: 65_000 },
          { kind: 'text', text: 'Answer.' },
        ],
        status: 'done',
        model: 'm',
        channel: 'stable',
        createdAt: 1,
      },
    ]);
    const blocks = Array.from(t.element.querySelectorAll<HTMLDetailsElement>('.reasoning-block'));
    assert.deepEqual(
      blocks.map((b) => [b.open, b.querySelector('summary')!.textContent, b.querySelector('.reasoning-body')!.textContent!.trim()]),
      [
        [false, 'Thought for 2 s', 'first round'],
        [false, 'Thought for 1 min 5 s', 'second round'],
      ],
    );
    const order = Array.from(t.element.querySelector('.message-body')!.children).map((c) => c.className.split(' ')[0]);
    assert.equal(order[0], 'reasoning-block');
    assert.equal(order[2], 'reasoning-block');
  });

  it('a snapshot taken while thinking shows a live block that keeps streaming', () => {
    const { t, block } = setup([streaming([{ kind: 'thinking', text: 'so far' }])]);
    assert.equal(block()!.open, true);
    t.thinkingDelta('a1', ', and more');
    t.flushNow();
    assert.equal(block()!.querySelector('.reasoning-body')!.textContent!.trim(), 'so far, and more');
    assert.equal(t.element.querySelectorAll('.reasoning-block').length, 1);
  });

  it('formats times', () => {
    assert.equal(formatThinkingTime(0), '0 s');
    assert.equal(formatThinkingTime(59_400), '59 s');
    assert.equal(formatThinkingTime(125_000), '2 min 5 s');
  });
});
