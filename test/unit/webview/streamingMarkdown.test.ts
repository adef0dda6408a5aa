import * as assert from 'node:assert/strict';
import { idleQueueOf } from '../../../src/webview/codeBlock';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { newWindow, randomChunks, referenceHtml, seeded } from './jsdomEnv';

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
