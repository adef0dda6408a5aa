// Issue 10 (hostile corpus: "no flush over 50 ms") and issue 9: block quotes and lists nested
// deeper than MAX_BLOCK_DEPTH are not built as DOM; what is inside the deepest allowed container
// is one plain block holding its text exactly as typed. Checked as what is built (container
// depth, the plain block's exact text), never as time.
import * as assert from 'node:assert/strict';
import { codeTextOf, idleQueueOf } from '../../../src/webview/codeBlock';
import { MAX_BLOCK_DEPTH } from '../../../src/webview/markdown';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { newWindow, randomChunks, seeded } from './jsdomEnv';

const doc = newWindow().document;
const CONTAINERS = new Set(['BLOCKQUOTE', 'UL', 'OL', 'LI']);

/** The most block containers (blockquote, ul, ol, li) any element of `root` sits in. */
function containerDepth(root: Element): number {
  let max = 0;
  // iterative: an unbounded tree must fail the assertion, not overflow the stack here
  const stack: [Element, number][] = [[root, 0]];
  while (stack.length) {
    const [el, d] = stack.pop()!;
    const depth = d + (CONTAINERS.has(el.tagName) ? 1 : 0);
    if (depth > max) max = depth;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, depth]);
  }
  return max;
}

function deepTexts(root: Element): string[] {
  return Array.from(root.querySelectorAll('.md-deep')).map((b) => codeTextOf(b));
}

/** One-go and streamed in seeded random chunks (flushing after each), colouring drained. */
function both(src: string, maxChunk: number): [string, Element][] {
  const once = StreamingMarkdown.render(doc, src).element;
  const r = new StreamingMarkdown(doc);
  for (const piece of randomChunks(src, seeded(src.length), maxChunk)) {
    r.append(piece);
    r.flush();
    assert.ok(containerDepth(r.element) <= MAX_BLOCK_DEPTH, `while streaming: container depth ${containerDepth(r.element)}`);
  }
  r.finish();
  idleQueueOf(doc)!.drain();
  assert.ok(r.element.innerHTML === once.innerHTML, 'streamed == one-go');
  return [['one-go', once], ['streamed', r.element]];
}

const listLine = (i: number) => `${'  '.repeat(i)}- item${i}`;
/** The list level whose item content is the first thing at the cap (ul + li = two levels each). */
const LAST_LIST = MAX_BLOCK_DEPTH / 2 - 1;

describe('webview: block nesting is capped at MAX_BLOCK_DEPTH, text kept exactly', function () {
  // jsdom is slow and the machines are shared: a generous limit (no timing is asserted)
  this.timeout(120_000);

  it('block quotes x500 on one line: MAX_BLOCK_DEPTH quotes, then the rest as typed', () => {
    const src = `${'> '.repeat(500)}deep quote\n\nafter`;
    for (const [how, el] of both(src, 40)) {
      assert.equal(containerDepth(el), MAX_BLOCK_DEPTH, how);
      assert.equal(el.querySelectorAll('blockquote').length, MAX_BLOCK_DEPTH, how);
      assert.deepEqual(deepTexts(el), [`${'> '.repeat(500 - MAX_BLOCK_DEPTH)}deep quote`], how);
      assert.equal(el.lastElementChild?.lastElementChild?.tagName, 'P', `${how}: the paragraph after it is markdown again`);
      assert.equal(el.lastElementChild?.lastElementChild?.textContent, 'after', how);
    }
  });

  it('lists x120: the first levels are lists, the rest one plain block with every line', () => {
    const lines = Array.from({ length: 120 }, (_, i) => listLine(i));
    const src = `${lines.join('\n')}\n\nafter`;
    // item LAST_LIST's content and everything below it, relative to that item's indentation
    const indent = 2 * (LAST_LIST + 1);
    const expected = [`item${LAST_LIST}`, ...lines.slice(LAST_LIST + 1).map((l) => l.slice(indent))].join('\n');
    for (const [how, el] of both(src, 200)) {
      assert.equal(containerDepth(el), MAX_BLOCK_DEPTH, how);
      assert.equal(el.querySelectorAll('ul').length, LAST_LIST + 1, how);
      assert.deepEqual(deepTexts(el), [expected], how);
      assert.match(el.textContent ?? '', /after$/, how);
    }
  });

  it('quotes and lists mixed, each line one level deeper: no element deeper than the cap, every word kept', () => {
    // short enough (and few enough delimiters) to be parsed as markdown, not shown whole as plain text
    const src = Array.from({ length: 40 }, (_, i) => `${'> '.repeat(Math.floor(i / 2))}${i % 2 ? '- ' : ''}word${i} text`).join('\n');
    for (const [how, el] of both(src, 30)) {
      assert.equal(containerDepth(el), MAX_BLOCK_DEPTH, how);
      assert.ok(deepTexts(el).length >= 1, `${how}: the levels below the cap are plain blocks`);
      const shown = (el.textContent ?? '').match(/word\d+/g);
      assert.deepEqual(shown?.filter((w, k, a) => a.indexOf(w) === k), Array.from({ length: 40 }, (_, i) => `word${i}`), `${how}: every word, in order`);
    }
  });

  it('nesting up to the cap is markdown as before (no plain block)', () => {
    const lines = Array.from({ length: LAST_LIST }, (_, i) => listLine(i));
    const quotes = `${'> '.repeat(MAX_BLOCK_DEPTH - 1)}one quote less than the cap`;
    for (const [how, el] of [...both(lines.join('\n'), 20), ...both(quotes, 20)]) {
      assert.deepEqual(deepTexts(el), [], how);
    }
    assert.equal(StreamingMarkdown.render(doc, quotes).element.querySelectorAll('blockquote').length, MAX_BLOCK_DEPTH - 1);
    assert.equal(StreamingMarkdown.render(doc, lines.join('\n')).element.querySelectorAll('ul').length, LAST_LIST);
  });
});
