// The cost quote and a conversation's spending limit in a real VS Code extension host against the
// gateway simulator: the quote next to Send follows what the next send holds (a file attached makes
// it dearer), an agent answer pauses before the request that would pass the limit, sends nothing
// more until the user chooses, and Continue raises the limit and lets it finish; Stop (the default)
// ends it with the reason; the conversation list shows what each conversation cost.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalView, HostMessage, QuoteView } from '../../src/chat/protocol';
import type { ConversationItem } from '../../src/chat/conversations/conversationList';
import { PRICE_CARD } from '../gateway/index';
import { staysFalse, until, useModelgate } from './helpers';

const KEY = 'sk-quote-suite-7d21a0';
const FIXTURE = 'mg-quote-fixture';
const BY_CHANNEL = PRICE_CARD.chat['flagship-text']!;

describe('the cost quote and the spending limit (real VS Code, gateway simulator)', function () {
  this.timeout(120_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { 'chat.model': 'flagship-text', channel: 'stable', models: { 'flagship-text': { prices: { default: BY_CHANNEL.stable, ...BY_CHANNEL } } } },
    restores: ['budget.conversationUsd'],
    ready: (api) => !!api.catalogue().price('flagship-text', 'stable') && !!api.catalogue().price('flagship-text', 'economical'),
    key: KEY,
    chat: true,
  });
  let posts: HostMessage[] = [];
  let subscription: vscode.Disposable | undefined;
  let ws = '';
  const chat = () => mg.api.chat.controller;
  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions')).length;
  const quotes = () => posts.flatMap((p) => (p.type === 'quote' ? [p.quote] : []));
  const cards = () => posts.flatMap((p) => (p.type === 'approvalRequest' ? [p.approval] : []));
  const press = (card: ApprovalView, choiceId: string) => mg.api.chat.view.receive({ type: 'approvalAnswer', id: card.id, choiceId });
  const draft = (text: string) => chat().handle({ type: 'draft', text });

  /** about what the first request of a send may cost at most (USD): its prompt, and the answer at its high end */
  function firstRequestHigh(q: QuoteView): number {
    const price = mg.api.catalogue().price('flagship-text', 'stable')!;
    return (q.promptTokens * price.input + q.output.high * price.output) / 1_000_000;
  }

  before(() => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, FIXTURE), { recursive: true });
    // a file whose contents, once a tool reads them, make the next request far dearer than the first
    const big = Array.from({ length: 1200 }, (_, i) => `export const value${i} = ${i * 7}; // entry ${i} of the table`).join('\n');
    fs.writeFileSync(path.join(ws, FIXTURE, 'big.ts'), big);
  });

  beforeEach(async () => {
    await chat().newChat();
    subscription?.dispose();
    posts = [];
    subscription = chat().onDidPost((m) => posts.push(m));
  });

  after(() => {
    subscription?.dispose();
    fs.rmSync(path.join(ws, FIXTURE), { recursive: true, force: true });
  });

  it('the quote is posted for the draft, on every channel, and grows when a file is attached', async () => {
    await draft('What does big.ts export?');
    const first = await until(() => quotes().at(-1), 'a quote for the draft');
    assert.equal(first.conversationId, (await chat().conversation()).id);
    assert.equal(first.channel, 'stable');
    assert.ok(first.usd && first.usd.low > 0 && first.usd.low <= first.usd.expected && first.usd.expected <= first.usd.high, JSON.stringify(first.usd));
    assert.deepEqual(first.channels.map((c) => c.channel).sort(), ['direct', 'economical', 'stable']);
    assert.ok(
      first.channels.every((c) => c.usd),
      'every channel priced',
    );
    assert.equal(first.cacheReason, 'first', 'nothing cached in a new conversation');

    assert.equal(await chat().attachFile(vscode.Uri.file(path.join(ws, FIXTURE, 'big.ts'))), true);
    const attached = await until(() => quotes().find((q) => q.promptTokens > first.promptTokens + 5_000), 'a quote that counts the attached file');
    // the file's tokens at the input price, at least, on the lowest figure
    const added = ((attached.promptTokens - first.promptTokens) * BY_CHANNEL.stable.input) / 1_000_000;
    assert.ok(attached.usd!.low - first.usd!.low >= added * 0.9, `attached ${JSON.stringify(attached.usd)} vs ${JSON.stringify(first.usd)}, file ≈ $${added}`);
    assert.ok(attached.usd!.expected > first.usd!.expected + added * 0.9);
  });

  it('an agent answer pauses before the request that would pass the limit, sends nothing more, and Continue resumes it', async () => {
    const question = `Read it [[call:read_file {"path":"${FIXTURE}/big.ts"}]] [[rounds:2]] [[words:20]]`;
    await draft(question);
    const q = (await chat().quotes.refresh())!;
    assert.ok(q.usd, 'priced');
    const limit = firstRequestHigh(q) * 1.5;
    await chat().quotes.setEnvelope(limit);
    assert.equal(chat().quotes.last(q.conversationId)?.envelope?.limit, limit);
    const before = chatRequests();
    const sent = chat().send(question);
    const card = await until(() => cards()[0], 'the pause card');
    assert.equal(chatRequests() - before, 1, 'the first request went out, the second waits');
    assert.match(card.title, /limit/);
    assert.equal(card.safeChoiceId, 'stop', 'Stop is the default');
    const cont = card.choices.find((c) => c.id === 'continue');
    assert.ok(cont && /Continue to \$/.test(cont.label), JSON.stringify(card.choices));
    await staysFalse(() => chatRequests() - before > 1, { forMs: 1_500, what: 'a request sent while the card waits' });
    assert.ok(chat().busy, 'the answer waits');
    await press(card, 'continue');
    // a later request may ask again when the answer outgrows the quote: each gets Continue
    let answered = 1;
    for (;;) {
      const next: ApprovalView | 'done' = await until<ApprovalView | 'done'>(
        () => cards()[answered] ?? (!chat().busy && 'done'),
        'the answer ends or asks again',
        60_000,
      );
      if (next === 'done') break;
      await press(next, 'continue');
      answered++;
    }
    await sent;
    assert.equal(chatRequests() - before, 3, 'two rounds and the answer');
    const answer = (await chat().conversation()).messages.at(-1)!;
    assert.ok(answer.role === 'assistant' && answer.status === 'done');
    const after = (await chat().quotes.refresh())!;
    assert.ok(after.envelope && after.envelope.limit > limit, `limit raised: ${JSON.stringify(after.envelope)}`);
    assert.ok(after.envelope.spent > 0 && after.envelope.spent <= after.envelope.limit, 'spent within the raised limit');
  });

  it('Stop, the default, ends the answer with the reason and sends nothing more', async () => {
    const question = `Read it [[call:read_file {"path":"${FIXTURE}/big.ts"}]] [[rounds:2]] [[words:20]]`;
    await draft(question);
    const q = (await chat().quotes.refresh())!;
    await chat().quotes.setEnvelope(firstRequestHigh(q) * 1.5);
    const before = chatRequests();
    const sent = chat().send(question);
    const card = await until(() => cards()[0], 'the pause card');
    await press(card, card.safeChoiceId);
    await sent;
    assert.equal(chatRequests() - before, 1, 'only the first request');
    const answer = (await chat().conversation()).messages.at(-1)!;
    assert.ok(answer.role === 'assistant');
    const text = answer.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('');
    assert.match(text, /spending limit/);
  });

  it('the conversation list shows what each conversation cost', async () => {
    await chat().send('A short one [[words:10]]');
    const total = (await chat().conversation()).totalCost;
    assert.ok(total !== undefined && total > 0);
    const id = (await chat().conversation()).id;
    const summary = (await chat().conversations()).find((s) => s.id === id);
    assert.equal(summary?.totalCost, total);
    const session = await mg.api.chat.conversationList();
    try {
      const item = (session.quickPick.items as readonly ConversationItem[]).find((i) => i.id === id);
      assert.ok(item, 'listed');
      assert.match(item.description ?? '', /\$\d/, `the cost in "${item.description}"`);
    } finally {
      session.dispose();
    }
  });
});
