// The model's edits under review above the composer (src/webview/editsView.ts) through the real
// app: the auto-accept banner and toggle, a row per file with its counts, Keep/Undo per file and
// for all, the diff and Restore controls, and an empty section that takes no height. Everything
// the panel posts is parsed with the host's zod schema, so a message the host would reject fails.
import * as assert from 'node:assert/strict';
import { webviewMessageSchema, type AnswerEditsView, type EditFileView, type HostMessage, type WebviewMessage } from '../../../src/chat/protocol';
import { byRole, chatSnapshot, isShown, startTestChatApp } from './jsdomEnv';

type EditsMessage = Extract<HostMessage, { type: 'edits' }>;

const snapshot = chatSnapshot();

const edits = (over: Partial<EditsMessage> = {}): EditsMessage => ({
  type: 'edits',
  conversationId: 'c1',
  available: true,
  autoAccept: false,
  answers: [],
  ...over,
});

const file = (path: string, over: Partial<EditFileView> = {}): EditFileView => ({ path, kind: 'edit', added: 1, removed: 0, state: 'pending', ...over });

const answer = (messageId: string, files: EditFileView[], over: Partial<AnswerEditsView> = {}): AnswerEditsView => ({
  messageId,
  files,
  restorable: false,
  restored: false,
  ...over,
});

const BANNER_OFF = 'Turn Off Auto-Accept';
const TOGGLE = 'Auto-accept the model’s edits in this chat';

function setup() {
  const { win, posted, host } = startTestChatApp();
  host(snapshot);
  const doc = win.document;
  const section = doc.querySelector<HTMLElement>('section.edits')!;
  assert.ok(section, 'the edits section is in the panel');
  let mark = posted.length;
  /** what the panel posted since the last call, each checked against the host's schema */
  const sent = (): WebviewMessage[] => {
    const out = posted.slice(mark).map((m) => webviewMessageSchema.parse(m));
    mark = posted.length;
    return out;
  };
  const banner = () => section.querySelector<HTMLElement>('.auto-accept-banner')!;
  const toggleRow = () => byRole(section, 'label', TOGGLE)[0]!;
  const checkbox = () => toggleRow().querySelector<HTMLInputElement>('input[type="checkbox"]')!;
  const list = () => section.querySelector<HTMLElement>('.edit-answers')!;
  const visibleChildren = () => Array.from(section.children).filter((c) => isShown(c));
  const button = (name: string, root: ParentNode = section) => {
    const found = byRole(root, 'button', name);
    assert.equal(found.length, 1, `one button named "${name}"`);
    return found[0] as HTMLButtonElement;
  };
  return { win, doc, host, section, sent, banner, toggleRow, checkbox, list, visibleChildren, button };
}

describe('edits under review (webview)', function () {
  this.timeout(30_000);

  it('the auto-accept banner shows exactly while the host says auto-accept is on; its button turns it off', () => {
    const t = setup();
    assert.ok(!isShown(t.banner()), 'hidden before the host says anything');
    t.host(edits({ autoAccept: true }));
    assert.ok(isShown(t.banner()), 'shown while auto-accept is on');
    assert.equal(t.banner().getAttribute('role'), 'status');
    assert.match(t.banner().textContent!, /Auto-accept is on for this chat/);
    t.button(BANNER_OFF, t.banner()).click();
    assert.deepEqual(t.sent(), [{ type: 'setAutoAccept', on: false }]);
    assert.ok(isShown(t.banner()), 'the host decides: the banner stays until it says auto-accept is off');
    t.host(edits({ autoAccept: false }));
    assert.ok(!isShown(t.banner()), 'hidden once the host says it is off');
    t.host(edits({ conversationId: 'c2', autoAccept: true }));
    assert.ok(!isShown(t.banner()), 'another conversation’s state is not shown');
    t.host(edits({ autoAccept: true }));
    t.host(snapshot);
    assert.ok(!isShown(t.banner()), 'a new snapshot clears it until the host posts the edits again');
    assert.deepEqual(t.sent(), []);
  });

  it('the toggle row: hidden while edits are unavailable, shown with edits or while on; a change posts its state', () => {
    const t = setup();
    const some = [answer('a1', [file('src/a.ts')])];
    assert.ok(!isShown(t.toggleRow()), 'hidden before the host says anything');
    t.host(edits({ available: false, answers: some }));
    assert.ok(!isShown(t.toggleRow()), 'hidden when edits are unavailable, even with edits');
    t.host(edits({ available: false, autoAccept: true }));
    assert.ok(!isShown(t.toggleRow()), 'hidden when edits are unavailable, even while on');
    t.host(edits({ available: true }));
    assert.ok(!isShown(t.toggleRow()), 'hidden in a conversation without edits (the transcript keeps the height)');
    t.host(edits({ available: true, answers: [answer('a1', [])] }));
    assert.ok(!isShown(t.toggleRow()), 'an answer without files is no edit');
    t.host(edits({ available: true, answers: some }));
    assert.ok(isShown(t.toggleRow()), 'shown once there are edits');
    assert.equal(t.checkbox().checked, false);
    t.checkbox().click();
    assert.deepEqual(t.sent(), [{ type: 'setAutoAccept', on: true }]);
    t.host(edits({ available: true, autoAccept: true }));
    assert.ok(isShown(t.toggleRow()), 'shown while on, even without edits');
    assert.equal(t.checkbox().checked, true);
    t.checkbox().click();
    assert.deepEqual(t.sent(), [{ type: 'setAutoAccept', on: false }]);
  });

  it('a row per file with its counts and state; Keep, Undo and the diff post that file’s path, Keep All and Undo All none', () => {
    const t = setup();
    const tricky = 'src/<b>bold</b> & "q".ts';
    t.host(
      edits({
        answers: [
          answer('a1', [file('lib/only.ts', { added: 2, removed: 2 })]),
          answer('a2', [
            file('src/a.ts', { added: 3, removed: 1 }),
            file('src/new.ts', { kind: 'create', added: 10, removed: 0 }),
            file('src/old.ts', { kind: 'delete', added: 0, removed: 5, state: 'kept' }),
            file('docs/x.md', { added: 4, removed: 7, state: 'undone' }),
            file(tricky, { added: 1, removed: 0 }),
          ]),
        ],
      }),
    );
    const a2 = t.section.querySelector<HTMLElement>('.edit-answer[data-message-id="a2"]')!;
    const rows = Array.from(a2.querySelectorAll<HTMLElement>('li.edit-file'));
    assert.deepEqual(
      rows.map((r) => r.getAttribute('data-path')),
      ['src/a.ts', 'src/new.ts', 'src/old.ts', 'docs/x.md', tricky],
      'one row per file, in the host’s order',
    );
    assert.equal(a2.querySelector('.edit-title')?.textContent, '3 of 5 changed files to review');
    assert.equal(t.doc.querySelector('b'), null, 'a path is text, never markup');

    const [a, created, kept, undone] = rows as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    const added = a.querySelector('.edit-added')!;
    const removed = a.querySelector('.edit-removed')!;
    assert.equal(added.textContent, '+3');
    assert.equal(added.getAttribute('aria-label'), '3 lines added');
    assert.equal(removed.textContent, '-1');
    assert.equal(removed.getAttribute('aria-label'), '1 lines removed');
    assert.equal(kept.querySelector('.edit-removed')?.textContent, '-5');
    assert.equal(kept.querySelector('.edit-removed')?.getAttribute('aria-label'), '5 lines removed');
    assert.equal(created.querySelector('.edit-kind')?.textContent, 'new');
    assert.equal(kept.querySelector('.edit-kind')?.textContent, 'deleted');
    assert.equal(a.querySelector('.edit-kind'), null, 'a plain edit has no kind text');

    // a kept or undone file shows its state instead of buttons
    assert.equal(kept.querySelector('.edit-state')?.textContent, 'kept');
    assert.equal(undone.querySelector('.edit-state')?.textContent, 'undone');
    for (const done of [kept, undone]) assert.equal(done.querySelectorAll('.edit-actions, button:not(.edit-path)').length, 0, 'no Keep/Undo once decided');
    assert.equal(a.querySelector('.edit-state'), null, 'a pending file has buttons, not state text');

    t.button('Keep src/a.ts').click();
    t.button('Undo src/new.ts').click();
    t.button(`Keep ${tricky}`).click();
    t.button('Keep lib/only.ts').click();
    t.button('Open diff: src/old.ts').click();
    t.button('Open diff: docs/x.md').click();
    assert.deepEqual(t.sent(), [
      { type: 'editReview', messageId: 'a2', action: 'keep', path: 'src/a.ts' },
      { type: 'editReview', messageId: 'a2', action: 'undo', path: 'src/new.ts' },
      { type: 'editReview', messageId: 'a2', action: 'keep', path: tricky },
      { type: 'editReview', messageId: 'a1', action: 'keep', path: 'lib/only.ts' },
      { type: 'editReview', messageId: 'a2', action: 'diff', path: 'src/old.ts' },
      { type: 'editReview', messageId: 'a2', action: 'diff', path: 'docs/x.md' },
    ]);

    // Keep All / Undo All: for an answer with more than one pending file, without a path
    const a1 = t.section.querySelector<HTMLElement>('.edit-answer[data-message-id="a1"]')!;
    assert.equal(byRole(a1, 'button', 'Keep All').length + byRole(a1, 'button', 'Undo All').length, 0, 'one pending file: its own buttons suffice');
    t.button('Keep All', a2).click();
    t.button('Undo All', a2).click();
    assert.deepEqual(t.sent(), [
      { type: 'editReview', messageId: 'a2', action: 'keep' },
      { type: 'editReview', messageId: 'a2', action: 'undo' },
    ]);

    // once all are decided the answer says so and offers no more buttons
    t.host(edits({ answers: [answer('a2', [file('src/a.ts', { state: 'kept' }), file('src/b.ts', { state: 'undone' })])] }));
    assert.equal(t.section.querySelector('.edit-title')?.textContent, '2 changed files reviewed');
    assert.deepEqual(
      Array.from(t.list().querySelectorAll('button')).map((b) => b.getAttribute('aria-label')),
      ['Open diff: src/a.ts', 'Open diff: src/b.ts'],
    );
  });

  it('a file that configures tools, tasks, CI or packages carries the host’s warning on its row, as text; other rows none', () => {
    const t = setup();
    const warning = '⚠ package configuration: scripts and registries run at install <b>x</b>';
    t.host(edits({ autoAccept: true, answers: [answer('a1', [file('package.json', { warning }), file('src/a.ts', { state: 'kept' })])] }));
    const [pkg, plain] = Array.from(t.section.querySelectorAll<HTMLElement>('li.edit-file')) as [HTMLElement, HTMLElement];
    assert.equal(pkg.querySelector('.edit-warning')?.textContent, warning, 'the warning on the row');
    assert.equal(t.doc.querySelector('b'), null, 'the warning is text, never markup');
    assert.ok(isShown(pkg.querySelector('.edit-warning')!));
    assert.equal(byRole(pkg, 'button', 'Keep package.json').length, 1, 'still pending with auto-accept on: Keep and Undo offered');
    assert.equal(plain.querySelector('.edit-warning'), null, 'no warning on a plain file');
  });

  it('an empty state takes no height: no visible child without edits or auto-accept', () => {
    const t = setup();
    assert.deepEqual(t.visibleChildren(), [], 'nothing before the host says anything');
    t.host(edits({ available: true }));
    assert.deepEqual(t.visibleChildren(), [], 'nothing without edits');
    t.host(edits({ available: true, answers: [answer('a1', [])] }));
    assert.deepEqual(t.visibleChildren(), [], 'nothing for answers without files');
    assert.equal(t.list().childElementCount, 0);
    t.host(edits({ available: true, answers: [answer('a1', [file('src/a.ts')])] }));
    assert.ok(isShown(t.list()) && t.list().childElementCount === 1, 'the list shows with edits');
    t.host(edits({ available: true }));
    assert.deepEqual(t.visibleChildren(), [], 'hidden again once the edits are gone');
    assert.equal(t.list().childElementCount, 0, 'and emptied');
    t.host(edits({ available: true, answers: [answer('a1', [file('src/a.ts')])] }));
    t.host(snapshot);
    assert.deepEqual(t.visibleChildren(), [], 'a new snapshot clears the section');
  });

  it('keeps every answer with a pending file reviewable, however many; settled ones fill up to four, the newest', () => {
    const t = setup();
    const ids = () => Array.from(t.section.querySelectorAll<HTMLElement>('.edit-answer')).map((a) => a.dataset.messageId);
    // six answers, the oldest still pending: it stays, with the newest settled ones after it
    const settledAnswers = ['a2', 'a3', 'a4', 'a5', 'a6'].map((id) => answer(id, [file(`src/${id}.ts`, { state: 'kept' })]));
    t.host(edits({ answers: [answer('a1', [file('src/a1.ts')]), ...settledAnswers] }));
    assert.deepEqual(ids(), ['a1', 'a4', 'a5', 'a6'], 'the pending answer, then the three newest settled ones');
    t.button('Keep src/a1.ts').click();
    assert.deepEqual(t.sent(), [{ type: 'editReview', messageId: 'a1', action: 'keep', path: 'src/a1.ts' }]);
    // five pending answers: all five show (none can be reviewed anywhere else)
    t.host(edits({ answers: ['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => answer(id, [file(`src/${id}.ts`)])) }));
    assert.deepEqual(ids(), ['p1', 'p2', 'p3', 'p4', 'p5']);
    // all settled: the four newest
    t.host(edits({ answers: settledAnswers }));
    assert.deepEqual(ids(), ['a3', 'a4', 'a5', 'a6']);
  });

  it('Restore is offered only when restorable and posts restoreAnswer for that answer', () => {
    const t = setup();
    const RESTORE = 'Restore files to before this answer';
    t.host(
      edits({
        answers: [
          answer('a1', [file('src/a.ts', { state: 'kept' })], { restorable: true }),
          answer('a2', [file('src/b.ts', { state: 'kept' })], { restorable: false, note: 'The checkpoint is gone.' }),
        ],
      }),
    );
    const a1 = t.section.querySelector<HTMLElement>('.edit-answer[data-message-id="a1"]')!;
    const a2 = t.section.querySelector<HTMLElement>('.edit-answer[data-message-id="a2"]')!;
    assert.equal(byRole(a2, 'button', RESTORE).length, 0, 'not offered when not restorable');
    assert.equal(a2.querySelector('.edit-note')?.textContent, 'The checkpoint is gone.');
    t.button(RESTORE, a1).click();
    assert.deepEqual(t.sent(), [{ type: 'restoreAnswer', messageId: 'a1' }]);
    t.host(edits({ answers: [answer('a1', [file('src/a.ts', { state: 'undone' })], { restored: true })] }));
    assert.equal(t.section.querySelector('.edit-title')?.textContent, 'Restored to before this answer');
    assert.equal(byRole(t.section, 'button', RESTORE).length, 0);
  });
});
