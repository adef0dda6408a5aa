// Issue 10 suite 1: blocks whose formatting costs the panel hundreds of milliseconds per flush
// (one 200 KB line, a 3,000-column table) are shown as plain text instead, and no character is
// lost. Checked as what is built (a plain block holding the exact source), never as time.
import * as assert from 'node:assert/strict';
import { codeTextOf, idleQueueOf } from '../../../src/webview/codeBlock';
import { MAX_LINE_PIPES, isPathologicalMarkdown } from '../../../src/webview/markdown';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { newWindow, randomChunks, seeded } from './jsdomEnv';

const doc = newWindow().document;
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const table = (cols: number) => `|${' a |'.repeat(cols)}\n|${'---|'.repeat(cols)}\n|${' b |'.repeat(cols)}`;

const CASES: [string, string][] = [
  ['a 3,000-column table', table(3000)],
];

function plainTexts(root: Element): string[] {
  return Array.from(root.querySelectorAll('.md-plain')).map((b) => codeTextOf(b));
}

describe('webview: size caps show oversized blocks as plain text, text exact', function () {
  this.timeout(120_000);

  it('the cap triggers on the pipes per line only', () => {
    assert.equal(isPathologicalMarkdown(`${words(30_000)} end`), false, 'a long line of words stays a paragraph');
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
      for (const [how, el] of [['one-go', once], ['streamed', r.element]] as const) {
        const plain = plainTexts(el);
        assert.equal(plain.length, 1, `${how}: one plain block`);
        assert.equal(el.querySelector('table'), null, `${how}: no table element built`);
        assert.ok(plain[0] === text, `${how}: exact text (${plain[0].length} of ${text.length} characters)`);
      }
      assert.ok(r.element.innerHTML === once.innerHTML, 'streamed == one-go');
    });
  }
});
