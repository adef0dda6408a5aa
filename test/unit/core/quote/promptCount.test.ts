// Counting a request for its quote: the estimate agrees with the context meter's, a public
// tokenizer counts as OpenAI's Cookbook does, each text is counted once (a keystroke counts the
// composer's message only), a tokenizer never stalls on a long run, and the fingerprint's common
// prefix is what two requests share.
import * as assert from 'node:assert/strict';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import {
  boundedCount,
  ESTIMATE_RULE,
  PromptCounter,
  sharedPrefix,
  tokenizerRule,
  TOKENIZER_RUN_CHARS,
  type TokenRule,
} from '../../../../src/core/quote/promptCount';
import { estimateRequestTokens } from '../../../../src/core/prompt/tokens';
import { layoutPrompt, userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage, ToolDefinition } from '../../../../src/core/client/types';

const TOOLS: ToolDefinition[] = [{ type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters: { type: 'object' } } }];
const o200kCount = (text: string) => o200k.countTokens(text, { allowedSpecial: new Set(), disallowedSpecial: new Set() });

function history(turns: number): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < turns; i++) {
    out.push(userMessage(`Question ${i}: how does the cache of part ${i} work?`));
    out.push({ role: 'assistant', content: `Answer ${i}: ${'the prefix stays byte-stable; '.repeat(20)}` });
  }
  return out;
}

/** A rule that counts how often it was asked, and about what. */
function spyRule(base: TokenRule): TokenRule & { asked: string[] } {
  const asked: string[] = [];
  return { ...base, asked, count: (t: string) => (asked.push(t), base.count(t)) };
}

describe('quote: counting a request', () => {
  it("with the estimate gives the context meter's figure for the same request", () => {
    const messages = layoutPrompt({ systemPrompt: 'You are a coding assistant.', pinned: [], history: [...history(3), userMessage('Next?')] });
    const counted = new PromptCounter(ESTIMATE_RULE).count(messages, TOOLS);
    assert.equal(counted.tokens, estimateRequestTokens(messages, TOOLS));
    assert.equal(counted.hashes.length, messages.length + 1, 'the tools block, then each message');
    assert.equal(
      counted.sizes.reduce((a, b) => a + b, 0),
      counted.tokens,
    );
  });

  it("with a public tokenizer counts as OpenAI's Cookbook: 3 per message, its role and content, 3 for the reply", () => {
    // "tiktoken is great!" is 6 tokens in o200k_base (OpenAI Cookbook); "user" is 1
    const counter = new PromptCounter(tokenizerRule('o200k_base', boundedCount(o200kCount)));
    const counted = counter.count([{ role: 'user', content: 'tiktoken is great!' }]);
    assert.equal(counted.tokens, 3 + (3 + 1 + 6));
    assert.equal(counted.rule, 'o200k_base');
    // the estimate of the same request differs: tokenizer and estimate are different rules
    const estimated = new PromptCounter(ESTIMATE_RULE).count([{ role: 'user', content: 'tiktoken is great!' }]);
    assert.equal(estimated.tokens, 4 + 5);
    assert.notEqual(estimated.rule, counted.rule);
  });

  it('counts each text once: the next turn counts only what is new, a keystroke only the composer message', () => {
    const rule = spyRule(ESTIMATE_RULE);
    const counter = new PromptCounter(rule);
    const h = history(50);
    counter.count(layoutPrompt({ systemPrompt: 'System.', pinned: [], history: h }), TOOLS);
    const first = rule.asked.length;
    assert.ok(first >= 100);
    rule.asked.length = 0;
    // the next turn: layoutPrompt makes new message objects, but they share the strings
    const base = counter.count(
      layoutPrompt({ systemPrompt: 'System.', pinned: [], history: [...h, ...history(1).map((m) => ({ ...m, content: `${m.content as string} more` }))] }),
      TOOLS,
    );
    assert.equal(rule.asked.length, 2, `only the two new messages: ${rule.asked.length}`);
    rule.asked.length = 0;
    for (const draft of ['H', 'He', 'Hel', 'Hell', 'Hello']) {
      const withDraft = counter.extend(base, [userMessage(draft)]);
      assert.equal(withDraft.tokens, base.tokens + 4 + Math.ceil(draft.length / 4));
    }
    assert.deepEqual(rule.asked, ['H', 'He', 'Hel', 'Hell', 'Hello'], 'each keystroke counts the message, nothing else');
    // and the drafts are not kept
    const kept = counter.remembered;
    counter.extend(base, [userMessage('x'.repeat(50))]);
    assert.equal(counter.remembered, kept);
  });

  it('a tokenizer never meets a run longer than TOKENIZER_RUN_CHARS in one piece, and the count stays close', () => {
    const pieces: number[] = [];
    const bounded = boundedCount((t) => (pieces.push(t.length), o200kCount(t)));
    const run = 'ab'.repeat(2_500); // 5,000 characters without white space
    const text = `start ${run} end`;
    const n = bounded(text);
    assert.ok(Math.max(...pieces) <= TOKENIZER_RUN_CHARS + 1, `longest piece ${Math.max(...pieces)}`);
    const exact = o200kCount(text);
    assert.ok(Math.abs(n - exact) / exact < 0.05, `${n} vs ${exact}`);
    // 100,000 characters of one letter: a second or two in pieces (46 s in one piece)
    const t0 = performance.now();
    bounded('x'.repeat(100_000));
    assert.ok(performance.now() - t0 < 20_000);
    assert.equal(bounded('short text'), o200kCount('short text'));
  });

  it('the shared prefix of two requests: whole segments, in the next request’s tokens', () => {
    const counter = new PromptCounter(ESTIMATE_RULE);
    const turn1 = layoutPrompt({ systemPrompt: 'System.', pinned: [], history: history(2) });
    const sent = counter.count(turn1, TOOLS);
    const next = counter.count([...turn1, userMessage('And then?')], TOOLS);
    const shared = sharedPrefix(sent, next);
    assert.equal(shared.segments, sent.hashes.length);
    assert.ok(shared.whole);
    assert.equal(
      shared.tokens,
      sent.sizes.reduce((a, b) => a + b, 0),
    );
    // another system prompt: nothing after the tools block is shared
    const changed = counter.count(layoutPrompt({ systemPrompt: 'Other system.', pinned: [], history: history(2) }), TOOLS);
    assert.equal(sharedPrefix(sent, changed).segments, 1);
    // other tools: nothing at all
    assert.equal(sharedPrefix(sent, counter.count(turn1)).segments, 0);
    // another rule: nothing (the fingerprints cannot be compared)
    assert.equal(sharedPrefix(sent, new PromptCounter(tokenizerRule('o200k_base', o200kCount)).count(turn1, TOOLS)).tokens, 0);
  });
});

describe('quote: counting a long conversation the first time', () => {
  it('counts in slices, pausing between them, to the same figures as at once', async () => {
    const messages = layoutPrompt({ systemPrompt: 'System.', pinned: [], history: history(300) });
    let clock = 0;
    let pauses = 0;
    // every text "takes" half a millisecond: a pause after about 16 messages
    const slow: TokenRule = { ...ESTIMATE_RULE, count: (t) => ((clock += 0.5), ESTIMATE_RULE.count(t)) };
    const sliced = await new PromptCounter(slow).countInSlices(
      messages,
      TOOLS,
      async () => void pauses++,
      () => clock,
      8,
    );
    const whole = new PromptCounter(ESTIMATE_RULE).count(messages, TOOLS);
    assert.deepEqual(sliced, whole);
    assert.ok(pauses >= messages.length / 20, `${pauses} pauses for ${messages.length} messages`);
  });
});
