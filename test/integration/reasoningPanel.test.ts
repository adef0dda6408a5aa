// A thinking model in the chat panel, in a real VS Code, under Kimi's rule ([[reasoning:kimi]]:
// the simulator refuses any request whose assistant messages with tool_calls, of this turn or
// an earlier one, lack their reasoning_content, with "The reasoning_content in the thinking mode
// must be passed back to the API"): several questions with tools in one conversation, then a
// window reload (the history is read back from disk) and one more, all answered; every tool-call
// message keeps the reasoning it came with, and an earlier request is never resent with other
// bytes (the prompt cache reads it).
import * as assert from 'node:assert/strict';
import type { ChatMessage } from '../../src/core/client/types';
import { reasoningText } from '../gateway/reasoning';
import { type AnswerView, lastAssistant, useModelgate } from './helpers';

const KEY = 'sk-reasoning-panel-7c41d9';

describe('chat panel: a thinking model across turns and a reload (real VS Code)', function () {
  this.timeout(90_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { channel: 'default', 'chat.model': 'long-context-tools' },
    ready: (api) => api.settings().chatModel === 'long-context-tools',
    key: KEY,
    chat: true,
  });
  const bodies = () =>
    mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions')).map((r) => (r.body as { messages: ChatMessage[] }).messages);

  it('answers every question of a conversation with tools, before and after a reload', async () => {
    const questions = [
      'Which files are here? [[reasoning:kimi]] [[call:list_files {"path":"."}]]',
      'And below src? [[reasoning:kimi]] [[call:list_files {"path":"src"}]]',
      'Once more, after a reload [[reasoning:kimi]] [[call:list_files {"path":"."}]]',
    ];
    let chat = mg.api.chat.controller;
    await chat.newChat();
    const before = bodies().length;
    for (const [i, q] of questions.entries()) {
      if (i === 2) chat = await mg.api.chat.reload();
      await chat.send(q);
      const answer = (await lastAssistant(chat)) as AnswerView;
      assert.equal(answer.status, 'done', `question ${i + 1}: ${answer.error?.message}`);
    }
    const sent = bodies().slice(before);
    assert.equal(sent.length, 6, 'two requests per question (the tool round, then the answer)');
    assert.deepEqual(
      sent
        .at(-1)!
        .filter((m) => m.tool_calls)
        .map((m) => m.reasoning_content),
      questions.map((q) => reasoningText(q, 0)),
      'every tool-call message carries its reasoning',
    );
    for (let i = 1; i < sent.length; i++) {
      const prev = sent[i - 1]!;
      for (let k = 0; k < prev.length; k++) assert.equal(JSON.stringify(sent[i]![k]), JSON.stringify(prev[k]), `request ${i}, message ${k}: same bytes`);
    }
  });
});
