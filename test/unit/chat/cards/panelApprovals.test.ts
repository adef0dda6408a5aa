// The panel's approval questions (src/chat/cards/panelApprovals.ts) with a stand-in token: the
// answer is the button pressed, and the safe choice whenever the question goes away unanswered.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { PanelApprovals, type ApprovalChange } from '../../../../src/chat/cards/panelApprovals';
import type { ApprovalQuestion } from '../../../../src/agentTools/approvals';

class Token implements vscode.CancellationToken {
  isCancellationRequested = false;
  private listeners: Array<() => void> = [];
  onCancellationRequested = ((l: () => void) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  }) as unknown as vscode.Event<unknown>;
  cancel(): void {
    this.isCancellationRequested = true;
    for (const l of this.listeners.splice(0)) l();
  }
  get listenerCount(): number {
    return this.listeners.length;
  }
}

const question = (over: Partial<ApprovalQuestion> = {}): ApprovalQuestion => ({
  conversationId: 'c1',
  messageId: 'm1',
  title: 'Run this command?',
  detail: ['Folder: app'],
  code: 'npm test',
  choices: [
    { id: 'run', label: 'Run' },
    { id: 'skip', label: 'Skip' },
  ],
  safeChoiceId: 'skip',
  ...over,
});

function setup() {
  const approvals = new PanelApprovals();
  const changes: ApprovalChange[] = [];
  approvals.onDidChange((c) => changes.push(c));
  const shown = () => changes.filter((c): c is Extract<ApprovalChange, { kind: 'shown' }> => c.kind === 'shown').map((c) => c.approval);
  const done = () => changes.filter((c) => c.kind === 'done').map((c) => (c as { id: string }).id);
  return { approvals, changes, shown, done };
}

describe('panel approval cards (host side)', () => {
  it('shows the question and resolves with the choice pressed; the card is then removed', async () => {
    const t = setup();
    const token = new Token();
    const answer = t.approvals.ask(question(), token);
    assert.equal(t.shown().length, 1);
    const card = t.shown()[0]!;
    assert.deepEqual(
      { title: card.title, detail: card.detail, code: card.code, messageId: card.messageId, safe: card.safeChoiceId, choices: card.choices.map((c) => c.id) },
      { title: 'Run this command?', detail: ['Folder: app'], code: 'npm test', messageId: 'm1', safe: 'skip', choices: ['run', 'skip'] },
    );
    assert.deepEqual(t.approvals.shownIn('c1'), card, 'a reloaded panel gets the card back');
    assert.equal(t.approvals.answer(card.id, 'run'), true);
    assert.equal(await answer, 'run');
    assert.deepEqual(t.done(), [card.id]);
    assert.equal(t.approvals.shownIn('c1'), undefined);
    assert.equal(token.listenerCount, 0, 'the token listener is released');
    assert.equal(t.approvals.answer(card.id, 'run'), false, 'a second answer changes nothing');
  });

  it('a choice that is not on the card, or a card that is not shown, is refused', async () => {
    const t = setup();
    const answer = t.approvals.ask(question(), new Token());
    const card = t.shown()[0]!;
    assert.equal(t.approvals.answer(card.id, 'rm -rf'), false);
    assert.equal(t.approvals.answer('approval-999', 'run'), false);
    assert.equal(t.approvals.answer(card.id, 'skip'), true);
    assert.equal(await answer, 'skip');
  });

  it('cancelled (Stop) before or while shown: the safe choice, and the card goes away', async () => {
    const t = setup();
    const early = new Token();
    early.cancel();
    assert.equal(await t.approvals.ask(question(), early), 'skip');
    assert.equal(t.shown().length, 0, 'a cancelled question is never shown');

    const token = new Token();
    const answer = t.approvals.ask(question(), token);
    const card = t.shown()[0]!;
    token.cancel();
    assert.equal(await answer, 'skip');
    assert.deepEqual(t.done(), [card.id]);
    assert.equal(t.approvals.answer(card.id, 'run'), false, 'a press that arrives after Stop runs nothing');
  });

  it('one question at a time per conversation; other conversations are not held up', async () => {
    const t = setup();
    const first = t.approvals.ask(question({ code: 'one' }), new Token());
    const secondToken = new Token();
    const second = t.approvals.ask(question({ code: 'two' }), secondToken);
    const third = t.approvals.ask(question({ code: 'three' }), new Token());
    const other = t.approvals.ask(question({ conversationId: 'c2', code: 'elsewhere' }), new Token());
    assert.deepEqual(
      t.shown().map((c) => c.code),
      ['one', 'elsewhere'],
    );
    // the waiting second one is stopped before its turn: never shown
    secondToken.cancel();
    assert.equal(await second, 'skip');
    t.approvals.answer(t.shown()[0]!.id, 'run');
    assert.equal(await first, 'run');
    assert.deepEqual(
      t.shown().map((c) => c.code),
      ['one', 'elsewhere', 'three'],
    );
    t.approvals.answer(t.shown()[2]!.id, 'run');
    assert.equal(await third, 'run');
    t.approvals.answer(t.shown()[1]!.id, 'skip');
    assert.equal(await other, 'skip');
  });

  it('a conversation that goes away, or the chat closing, answers every question with the safe choice', async () => {
    const t = setup();
    const a = t.approvals.ask(question(), new Token());
    const b = t.approvals.ask(question(), new Token());
    const c = t.approvals.ask(question({ conversationId: 'c2', safeChoiceId: 'run' }), new Token());
    t.approvals.cancelConversation('c1');
    assert.deepEqual(await Promise.all([a, b]), ['skip', 'skip']);
    t.approvals.dispose();
    assert.equal(await c, 'run', 'the safe choice is whatever the question named');
    assert.equal(await t.approvals.ask(question(), new Token()), 'skip', 'after dispose: at once');
  });

  it('refuses a question whose safe choice is not one of its buttons', () => {
    const t = setup();
    assert.throws(() => t.approvals.ask(question({ safeChoiceId: 'nope' }), new Token()), /safe choice/);
  });
});
