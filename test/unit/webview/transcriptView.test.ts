// A long conversation restores with only its newest messages rendered at once; the
// rest arrive in idle steps (or when scrolled to), and in the end every message is shown, in
// order, with the same content a full render gives. Counts, never times.
import * as assert from 'node:assert/strict';
import type { MessageView } from '../../../src/chat/protocol';
import type { IdleDeadlineLike, IdleHost } from '../../../src/webview/frameScheduler';
import { TranscriptView } from '../../../src/webview/transcriptView';
import { IDLE_BATCH, PAGE_MESSAGES, initialWindowStart } from '../../../src/webview/transcriptWindow';
import { newWindow } from './jsdomEnv';

class ManualIdle implements IdleHost {
  private next = 1;
  readonly idle = new Map<number, (d: IdleDeadlineLike) => void>();
  requestAnimationFrame = () => this.next++;
  cancelAnimationFrame = () => undefined;
  setTimeout = () => this.next++;
  clearTimeout = () => undefined;
  requestIdleCallback = (cb: (d: IdleDeadlineLike) => void) => {
    this.idle.set(this.next, cb);
    return this.next++;
  };
  cancelIdleCallback = (id: number) => void this.idle.delete(id);
  /** a stopped clock: the idle queue's own 8 ms slice cap never cuts a period short here */
  now: () => number = () => 0;
  /** one idle period in which `steps` steps fit */
  runIdle(steps: number): void {
    const cbs = [...this.idle.values()];
    this.idle.clear();
    let left = steps;
    for (const cb of cbs) cb({ timeRemaining: () => (left-- > 1 ? 10 : 0) });
  }
}

function conversation(n: number): MessageView[] {
  const out: MessageView[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      i % 2 === 0
        ? { id: `m${i}`, role: 'user', text: `question ${i}`, attachments: [], createdAt: i }
        : {
            id: `m${i}`,
            role: 'assistant',
            parts: [{ kind: 'text', text: `answer **${i}**\n\n\`\`\`ts\nconst v${i} = ${i};\n\`\`\`\n` }],
            status: 'done',
            model: 'm',
            channel: 'stable',
            createdAt: i,
          },
    );
  }
  return out;
}

/**
 * jsdom lays nothing out: this gives the log a view `clientHeight` tall and a content height of
 * `perArticle` px per message shown, which is what the first window is sized by.
 */
function fakeLayout(el: HTMLElement, clientHeight: number, perArticle: number): { scrollHeightReads: number } {
  const counts = { scrollHeightReads: 0 };
  const height = () => el.querySelectorAll('article').length * perArticle;
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => clientHeight });
  Object.defineProperty(el, 'clientWidth', { configurable: true, get: () => 400 });
  Object.defineProperty(el, 'scrollHeight', {
    configurable: true,
    get: () => {
      counts.scrollHeightReads++;
      return height();
    },
  });
  let top = 0;
  Object.defineProperty(el, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (v: number) => {
      top = Math.max(0, Math.min(v, height() - clientHeight));
    },
  });
  return counts;
}

function setup(n: number, options: { layout?: [clientHeight: number, perArticle: number]; highlight?: boolean } = {}) {
  const win = newWindow();
  const host = new ManualIdle();
  const t = new TranscriptView(win.document, { post: () => undefined, edit: () => undefined }, host, { highlight: options.highlight ?? false });
  if (options.layout) fakeLayout(t.element, ...options.layout);
  win.document.body.appendChild(t.element);
  const messages = conversation(n);
  t.reset(messages);
  const shownIds = () => Array.from(t.element.querySelectorAll('article')).map((a) => a.getAttribute('data-message-id'));
  return { win, host, t, messages, shownIds };
}

describe('webview: windowed restore of long conversations', function () {
  // jsdom builds a few hundred messages here; the shared machine can be slow (no timing is asserted)
  this.timeout(60_000);
  it('renders only the newest messages at once, in order, the newest at the bottom', () => {
    const { t, messages, shownIds } = setup(2000);
    const ids = shownIds();
    assert.ok(ids.length > 0 && ids.length <= 30, `rendered at once: ${ids.length}`);
    assert.deepEqual(
      ids,
      messages.slice(messages.length - ids.length).map((m) => m.id),
    );
    assert.equal(t.messageCount, 2000);
    assert.equal(t.unrenderedCount, 2000 - ids.length);
  });

  it('idle steps render the older messages newest first, a page at a time, until every message is shown', () => {
    const { t, host, messages, shownIds } = setup(300);
    const first = shownIds().length;
    const waiting = t.unrenderedCount;
    host.runIdle(5);
    assert.equal(shownIds().length, first, 'a page of older messages is built off the page until it is full');
    assert.equal(t.unrenderedCount, waiting, 'built but not shown yet');
    host.runIdle(PAGE_MESSAGES / IDLE_BATCH - 5);
    assert.equal(shownIds().length, first + PAGE_MESSAGES, 'a full page goes in at once');
    assert.equal(t.element.querySelectorAll(':scope > .transcript-page').length, 1);
    assert.equal(t.unrenderedCount, waiting - PAGE_MESSAGES);
    let periods = 0;
    while (host.idle.size && periods++ < 1000) host.runIdle(50);
    assert.equal(t.unrenderedCount, 0);
    assert.deepEqual(
      shownIds(),
      messages.map((m) => m.id),
      'all 300, in order',
    );
  });

  it('the windowed result has the same DOM as rendering every message at once', () => {
    const { t, messages } = setup(120);
    t.renderAll();
    const win = newWindow();
    const full = new TranscriptView(win.document, { post: () => undefined, edit: () => undefined }, new ManualIdle(), { highlight: false });
    // a window that starts at 0 renders everything synchronously
    for (const m of messages) full.addMessage(m);
    const articles = (el: Element) => Array.from(el.querySelectorAll('article')).map((a) => a.outerHTML);
    assert.deepEqual(articles(t.element), articles(full.element));
  });

  it('scrolling near the top renders the next messages at once (no idle time needed)', () => {
    const { win, t, host, shownIds } = setup(2000, { layout: [500, 100] });
    const before = shownIds().length;
    assert.ok(t.element.scrollTop > 0, 'pinned to the bottom');
    // the user scrolls up to the top
    t.element.scrollTop = 0;
    t.element.dispatchEvent(new win.Event('scroll'));
    assert.ok(shownIds().length > before, 'scrolled-to messages are shown');
    host.runIdle(3);
    const during = shownIds().length;
    t.element.scrollTop = 0;
    t.element.dispatchEvent(new win.Event('scroll'));
    assert.ok(shownIds().length > during, 'a page being built is shown at once when scrolled to');
    assert.equal(host.idle.size, 1, 'the idle work continues for the rest');
  });

  it('a scroll near the top renders older messages for one slice of time: one when a message takes the slice, at most a page', () => {
    const { win, t, host, shownIds } = setup(2000, { layout: [500, 100] });
    const scrollToTop = () => {
      t.element.scrollTop = 0;
      t.element.dispatchEvent(new win.Event('scroll'));
    };
    // a clock that moves 10 ms per reading: every message "takes" longer than the 8 ms slice
    let clock = 0;
    host.now = () => (clock += 10);
    let before = shownIds().length;
    scrollToTop();
    assert.equal(shownIds().length, before + 1, 'one message: the slice was used up');
    // a stopped clock: the slice never ends, the count cap (a page) does
    host.now = () => 0;
    before = shownIds().length;
    scrollToTop();
    assert.equal(shownIds().length, before + PAGE_MESSAGES);
  });

  it('the first window is sized to the view: the newest messages until the log is taller than the view', () => {
    const { t, messages, shownIds } = setup(2000, { layout: [500, 100] });
    const ids = shownIds();
    // 100 px each in a 500 px view: 6 fill it by 120 px or more; they go in 3 at a time
    assert.equal(ids.length, 9);
    assert.deepEqual(
      ids,
      messages.slice(-9).map((m) => m.id),
    );
    assert.equal(t.unrenderedCount, 2000 - 9);
    assert.ok(!t.element.classList.contains('filling'), 'the measuring class is taken off again');
    // a hidden panel (no height yet) takes the whole budget, as before
    const hidden = setup(2000, { layout: [0, 100] });
    assert.equal(hidden.shownIds().length, 16);
  });

  it('a first window with more text than the view can show is not measured', () => {
    const win = newWindow();
    const t = new TranscriptView(win.document, { post: () => undefined, edit: () => undefined }, new ManualIdle(), { highlight: false });
    const counts = fakeLayout(t.element, 500, 10);
    win.document.body.appendChild(t.element);
    // 400 x 500 px holds at most ~2,000 characters of the densest text; three of these hold 9,000
    const messages = conversation(200).map((m) => (m.role === 'user' ? { ...m, text: 'long '.repeat(600) } : m));
    const before = counts.scrollHeightReads;
    t.reset(messages);
    assert.equal(t.element.querySelectorAll('article').length, 3, 'one batch');
    // only the scroll to the bottom reads the height (10 px per message would never fill the view)
    assert.equal(counts.scrollHeightReads - before, 1);
  });

  it('our own scroll to the bottom of a one-view window does not render older messages at once', () => {
    const { win, t, shownIds } = setup(2000, { layout: [500, 100] });
    const before = shownIds().length;
    // the first window is about one view tall: the bottom is "near the top" too
    assert.ok(t.element.scrollTop < t.element.clientHeight);
    t.element.dispatchEvent(new win.Event('scroll'));
    assert.equal(shownIds().length, before, 'nothing rendered in the scroll event');
    assert.equal(t.unrenderedCount, 2000 - before);
  });

  it('code in the first window is coloured on idle time, the lowest block first, before older messages are rendered', () => {
    const { t, host, shownIds } = setup(400, { layout: [500, 100], highlight: true });
    const coloured = () => Array.from(t.element.querySelectorAll('.code-block')).map((b) => b.querySelector('[class^="hljs-"]') !== null);
    const first = shownIds().length;
    assert.ok(coloured().length > 1 && coloured().every((c) => !c), 'nothing coloured in the task that paints');
    host.runIdle(1);
    const after1 = coloured();
    assert.equal(after1.filter(Boolean).length, 1);
    assert.equal(after1[after1.length - 1], true, 'the lowest block (in view) first');
    host.runIdle(after1.length - 1);
    assert.ok(coloured().every(Boolean), 'every block of the first window coloured');
    assert.equal(shownIds().length, first, 'colouring came before any older message');
    while (host.idle.size) host.runIdle(50);
    assert.equal(t.unrenderedCount, 0);
    assert.ok(coloured().every(Boolean), 'older messages are coloured as they are rendered');
  });

  it('editing from an old message that is not rendered yet renders it first', () => {
    const { t, shownIds } = setup(200);
    t.truncate('m10');
    assert.deepEqual(
      shownIds(),
      conversation(10).map((m) => m.id),
    );
    assert.equal(t.unrenderedCount, 0);
  });

  it('a new message during the idle restore goes to the bottom; a re-sent old id is ignored', () => {
    const { t, host, shownIds } = setup(100);
    t.addMessage({ id: 'new', role: 'user', text: 'next', attachments: [], createdAt: 1e9 });
    t.addMessage({ id: 'm3', role: 'assistant', parts: [], status: 'done', model: 'm', channel: 'stable', createdAt: 3 });
    while (host.idle.size) host.runIdle(50);
    const ids = shownIds();
    assert.equal(ids.length, 101);
    assert.equal(ids[ids.length - 1], 'new');
    assert.equal(ids.filter((id) => id === 'm3').length, 1);
  });

  it('the initial window reaches back to the last assistant message (it owns Regenerate)', () => {
    const msgs = conversation(60);
    for (let i = 40; i < 60; i++) msgs[i] = { id: `u${i}`, role: 'user', text: 'x'.repeat(5000), attachments: [], createdAt: i };
    const start = initialWindowStart(msgs);
    assert.ok(start <= 39 && msgs[39].role === 'assistant');
  });

  it('a small conversation is rendered completely at once', () => {
    const { t, host } = setup(10);
    assert.equal(t.unrenderedCount, 0);
    assert.equal(host.idle.size, 0);
  });
});
