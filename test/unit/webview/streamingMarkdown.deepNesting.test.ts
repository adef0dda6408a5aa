// Issue 10 item 4: deeply nested markup must neither throw (stack overflow in jsdom) nor build
// a DOM thousands of elements deep, and no text may be lost. These check bounded work (DOM
// depth, parser calls, fallbacks), never time.
import * as assert from 'node:assert/strict';
import { MAX_BLOCK_NESTING, MAX_INLINE_DEPTH } from '../../../src/webview/markdown';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { newWindow, randomChunks, seeded } from './jsdomEnv';

const doc = newWindow().document;

function depthOf(root: Element): number {
  let max = 0;
  // iterative: an unbounded tree must fail the assertion, not overflow the stack here
  const stack: [Element, number][] = [[root, 0]];
  while (stack.length) {
    const [el, d] = stack.pop()!;
    if (d > max) max = d;
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, d + 1]);
  }
  return max;
}

/** The visible characters, whitespace and the code toolbar's labels left out. */
function visibleText(root: Element): string {
  const clone = root.cloneNode(true) as Element;
  for (const t of Array.from(clone.querySelectorAll('.code-toolbar'))) t.remove();
  return (clone.textContent ?? '').replace(/\s+/g, '');
}

const CASES: [string, string][] = [
  ['nested emphasis x2000', '*a '.repeat(2000) + 'x' + ' b*'.repeat(2000)],
  ['nested strong x2000', '**a '.repeat(2000) + 'x' + ' b**'.repeat(2000)],
  ['nested strike+emphasis x1500', '~~*a '.repeat(1500) + 'x' + ' b*~~'.repeat(1500)],
  ['nested emphasis x300 (short, below the plain-text size)', '_a '.repeat(300) + 'x' + ' b_'.repeat(300)],
  ['nested links x3000', '['.repeat(3000) + 'x' + '](https://example.com)'.repeat(3000)],
  ['nested block quotes x500', '>'.repeat(500) + ' deep text'],
  ['nested lists x120', Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i)}- item${i}`).join('\n')],
  ['quotes and emphasis x200', Array.from({ length: 200 }, (_, i) => `${'> '.repeat(i)}*q${i}*`).join('\n')],
];

describe('webview: deeply nested markup (issue 10 #4)', () => {
  for (const [name, src] of CASES) {
    it(`${name}: renders at once without throwing, bounded depth, no text lost`, () => {
      const r = StreamingMarkdown.render(doc, src);
      assert.ok(depthOf(r.element) <= MAX_BLOCK_NESTING + MAX_INLINE_DEPTH + 8, `DOM depth ${depthOf(r.element)}`);
      const expected = src.replace(/[*_~>[\]()\-\s]|https:\/\/example\.com/g, '');
      const shown = visibleText(r.element).replace(/[*_~>[\]()-]|https:\/\/example\.com/g, '');
      assert.equal(shown, expected, 'every word of the text is shown');
    });

    it(`${name}: streamed in random chunks: bounded depth at every flush, no text lost`, () => {
      const rnd = seeded(name.length * 7919);
      const r = new StreamingMarkdown(doc);
      for (const piece of randomChunks(src, rnd, 700)) {
        r.append(piece);
        r.flush();
        assert.ok(depthOf(r.element) <= MAX_BLOCK_NESTING + MAX_INLINE_DEPTH + 8);
      }
      r.finish();
      // (where a streamed text falls back to plain text may differ from a one-go render: the
      // fallback is decided per unfinished block, and blocks are cut where lines complete)
      const expected = src.replace(/[*_~>[\]()\-\s]|https:\/\/example\.com/g, '');
      assert.equal(visibleText(r.element).replace(/[*_~>[\]()-]|https:\/\/example\.com/g, ''), expected);
    });
  }

  it('inline markup deeper than the cap is shown as the typed characters', () => {
    const n = MAX_INLINE_DEPTH + 10;
    const r = StreamingMarkdown.render(doc, '*a '.repeat(n) + 'x' + ' b*'.repeat(n));
    assert.equal(r.element.querySelectorAll('em').length, MAX_INLINE_DEPTH);
    assert.equal(r.stats.plainFallbacks, 0, 'short text is still markdown');
    assert.ok((r.element.textContent ?? '').includes('*a *a'), 'the delimiters beyond the cap stay visible');
  });

  it('a long pathological block is not handed to markdown-it at all', () => {
    const r = StreamingMarkdown.render(doc, '*a '.repeat(20_000) + 'x' + ' b*'.repeat(20_000));
    assert.equal(r.stats.parses, 0);
    assert.equal(r.stats.plainFallbacks, 1);
    assert.ok(r.element.querySelector('.code-block.md-plain'));
  });

  it('block nesting beyond the limit keeps the text (markdown-it alone would drop it)', () => {
    const r = StreamingMarkdown.render(doc, `${'>'.repeat(MAX_BLOCK_NESTING + 20)} the end\n\nafter`);
    assert.match(r.element.textContent ?? '', /the end/);
    assert.match(r.element.textContent ?? '', /after/);
  });

  it('ordinary markdown is untouched by the caps', () => {
    const r = StreamingMarkdown.render(doc, '> quote with ***bold italic*** and [a link](https://example.com)\n\n- a\n  - b\n    - c');
    assert.equal(r.stats.plainFallbacks, 0);
    assert.ok(r.element.querySelector('blockquote em strong, blockquote strong em'));
    assert.equal(r.element.querySelectorAll('ul ul ul').length, 1);
  });
});
