// Which parts of a conversation a compaction keeps verbatim and which it summarises, and that the
// stable prefix (system prompt, rules, tools, files pinned first) is byte-identical before and after.
import * as assert from 'node:assert/strict';
import { planCompaction, type HistoryTurn } from '../../../../src/core/compaction/compactionPlan';
import { compactedHistory, summaryMessage, summaryRequest, type CompactionRecord } from '../../../../src/core/compaction/compactedHistory';
import { layoutPrompt, type PinnedFile } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage } from '../../../../src/core/client/types';

let callN = 0;
const user = (id: string, text: string): HistoryTurn => ({ id, role: 'user', wire: [{ role: 'user', content: text }] });
const call = (name: string, args: object): { id: string; type: 'function'; function: { name: string; arguments: string } } => ({
  id: `call_${++callN}`,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});
/** An answer with one tool round per call list, then its final text. */
function answer(id: string, rounds: { name: string; args: object; result: string }[][], text = 'Done.'): HistoryTurn {
  const wire: ChatMessage[] = [];
  for (const r of rounds) {
    const calls = r.map((c) => call(c.name, c.args));
    wire.push({ role: 'assistant', content: null, tool_calls: calls });
    r.forEach((c, i) => wire.push({ role: 'tool', tool_call_id: calls[i]!.id, content: c.result }));
  }
  wire.push({ role: 'assistant', content: text });
  return { id, role: 'assistant', wire };
}

function conversation(): HistoryTurn[] {
  return [
    user('u1', 'Read src/a.ts and explain it.'),
    answer('a1', [[{ name: 'read_file', args: { path: 'src/a.ts' }, result: 'export const a = 1;\n'.repeat(50) }]]),
    user('u2', 'Rename a to alpha.'),
    answer('a2', [[{ name: 'edit_file', args: { path: 'src/a.ts', edits: [{ search: 'a', replace: 'alpha' }] }, result: 'Staged.' }]]),
    user('u3', 'Now look at b.'),
    answer('a3', [[{ name: 'read_file', args: { path: 'src/b.ts' }, result: 'export const b = 2;\n'.repeat(50) }]]),
    user('u4', 'And the tests?'),
  ];
}

describe('compaction plan: what is kept verbatim and what is summarised', () => {
  it('keeps the latest request and summarises every older turn when nothing else fits', () => {
    const plan = planCompaction({ turns: conversation(), keepTokens: 0 })!;
    assert.equal(plan.from, 0);
    assert.equal(plan.cut, 6, 'the cut is the latest user request');
  });

  it('keeps recent turns that fit in the budget, cutting on a user message', () => {
    const turns = conversation();
    const plan = planCompaction({ turns, keepTokens: 400 })!;
    assert.equal(turns[plan.cut]!.role, 'user');
    assert.ok(plan.cut < 6 && plan.cut > 0, `cut at ${plan.cut}`);
  });

  it('keeps the last tool round that edited each file in the summarised part', () => {
    const plan = planCompaction({ turns: conversation(), keepTokens: 0 })!;
    assert.deepEqual(plan.editedPaths, ['src/a.ts']);
    assert.equal(plan.keptRounds.length, 2, 'the assistant message with the edit call and its result');
    assert.equal(plan.keptRounds[0]!.tool_calls?.[0]?.function.name, 'edit_file');
    assert.equal(plan.keptRounds[1]!.role, 'tool');
  });

  it('never summarises a turn with an unresolved tool call, nor anything after it', () => {
    const turns = conversation();
    const cutOff: HistoryTurn = { id: 'a2x', role: 'assistant', wire: [{ role: 'assistant', content: null, tool_calls: [call('read_file', { path: 'x' })] }] };
    turns.splice(3, 1, cutOff);
    const plan = planCompaction({ turns, keepTokens: 0 });
    assert.ok(plan);
    assert.equal(plan.cut, 2, 'cut at the user message before the unresolved call');
  });

  it('has nothing to summarise in a conversation of one request', () => {
    assert.equal(planCompaction({ turns: [user('u1', 'hi')], keepTokens: 0 }), undefined);
    assert.equal(planCompaction({ turns: [], keepTokens: 0 }), undefined);
  });

  it('starts after an earlier compaction (its turns are in the earlier summary)', () => {
    const plan = planCompaction({ turns: conversation(), keepTokens: 0, previousCut: 4 })!;
    assert.equal(plan.from, 4);
    assert.equal(plan.cut, 6);
    assert.equal(planCompaction({ turns: conversation(), keepTokens: 0, previousCut: 6 }), undefined);
  });
});

describe('compacted history: what is sent after a compaction', () => {
  const record = (turns: HistoryTurn[], stubbedCalls: string[] = []): CompactionRecord => {
    const plan = planCompaction({ turns, keepTokens: 0 })!;
    return {
      summary: 'The user renamed a to alpha in src/a.ts.',
      cutId: turns[plan.cut]!.id,
      keptRounds: plan.keptRounds,
      stubbedCalls,
      model: 'm',
      channel: 'economical',
      createdAt: 0,
    };
  };

  it('sends the summary, the kept rounds, then the turns from the cut on', () => {
    const turns = conversation();
    const c = compactedHistory(turns, record(turns));
    assert.deepEqual(c.history[0], summaryMessage('The user renamed a to alpha in src/a.ts.'));
    assert.equal(c.history[1]!.tool_calls?.[0]?.function.name, 'edit_file');
    assert.deepEqual(c.history.at(-1), { role: 'user', content: 'And the tests?' });
    assert.equal(c.history.length, 4);
  });

  it('keeps the stable prefix byte-identical across a compaction', () => {
    const turns = conversation();
    const pinned: PinnedFile[] = [
      { path: 'README.md', content: '# Project\n' },
      { path: 'src/late.ts', content: 'late', at: 3 },
    ];
    const tools = JSON.stringify([{ type: 'function', function: { name: 'read_file', parameters: {} } }]);
    const before = layoutPrompt({ systemPrompt: 'You are a helpful assistant.\n\n# Rules\nbe brief', pinned, history: turns.flatMap((t) => t.wire) });
    const c = compactedHistory(turns, record(turns));
    const after = layoutPrompt({
      systemPrompt: 'You are a helpful assistant.\n\n# Rules\nbe brief',
      pinned: pinned.map((p) => ({ ...p, at: c.pinAt(p.at ?? 0) })),
      history: c.history,
    });
    assert.equal(JSON.stringify(after[0]), JSON.stringify(before[0]), 'the system message (prompt, rules, files pinned first)');
    assert.equal(tools, JSON.stringify([{ type: 'function', function: { name: 'read_file', parameters: {} } }]));
    assert.match(String(after[1]!.content), /Summary of the earlier part/);
    assert.ok(
      after.some((m) => String(m.content).includes('src/late.ts')),
      'a file pinned in the summarised part is still sent, after the summary',
    );
    assert.ok(after.length < before.length);
  });

  it('sends the same bytes on every request after the compaction (the cache builds up again)', () => {
    const turns = conversation();
    const r = record(turns);
    const first = JSON.stringify(compactedHistory(turns, r).history);
    turns.push(answer('a4', [[{ name: 'read_file', args: { path: 'src/a.ts' }, result: 'new text' }]]), user('u5', 'thanks'));
    const second = JSON.stringify(compactedHistory(turns, r).history);
    assert.ok(second.startsWith(first.slice(0, -1)), 'the earlier request is a prefix of the later one');
  });

  it('sends the whole history when the cut turn is gone (an edit removed it)', () => {
    const turns = conversation();
    const r = { ...record(turns), cutId: 'gone' };
    assert.equal(compactedHistory(turns, r).history.length, turns.flatMap((t) => t.wire).length);
  });

  it('the summary request carries the instructions, the edited files and the transcript with superseded results stubbed', () => {
    const turns = [
      ...conversation().slice(0, 2),
      answer('a1b', [[{ name: 'read_file', args: { path: 'src/a.ts' }, result: 'export const a = 1;\n'.repeat(50) }]]),
    ];
    const req = summaryRequest({ wire: turns.flatMap((t) => t.wire), instructions: 'keep the API design', editedPaths: ['src/a.ts'] });
    assert.equal(req[0]!.role, 'system');
    assert.match(String(req[0]!.content), /keep the API design/);
    assert.match(String(req[0]!.content), /src\/a\.ts/);
    assert.match(String(req[1]!.content), /Shortened: read_file on src\/a\.ts returned 50 lines/);
  });
});

describe('summary request: fits the summariser window', () => {
  it('leaves the oldest messages out first and says so, keeping the newest', () => {
    const wire: ChatMessage[] = Array.from(
      { length: 40 },
      (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} ${'word '.repeat(100)}` }) as ChatMessage,
    );
    const whole = summaryRequest({ wire });
    const cut = summaryRequest({ wire, budgetTokens: 1_000 });
    assert.ok(String(cut[1]!.content).length < String(whole[1]!.content).length / 3);
    assert.match(String(cut[1]!.content), /oldest messages of this part were left out/);
    assert.match(String(cut[1]!.content), /message 39 /);
    assert.doesNotMatch(String(cut[1]!.content), /message 0 /);
    assert.doesNotMatch(String(whole[1]!.content), /left out/);
  });
});
