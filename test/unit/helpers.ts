// Shared builders of the unit suites (not a suite itself: mocha loads *.test.js only). Plain Node,
// no `vscode`: the integration suites use them too, through test/integration/helpers.ts.
import { titleFrom } from '../../src/chat/conversations/conversationSearch';
import type { AssistantRecord, Conversation } from '../../src/chat/conversations/conversationTranscript';
import { userMessage } from '../../src/core/prompt/promptLayout';
import { addSpend, emptySpend, type SpendEntry, type SpendState } from '../../src/core/spend/spendBook';

let turns = 0;
/**
 * Appends a question and its answer to `c`, as the panel stores them. The ids are unique in the
 * whole run, so the conversations of two stores (two windows) never share one; the first turn
 * titles the conversation the way the panel does.
 */
export function addTurn(c: Conversation, text: string, answer: string, status: AssistantRecord['status'] = 'done'): void {
  const n = ++turns;
  c.messages.push({ id: `u-${n}`, role: 'user', text, attachments: [], createdAt: n, context: [], wire: userMessage(text) });
  c.messages.push({
    id: `a-${n}`,
    role: 'assistant',
    parts: [{ kind: 'text', text: answer }],
    status,
    model: 'm',
    channel: 'direct',
    createdAt: n,
    wire: [],
  });
  if (c.messages.length === 2) c.title = titleFrom(text);
}

/** A panel chat request of the spend ledger at `t`: 100 prompt tokens (20 cached), 10 out; no cost when `cost` is undefined. */
export const spendEntry = (t: number, cost: number | undefined, extra: Partial<SpendEntry> = {}): SpendEntry => ({
  at: t,
  source: 'panel',
  model: 'flagship-text',
  channel: 'stable',
  promptTokens: 100,
  cachedTokens: 20,
  completionTokens: 10,
  images: 0,
  ...(cost === undefined ? {} : { cost }),
  ...extra,
});

/** A ledger holding `entries` (at most `maxRaw` raw entries, the rest folded into day aggregates). */
export const fillSpend = (entries: SpendEntry[], maxRaw?: number): SpendState => entries.reduce((s, e) => addSpend(s, e, maxRaw), emptySpend());

/**
 * Splits `whole` (text or bytes) at random places (`rnd`: a seeded generator) into pieces of 1 to
 * `max` characters or bytes, in order.
 */
export function randomSplit<T extends { length: number; slice(start: number, end: number): T }>(whole: T, rnd: () => number, max: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < whole.length;) {
    const n = 1 + Math.floor(rnd() * max);
    out.push(whole.slice(i, i + n));
    i += n;
  }
  return out;
}
