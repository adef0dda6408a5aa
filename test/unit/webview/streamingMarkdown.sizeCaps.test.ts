// Issue 10 suite 1: blocks whose formatting costs the panel hundreds of milliseconds per flush
// (one 200 KB line, a 3,000-column table) are shown as plain text instead, and no character is
// lost; plain text and the raw preview are built in bounded segments. Checked as what is built
// (a plain block holding the exact source, segment sizes), never as time.
import * as assert from 'node:assert/strict';
import { PLAIN_SEGMENT_CHARS, codeElementOf, codeTextOf, idleQueueOf, plainSegmentOffsets } from '../../../src/webview/codeBlock';
import { MAX_LINE_CHARS, MAX_LINE_PIPES, hasLongLine, isPathologicalMarkdown } from '../../../src/webview/markdown';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { UserMessageElement } from '../../../src/webview/messageViews';
import { newWindow, randomChunks, seeded } from './jsdomEnv';

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

describe('webview: size caps show oversized blocks as plain text, text exact', function () {
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
      for (const [how, el] of [['one-go', once], ['streamed', r.element]] as const) {
        const plain = plainTexts(el);
        assert.equal(plain.length, 1, `${how}: one plain block`);
        assert.equal(el.querySelector('table'), null, `${how}: no table element built`);
        assert.ok(plain[0] === expected, `${how}: exact text (${plain[0].length} of ${expected.length} characters)`);
        const segments = Array.from(codeElementOf(el.querySelector('.md-plain')!)!.children);
        assert.ok(segments.length > 1 && segments.every((s) => s.className === 'code-segment' && (s.textContent ?? '').length <= PLAIN_SEGMENT_CHARS), `${how}: in segments of at most ${PLAIN_SEGMENT_CHARS} characters`);
        if (text !== expected) assert.deepEqual(Array.from(el.querySelectorAll('p')).map((p) => p.textContent), ['first paragraph', 'last paragraph'], `${how}: the other blocks stay markdown`);
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
    const user = (text: string) => new UserMessageElement(doc, { id: 'u', role: 'user', text, attachments: [], createdAt: 0 }).element.querySelector('.message-text')!;
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
