// The adaptive delay (learned from the typing rhythm and from acceptance) and the reuse of a
// completion the user types through.
import * as assert from 'node:assert/strict';
import { delayFor, MAX_DELAY_MS, MIN_DELAY_MS, parseTypingState, TypingDelay } from '../../../../src/core/completions/typingDelay';
import { TypeThrough } from '../../../../src/core/completions/typeThrough';

/** Types `n` keys `gapMs` apart, starting at `from`; returns the time of the last one. */
function type(d: TypingDelay, n: number, gapMs: number, from = 0): number {
  let t = from;
  for (let i = 0; i < n; i++) d.keystroke((t += gapMs));
  return t;
}

describe('TypingDelay', () => {
  it('stays within 75-300 ms whatever the state', () => {
    for (const gapMs of [1, 15, 40, 120, 400, 1000, 5000])
      for (const acceptance of [0, 0.2, 0.5, 1]) {
        const d = delayFor({ gapMs, acceptance });
        assert.ok(d >= MIN_DELAY_MS && d <= MAX_DELAY_MS, `${gapMs} ms, ${acceptance}: ${d}`);
      }
    assert.equal(delayFor({ gapMs: 10, acceptance: 1 }), MIN_DELAY_MS);
    assert.equal(delayFor({ gapMs: 900, acceptance: 0 }), MAX_DELAY_MS);
  });

  it('waits less for a fast typist than for a slow one', () => {
    const fast = new TypingDelay();
    type(fast, 200, 60);
    const slow = new TypingDelay();
    type(slow, 200, 220);
    assert.ok(fast.delayMs() < slow.delayMs(), `${fast.delayMs()} vs ${slow.delayMs()}`);
    assert.ok(fast.delayMs() > 60, 'longer than the gap between two keystrokes, so a request waits for a pause');
  });

  it('does not learn pauses, pastes or key repeat as rhythm', () => {
    const d = new TypingDelay();
    let t = type(d, 100, 100);
    const before = d.delayMs();
    d.keystroke((t += 5000)); // a pause
    d.keystroke((t += 3)); // a paste or key repeat
    d.keystroke((t += 4));
    assert.equal(d.delayMs(), before);
  });

  it('waits less while completions are accepted, more while they are ignored', () => {
    const accepting = new TypingDelay();
    const ignoring = new TypingDelay();
    type(accepting, 100, 110);
    type(ignoring, 100, 110);
    for (let i = 0; i < 40; i++) {
      accepting.outcome(i % 2 === 0);
      ignoring.outcome(false);
    }
    assert.ok(accepting.delayMs() < ignoring.delayMs() - 50, `${accepting.delayMs()} vs ${ignoring.delayMs()}`);
  });

  it('keeps what it learned across sessions, and ignores a damaged saved state', () => {
    const d = new TypingDelay();
    type(d, 300, 70);
    const again = new TypingDelay(JSON.parse(JSON.stringify(d)));
    assert.equal(again.delayMs(), d.delayMs());
    assert.equal(parseTypingState({ gapMs: 'x' }), undefined);
    assert.equal(parseTypingState(null), undefined);
    assert.deepEqual(parseTypingState({ gapMs: 1e9, acceptance: -3 }), { gapMs: 1000, acceptance: 0 });
    assert.equal(new TypingDelay({ gapMs: NaN, acceptance: 0 }).delayMs(), new TypingDelay().delayMs());
  });
});

describe('TypeThrough', () => {
  const shown = { docKey: 'a.ts', line: 3, character: 10, lineAfter: '', text: 'reduce(add, 0);\n}' };
  const at = (line: number, character: number, lineAfter = '', docKey = 'a.ts') => ({ docKey, line, character, lineAfter });

  it('gives the rest of the completion while the typed text is its start', () => {
    const t = new TypeThrough();
    t.remember(shown);
    assert.equal(t.rest(at(3, 13), 'red'), 'uce(add, 0);\n}');
    assert.equal(t.rest(at(3, 25), 'reduce(add, 0);'), '\n}');
    assert.equal(t.rest(at(4, 0), 'reduce(add, 0);\n'), '}');
  });

  it('drops it when the typed text leaves it, and does not give it back after', () => {
    const t = new TypeThrough();
    t.remember(shown);
    assert.equal(t.rest(at(3, 13), 'rep'), undefined);
    assert.equal(t.rest(at(3, 12), 're'), undefined, 'forgotten once left');
  });

  it('gives nothing once all of it was typed, in another document, before it, or when the text after the cursor changed', () => {
    const t = new TypeThrough();
    t.remember(shown);
    assert.equal(t.candidate(at(3, 10, '', 'b.ts')), undefined);
    assert.equal(t.candidate(at(3, 9)), undefined);
    assert.equal(t.candidate(at(2, 40)), undefined);
    assert.equal(t.rest(at(3, 13, ')'), 'red'), undefined, 'an edit after the cursor');
    t.remember(shown);
    assert.equal(t.rest(at(4, 1), 'reduce(add, 0);\n}'), undefined, 'all of it typed');
  });

  it('remembers nothing for an empty completion, and forgets per document', () => {
    const t = new TypeThrough();
    t.remember({ ...shown, text: '' });
    assert.equal(t.candidate(at(3, 10)), undefined);
    t.remember(shown);
    t.forget('b.ts');
    assert.ok(t.candidate(at(3, 10)));
    t.forget('a.ts');
    assert.equal(t.candidate(at(3, 10)), undefined);
  });
});
