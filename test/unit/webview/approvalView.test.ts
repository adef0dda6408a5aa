// The approval card in the panel (src/webview/approvalView.ts) through the real app: shown in
// its answer, text only, the safe choice focused and default, one answer per card.
import * as assert from 'node:assert/strict';
import type { ApprovalView, MessageView, WebviewMessage } from '../../../src/chat/protocol';
import { byRole, chatSnapshot, startTestChatApp } from './jsdomEnv';

const answer: MessageView = {
  id: 'a1',
  role: 'assistant',
  parts: [{ kind: 'text', text: 'Let me run the tests.' }],
  status: 'streaming',
  model: 'm',
  channel: 'stable',
  createdAt: 1,
};

const snapshot = chatSnapshot([answer], { busy: true });

const card = (over: Partial<ApprovalView> = {}): ApprovalView => ({
  id: 'approval-1',
  messageId: 'a1',
  title: 'Run this command?',
  detail: ['Folder: app'],
  code: 'npm test && echo <b>not bold</b>',
  choices: [
    { id: 'run', label: 'Run' },
    { id: 'skip', label: 'Skip' },
  ],
  safeChoiceId: 'skip',
  ...over,
});

function setup() {
  const { win, posted, host } = startTestChatApp();
  host(snapshot);
  const answers = () => posted.filter((m): m is Extract<WebviewMessage, { type: 'approvalAnswer' }> => m.type === 'approvalAnswer');
  return { win, doc: win.document, host, answers };
}

describe('approval card (webview)', function () {
  this.timeout(30_000);

  it('is shown inside its answer, as text, with the safe choice as the focused default button', () => {
    const t = setup();
    t.host({ type: 'approvalRequest', approval: card() });
    const article = t.doc.querySelector('article[data-message-id="a1"]')!;
    const el = article.querySelector('.approval-card')!;
    assert.ok(el, 'the card is in the answer');
    assert.equal(el.getAttribute('role'), 'group');
    assert.equal(t.doc.getElementById(el.getAttribute('aria-labelledby')!)?.textContent, 'Run this command?', 'the group is named by its title');
    assert.equal(el.querySelector('.approval-detail')?.textContent, 'Folder: app');
    assert.equal(el.querySelector('.approval-code code')?.textContent, 'npm test && echo <b>not bold</b>');
    assert.equal(el.querySelector('b'), null, 'no HTML from the host or the model');
    const skip = byRole(el, 'button', 'Skip')[0]!;
    const run = byRole(el, 'button', 'Run')[0] as HTMLButtonElement;
    assert.equal(t.doc.activeElement, skip, 'Enter on a card that just appeared skips');
    assert.ok(skip.classList.contains('primary') && !run.classList.contains('primary'), 'the safe choice is drawn as the default');
    assert.equal(skip.getAttribute('type'), 'button');
    assert.equal(run.tabIndex >= 0 && !run.disabled, true, 'Run is reachable by Tab');
  });

  it('a press posts one answer, disables the card, and approvalDone removes it', () => {
    const t = setup();
    t.host({ type: 'approvalRequest', approval: card() });
    const run = byRole(t.doc, 'button', 'Run')[0] as HTMLButtonElement;
    run.click();
    run.click();
    (byRole(t.doc, 'button', 'Skip')[0] as HTMLButtonElement).click();
    assert.deepEqual(t.answers(), [{ type: 'approvalAnswer', id: 'approval-1', choiceId: 'run' }]);
    assert.ok(run.disabled);
    t.host({ type: 'approvalDone', id: 'approval-1' });
    assert.equal(t.doc.querySelector('.approval-card'), null);
  });

  it('malformed requests are ignored; a card for an answer not shown goes at the end of the log', () => {
    const t = setup();
    t.host({ type: 'approvalRequest', approval: card({ safeChoiceId: 'missing' }) });
    t.host({ type: 'approvalRequest', approval: { ...card(), detail: 'not a list' } });
    t.host({ type: 'approvalRequest', approval: { ...card(), code: 3 } });
    assert.equal(t.doc.querySelector('.approval-card'), null);
    t.host({ type: 'approvalRequest', approval: card({ messageId: 'gone', code: undefined }) });
    const el = t.doc.querySelector('.approval-card')!;
    assert.ok(el && !el.closest('article'));
    assert.equal(el.querySelector('pre'), null, 'no code block without code');
  });

  it('a new snapshot clears the cards (the host re-posts the open one)', () => {
    const t = setup();
    t.host({ type: 'approvalRequest', approval: card() });
    t.host(snapshot);
    assert.equal(t.doc.querySelector('.approval-card'), null);
    t.host({ type: 'approvalRequest', approval: card() });
    assert.equal(t.doc.querySelectorAll('.approval-card').length, 1);
  });
});
