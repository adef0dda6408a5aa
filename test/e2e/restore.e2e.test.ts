// A 2,000-message conversation restored into the chat panel in the real web workbench.
// The panel renders the newest messages at once and the older ones later, a page at a time
// (src/webview/transcriptView.ts); this checks that windowing never loses one: after scrolling to the
// top, the first message, one in the middle and the last are each shown as text where the user
// scrolled to, and every message is in the log exactly once, in order. The conversation is
// seeded as the extension's own store files (src/chat/conversations/conversationStore.ts: an index plus one
// JSON file per conversation under the extension's global storage) and opened through the
// panel's conversation list. No timing is asserted; the restore's times are printed.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';

const KEY = 'sk-e2e-restore-3f9a1c';
const COUNT = 2_000;
const LONG_ID = 'restore-long-2000';
const LONG_TITLE = 'Long history of 2000 messages';
const SHORT_ID = 'restore-short';
const SHORT_TITLE = 'Short chat';
/**
 * The scroll to the top fails when no older message went in for this long: the panel renders them
 * on idle time, which a loaded machine gives slowly (24-65 s for all of them at load 8-19, 180 s
 * beside a full CI run), so a fixed budget for all 2,000 measures the machine, not the panel.
 */
const STALL_MS = 60_000;
/** Mocha's bound for the scroll test: a hang, not a speed check. */
const TEST_BUDGET_MS = 480_000;

const userText = (i: number) => `question ${i}`;
const answerText = (i: number) => `Answer ${i} with \`code\` and a list:\n\n- one\n- two\n\n\`\`\`ts\nconst v${i} = ${i};\n\`\`\`\n`;

/** A conversation as the store writes it (storedConversationSchema in src/chat/conversations/conversationTranscript.ts). */
function storedConversation(id: string, title: string, count: number, at: number): object {
  const messages: object[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = at - (count - i) * 1000;
    if (i % 2 === 0) {
      messages.push({
        id: `${id}-m${i}`,
        role: 'user',
        text: userText(i),
        attachments: [],
        createdAt,
        context: [],
        wire: { role: 'user', content: userText(i) },
      });
    } else {
      messages.push({
        id: `${id}-m${i}`,
        role: 'assistant',
        parts: [{ kind: 'text', text: answerText(i) }],
        status: 'done',
        model: 'flagship-text',
        channel: 'stable',
        usage: { promptTokens: 20, cachedTokens: 0, completionTokens: 30, cost: 0.0001 },
        createdAt,
        wire: [{ role: 'assistant', content: answerText(i) }],
      });
    }
  }
  return {
    version: 1,
    id,
    title,
    createdAt: at - count * 1000,
    updatedAt: at,
    messages,
    pinned: [],
    pending: [],
    draft: '',
    totalCost: 0.0001 * (count / 2),
    renamed: true,
  };
}

/** Writes the store files the extension reads on first use of the chat (it polls them later too). */
function seedStore(userDataDir: string): void {
  const dir = join(userDataDir, 'User', 'globalStorage', 'modelgate.modelgate', 'chat');
  mkdirSync(dir, { recursive: true });
  const now = Date.now();
  const long = storedConversation(LONG_ID, LONG_TITLE, COUNT, now - 60_000);
  const short = storedConversation(SHORT_ID, SHORT_TITLE, 2, now);
  writeFileSync(join(dir, `conversation-${LONG_ID}.json`), JSON.stringify(long));
  writeFileSync(join(dir, `conversation-${SHORT_ID}.json`), JSON.stringify(short));
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({
      version: 1,
      activeId: SHORT_ID,
      conversations: [
        { id: SHORT_ID, title: SHORT_TITLE, updatedAt: now },
        { id: LONG_ID, title: LONG_TITLE, updatedAt: now - 60_000 },
      ],
    }),
  );
}

describe('e2e restore: a 2,000-message conversation in the panel', function () {
  this.timeout(240_000);

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: { ...gatewaySettings(gw), 'workbench.colorTheme': 'Default Light Modern' },
    viewport: { width: 1280, height: 860 },
  }));

  let wb: Workbench;
  let chat: Frame;
  /** the long conversation is in the panel (the second test needs the first) */
  let opened = false;
  const log = () => chat.getByRole('log');
  const article = (i: number): Locator => log().locator(`article[data-message-id="${LONG_ID}-m${i}"]`);
  const row = (label: string): Locator =>
    wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: wb.page.locator('.label-name').getByText(label, { exact: true }) });

  async function screenshot(file: string): Promise<string> {
    const dir = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, file);
    await wb.page.locator('.part.sidebar').screenshot({ path });
    return path;
  }

  /**
   * Whether message `i` is on screen as text: its article lies inside the log's visible box, the
   * point at its centre belongs to it (nothing covers it, it is painted where it is laid out),
   * and its rendered text (innerText, which skips what is not rendered) is the message's.
   */
  async function shownAsText(i: number): Promise<{ shown: boolean; text: string; why: string }> {
    return article(i).evaluate((el) => {
      const logEl = el.closest('[role="log"]')!;
      const box = el.getBoundingClientRect();
      const view = logEl.getBoundingClientRect();
      const top = Math.max(box.top, view.top);
      const bottom = Math.min(box.bottom, view.bottom);
      const text = (el as HTMLElement).innerText;
      if (bottom - top < 8)
        return {
          shown: false,
          text,
          why: `outside the log's view (article ${box.top.toFixed(0)}..${box.bottom.toFixed(0)}, view ${view.top.toFixed(0)}..${view.bottom.toFixed(0)})`,
        };
      const hit = el.ownerDocument.elementFromPoint(box.left + box.width / 2, (top + bottom) / 2);
      if (!hit || !el.contains(hit)) {
        const owner = hit?.closest('article')?.getAttribute('data-message-id') ?? 'no message';
        const where = `article ${box.top.toFixed(0)}..${box.bottom.toFixed(0)}, view ${view.top.toFixed(0)}..${view.bottom.toFixed(0)}, probed at y ${((top + bottom) / 2).toFixed(0)}`;
        return { shown: false, text, why: `covered by ${hit ? `${hit.tagName}.${hit.className} of ${owner}` : 'nothing'} (${where})` };
      }
      return { shown: true, text, why: '' };
    });
  }

  async function expectShown(i: number, expected: RegExp): Promise<void> {
    // A page of the log (content-visibility: auto) renders its messages in the frame after it
    // comes into view, and may then change height, which moves the message: scroll and look
    // again until it is shown, within 10 s.
    const deadline = Date.now() + 10_000;
    let r: { shown: boolean; text: string; why: string };
    let tries = 0;
    do {
      // first as a user's scroll leaves it; then to the middle of the log, away from its edges
      if (tries++ === 0) await article(i).scrollIntoViewIfNeeded({ timeout: 10_000 });
      else await article(i).evaluate((el) => el.scrollIntoView({ block: 'center' }));
      r = await shownAsText(i);
      if (!r.shown) await article(i).evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    } while (!r.shown && Date.now() < deadline);
    assert.ok(r.shown, `message ${i} is not shown: ${r.why}`);
    assert.match(r.text, expected, `message ${i} shows its text`);
  }

  before(async () => {
    wb = fixture.get();
    seedStore(wb.profile.userDataDir);
    // The extension host registers its commands a while after the workbench shows (long on a loaded machine).
    chat = await wb.openChat({ timeoutMs: 120_000 });
    await chat.getByRole('button', { name: `Conversations: ${SHORT_TITLE}` }).waitFor({ state: 'visible', timeout: 30_000 });
    await wb.setKey(KEY);
  });

  it('opens a stored 2,000-message conversation from the conversation list', async function () {
    this.timeout(180_000);
    // Open the long one as a user does: the history control, then its row in the list. A page
    // that takes the focus as it opens (the walkthrough) can close the list before the click:
    // then open it again.
    const t0 = Date.now();
    let clicked = 0;
    for (let attempt = 0; !clicked; attempt++) {
      await wb.page.keyboard.press('Escape');
      await chat.getByRole('button', { name: /^Conversations: / }).click();
      const picked = await row(LONG_TITLE)
        .first()
        .click({ timeout: 10_000 })
        .then(
          () => true,
          () => false,
        );
      if (picked) clicked = Date.now();
      else assert.ok(attempt < 3, `the conversation list did not let '${LONG_TITLE}' be picked (it lists: ${(await wb.quickInputItems()).join(' | ')})`);
    }
    await chat.getByRole('button', { name: `Conversations: ${LONG_TITLE}` }).waitFor({ state: 'visible', timeout: 30_000 });
    await article(COUNT - 1).waitFor({ state: 'visible', timeout: 30_000 });
    const atFirstLook = await log().locator('article').count();
    // The pick puts the cursor in the message box (the host's focusInput, posted once the view is
    // revealed). On a loaded machine it can land after the last answer shows: the next test's
    // Ctrl+Home presses must not race it for the keyboard.
    await chat.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message', undefined, { timeout: 30_000, polling: 100 });
    console.log(
      `    [e2e] list opened and picked in ${clicked - t0} ms; the last answer shown ${Date.now() - clicked} ms after the pick, with ${atFirstLook} of ${COUNT} messages in the log then`,
    );
    await expectShown(COUNT - 1, /Answer 1999 with code and a list/);
    const shot = await screenshot('restore-2000-bottom.png');
    console.log(`    [e2e] screenshot: ${shot}`);
    opened = true;
  });

  it('scrolled to the top, the first message is shown; the middle and the last are shown when scrolled to; every message is there once, in order', async function () {
    this.timeout(TEST_BUDGET_MS + 30_000);
    if (!opened) this.skip();
    const started = Date.now();
    // Scroll to the top as a user does (the log has the keyboard focus; Ctrl+Home), again and
    // again: older pages go in above while the user is there, which moves the top further up.
    await log().focus();
    let presses = 0;
    let inLog = 0;
    let grewAt = Date.now();
    for (;;) {
      await wb.page.keyboard.press('Control+Home');
      presses++;
      await wb.page.waitForTimeout(300);
      const atTop = await log().evaluate((el) => el.scrollTop === 0);
      if (atTop && (await article(0).count()) === 1 && (await shownAsText(0)).shown) break;
      const now = await log().locator('article').count();
      if (now > inLog) [inLog, grewAt] = [now, Date.now()];
      assert.ok(
        Date.now() - grewAt < STALL_MS,
        `the first message never showed at the top: no older message went in for ${STALL_MS / 1000} s (scrolled ${presses} times; ${now} of ${COUNT} in the log)`,
      );
    }
    console.log(`    [e2e] at the top with the first message shown after ${presses} presses of Ctrl+Home, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await expectShown(0, /^\s*You\b[\s\S]*\bquestion 0\s*$/);
    const top = await screenshot('restore-2000-top.png');
    console.log(`    [e2e] screenshot: ${top}`);

    // Every message, once, in order (no page dropped, none twice).
    const ids = await log().evaluate((el) => Array.from(el.querySelectorAll('article')).map((a) => a.getAttribute('data-message-id')));
    const expected = Array.from({ length: COUNT }, (_, i) => `${LONG_ID}-m${i}`);
    const missing = expected.filter((id) => !ids.includes(id));
    assert.equal(missing.length, 0, `${missing.length} messages are missing, e.g. ${missing.slice(0, 5).join(', ')}`);
    assert.deepEqual(ids, expected, 'all 2,000 messages in order, each once');

    await expectShown(1000, /\bquestion 1000\s*$/);
    await expectShown(1001, /Answer 1001 with code and a list/);
    const middle = await screenshot('restore-2000-middle.png');
    console.log(`    [e2e] screenshot: ${middle}`);

    await log().focus();
    await wb.page.keyboard.press('Control+End');
    await expectShown(COUNT - 1, /Answer 1999 with code and a list/);
  });
});
