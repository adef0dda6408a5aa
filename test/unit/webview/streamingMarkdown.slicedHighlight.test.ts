// Issue 9: a big closed code block is highlighted in slices on idle time, never in one task.
// Checked as bounded work per idle step (characters handed to highlight.js), never as time.
import * as assert from 'node:assert/strict';
import { HIGHLIGHT_SLICE_CHARS, codeTextOf, sliceOffsets } from '../../../src/webview/codeBlock';
import { IdleQueue, type IdleDeadlineLike, type IdleHost } from '../../../src/webview/frameScheduler';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { newWindow } from './jsdomEnv';

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

describe('webview: big code blocks are highlighted in slices on idle time', () => {
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
      assert.deepEqual(done, done.map((_, k) => k < steps), `after step ${steps}: exactly the first ${steps} slices coloured`);
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
