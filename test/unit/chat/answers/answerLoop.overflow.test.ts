// The answer loop and a gateway that refuses a prompt longer than the model's window (the
// simulator's small-window model, with OpenAI's 400 `context_length_exceeded`): the request is
// sent again once with what the overflow handler returns (the compacted conversation), and a
// second overflow in the same answer ends it with the error.
import * as assert from 'node:assert/strict';
import { runAnswer, type AnswerOptions } from '../../../../src/chat/answers/answerLoop';
import { compactCommand, withOverflowAction } from '../../../../src/chat/compaction/overflowErrors';
import { contextOverflow } from '../../../../src/core/compaction/contextOverflow';
import { GatewayError } from '../../../../src/core';
import { layoutPrompt, userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage } from '../../../../src/core/client/types';
import { streamingRecord, useSimulatorClient } from '../../simulatorClient';

const HUGE = 'lorem ipsum dolor sit amet '.repeat(3_000); // about 20K tokens: over the 16K window
const prompt = (text: string): ChatMessage[] => layoutPrompt({ systemPrompt: 'You are a test assistant.', pinned: [], history: [userMessage(text)] });

describe('chat: the answer loop on a context overflow', function () {
  this.timeout(20_000);
  const sim = useSimulatorClient();
  const chats = (from: number) => sim.gw.requests.slice(from).filter((r) => r.path.endsWith('/chat/completions'));

  function options(messages: ChatMessage[], onOverflow?: AnswerOptions['onOverflow']): AnswerOptions {
    return {
      client: sim.client,
      model: 'small-window',
      channel: 'direct',
      messages,
      maxToolRounds: 4,
      signal: new AbortController().signal,
      runTools: async (calls) => calls.map(() => ({ content: 'ok', isError: false })),
      describeError: (err) => withOverflowAction({ message: String(err), actions: ['pickModel'] }, err),
      record: streamingRecord('small-window', 'direct'),
      events: { text: () => undefined, toolCall: () => undefined },
      ...(onOverflow ? { onOverflow } : {}),
    };
  }

  it('sends the request again once with the compacted messages', async () => {
    const errors: unknown[] = [];
    const o = options(prompt(`${HUGE} [[words:5]]`), async (err) => {
      errors.push(err);
      return prompt('A summary of the earlier part. [[words:5]]');
    });
    const before = sim.gw.requests.length;
    await runAnswer(o);
    assert.equal(o.record.status, 'done', JSON.stringify(o.record.error));
    assert.equal(chats(before).length, 2, 'the refused request and the one sent again');
    assert.equal(errors.length, 1);
    const e = errors[0] as GatewayError;
    assert.ok(e instanceof GatewayError);
    assert.deepEqual(contextOverflow({ status: e.status, code: e.code, message: e.serverMessage ?? e.message })?.window, 16_000);
  });

  it('does not retry twice: a second overflow ends the answer, and its card offers Compact and Retry', async () => {
    let calls = 0;
    const o = options(prompt(HUGE), async () => {
      calls++;
      return prompt(HUGE);
    });
    await runAnswer(o);
    assert.equal(calls, 1);
    assert.equal(o.record.status, 'error');
    assert.deepEqual(o.record.error?.actions, ['compactRetry']);
  });

  it('without a handler the overflow ends the answer at once', async () => {
    const o = options(prompt(HUGE));
    const before = sim.gw.requests.length;
    await runAnswer(o);
    assert.equal(chats(before).length, 1);
    assert.equal(o.record.status, 'error');
    assert.deepEqual(o.record.error?.actions, ['compactRetry']);
  });

  it('takes `/compact` and its instructions from the composer, and nothing else', () => {
    assert.equal(compactCommand('/compact'), '');
    assert.equal(compactCommand('  /compact keep the API design\nand the tests '), 'keep the API design\nand the tests');
    assert.equal(compactCommand('/compacting'), undefined);
    assert.equal(compactCommand('please /compact'), undefined);
  });
});
