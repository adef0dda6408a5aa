// The expected answer: this conversation's answers first, then the user's recent ones on the
// model, then typical figures; an agent answer's requests span the rounds this conversation took.
import * as assert from 'node:assert/strict';
import { answerSample, expectAnswer, TYPICAL, type AnswerSample } from '../../../../src/core/quote/answerHistory';

const req = (promptTokens: number, completionTokens: number, calls = false) => ({
  at: 0,
  channel: 'stable',
  promptTokens,
  cachedTokens: 0,
  completionTokens,
  calls,
});
const opts = { tools: true, maxOutput: 100_000, maxRounds: 10 };

describe('quote: what the next answer takes', () => {
  it('samples an answer: requests, the last output, a round’s output and what a round adds', () => {
    const s = answerSample({ model: 'm', tools: true, requests: [req(1000, 50, true), req(2600, 70, true), req(4000, 900)] })!;
    assert.deepEqual(s, { model: 'm', tools: true, requests: 3, finalOutput: 900, roundOutput: 60, growth: 1500 });
    assert.equal(answerSample({ model: 'm', tools: false, requests: [] }), undefined);
  });

  it("takes this conversation's answers first, then recent ones elsewhere, then typical figures", () => {
    const here: AnswerSample[] = [800, 1000, 900, 1200].map((o) => ({ model: 'm', tools: false, requests: 1, finalOutput: o }));
    const recent: AnswerSample[] = [{ model: 'm', tools: false, requests: 1, finalOutput: 100 }];
    const a = expectAnswer(here, recent, { ...opts, tools: false });
    assert.equal(a.basis, 'conversation');
    assert.equal(a.output.expected, 950);
    assert.ok(a.output.low <= 800 && a.output.high >= 1200);
    assert.deepEqual(a.requests, { low: 1, expected: 1, high: 1 });
    assert.equal(expectAnswer([], recent, opts).basis, 'recent');
    const typical = expectAnswer([], [], opts);
    assert.equal(typical.basis, 'typical');
    assert.deepEqual(typical.output, TYPICAL.output);
    assert.deepEqual(typical.requests, TYPICAL.requests);
  });

  it('an agent conversation: the top of the range is the most rounds it took (more while it took few), the bottom one request; the limit caps it', () => {
    const here: AnswerSample[] = [3, 6, 4, 5].map((n) => ({ model: 'm', tools: true, requests: n, finalOutput: 500, roundOutput: 80, growth: 2000 }));
    const a = expectAnswer(here, [], opts);
    assert.deepEqual(a.requests, { low: 1, expected: 5, high: 6 });
    assert.equal(expectAnswer(here.slice(0, 1), [], opts).requests.high, Math.ceil(3 * 1.8), 'one answer of 3 requests: up to 6');
    assert.equal(a.growth, 2000);
    assert.equal(a.roundOutput, 80);
    assert.equal(expectAnswer(here, [], { ...opts, maxRounds: 2 }).requests.high, 3, 'at most the round limit + 1');
    assert.equal(expectAnswer(here, [], { ...opts, tools: false }).requests.high, 1, 'no tools offered: one request');
  });

  it("caps the answer by the model's maximum output", () => {
    const here: AnswerSample[] = [{ model: 'm', tools: false, requests: 1, finalOutput: 6000 }];
    const a = expectAnswer(here, [], { ...opts, maxOutput: 4096 });
    assert.equal(a.output.high, 4096);
    assert.equal(a.output.expected, 4096);
    assert.ok(a.capped);
  });

  it('one past answer says little: its range is wide', () => {
    const one = expectAnswer([{ model: 'm', tools: false, requests: 1, finalOutput: 1000 }], [], opts);
    assert.ok(one.output.low <= 500 && one.output.high >= 2000);
  });
});
