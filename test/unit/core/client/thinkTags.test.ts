// The `<think>` splitter: a block at the very start of content is reasoning, wherever the
// chunks split its tags; a `<think>` anywhere else is text.
import * as assert from 'node:assert/strict';
import { splitThink, ThinkSplitter } from '../../../../src/core/client/thinkTags';
import { assertLinear, LINEAR_TEST_TIMEOUT_MS, repeatTo } from '../../linearGrowth';

function run(chunks: string[]): { reasoning: string; text: string; order: string[] } {
  let reasoning = '';
  let text = '';
  const order: string[] = [];
  const sink = {
    reasoning: (t: string) => {
      assert.ok(t.length > 0, 'no empty reasoning pieces');
      reasoning += t;
      if (order.at(-1) !== 'r') order.push('r');
    },
    text: (t: string) => {
      assert.ok(t.length > 0, 'no empty text pieces');
      text += t;
      if (order.at(-1) !== 't') order.push('t');
    },
  };
  const s = new ThinkSplitter();
  for (const c of chunks) s.push(c, sink);
  s.end(sink);
  return { reasoning, text, order };
}

describe('core/thinkTags: a <think> block at the start of content', () => {
  const whole = '<think>\nThe user wants 2+2. </thin is not a tag.\n</think>\n\nThe answer is **4**.';

  it('splits a whole block from the answer (whitespace after </think> dropped)', () => {
    assert.deepEqual(splitThink(whole), { reasoning: '\nThe user wants 2+2. </thin is not a tag.\n', text: 'The answer is **4**.' });
  });

  it('gives the same result for a split at every offset (two chunks) and for one character per chunk', () => {
    const expected = splitThink(whole);
    for (let i = 0; i <= whole.length; i++) {
      const r = run([whole.slice(0, i), whole.slice(i)]);
      assert.deepEqual({ reasoning: r.reasoning, text: r.text }, expected, `split at ${i}`);
      assert.deepEqual(r.order, ['r', 't'], `split at ${i}`);
    }
    for (let i = 0; i <= whole.length; i++) {
      for (let j = i; j <= whole.length; j += 3) {
        const r = run([whole.slice(0, i), whole.slice(i, j), whole.slice(j)]);
        assert.deepEqual({ reasoning: r.reasoning, text: r.text }, expected, `split at ${i}, ${j}`);
      }
    }
    const r = run([...whole]);
    assert.deepEqual({ reasoning: r.reasoning, text: r.text }, expected);
  });

  it('allows whitespace before <think>', () => {
    assert.deepEqual(splitThink('\n  <think>x</think>y'), { reasoning: 'x', text: 'y' });
    assert.deepEqual(run(['\n', ' ', '<th', 'ink>x</th', 'ink>', 'y']), { reasoning: 'x', text: 'y', order: ['r', 't'] });
  });

  it('leaves a <think> later in prose or in a code block as text, at every split', () => {
    for (const content of [
      'Use the <think> tag like this: <think>a</think>.',
      '```html\n<think>not reasoning</think>\n```',
      'Hello <think>x</think>',
      '<thinking>not the tag</thinking>',
      '<thin',
      '   ',
    ]) {
      assert.deepEqual(splitThink(content), { reasoning: '', text: content }, content);
      for (let i = 0; i <= content.length; i++) {
        const r = run([content.slice(0, i), content.slice(i)]);
        assert.deepEqual({ reasoning: r.reasoning, text: r.text }, { reasoning: '', text: content }, `${content} split at ${i}`);
      }
    }
  });

  it('keeps a <think> inside the answer after the block as text', () => {
    assert.deepEqual(splitThink('<think>r</think>Write `<think>` then `</think>`.'), { reasoning: 'r', text: 'Write `<think>` then `</think>`.' });
  });

  it('an unterminated block (cut off while thinking) is all reasoning, and held tag starts come out', () => {
    assert.deepEqual(run(['<think>still thinking </th']), { reasoning: 'still thinking </th', text: '', order: ['r'] });
    assert.deepEqual(run(['<thi']), { reasoning: '', text: '<thi', order: ['t'] });
  });

  it('passes text straight on once the start is decided (plain)', () => {
    const s = new ThinkSplitter();
    const sink = { reasoning: () => assert.fail('no reasoning'), text: () => undefined };
    assert.equal(s.plain, false);
    s.push('Hi', sink);
    assert.equal(s.plain, true);
  });
});

describe('core/thinkTags: whitespace streamed before the answer grows linearly', function () {
  this.timeout(LINEAR_TEST_TIMEOUT_MS);
  const streamed = (text: string) => {
    const s = new ThinkSplitter();
    let out = '';
    const sink = { reasoning: (t: string) => (out += t), text: (t: string) => (out += t) };
    for (let i = 0; i < text.length; i += 4) s.push(text.slice(i, i + 4), sink);
    s.end(sink);
    return out;
  };
  for (const unit of [' ', '\n', '\r\n', ' \t']) {
    it(`8K to 128K of ${JSON.stringify(unit)} in 4-character chunks`, () => {
      assertLinear('ThinkSplitter', streamed, (n) => `${repeatTo(unit, n)}answer`);
      assertLinear('ThinkSplitter then <think>', streamed, (n) => `${repeatTo(unit, n)}<think>x</think>answer`);
    });
  }

  it('keeps the whitespace of an answer that has no <think> block, also cut by the end', () => {
    assert.equal(streamed('   \n  answer'), '   \n  answer');
    assert.equal(streamed('   \n  '), '   \n  ');
    assert.equal(streamed('  <thi'), '  <thi');
  });
});
