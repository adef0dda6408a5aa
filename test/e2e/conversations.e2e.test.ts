// The conversation list in the real web workbench: conversations made through the
// panel, the list opened from the panel's history control and from the view title, titles
// without markdown, newest first, a search that finds a word of the content (not of a title),
// the pick opening that conversation, rename and delete with the item buttons; and the panel
// showing one New chat control (the view title's). Screenshots go to test-results/screenshots/.
// The same workbench first checks the diagnostics chip (it was problems.e2e.test.ts, a workbench
// launch of its own, ~18 s of CPU, for one test): a JSON file with a syntax error is open, the user
// clicks "Attach problems", the chip shows in the composer (screenshot), its remove button takes it away.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { DEFAULT_WORKSPACE_FILES } from '../harness/code-server';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';
import { fillField, renderedText } from './typing';

const KEY = 'sk-e2e-convlist-51a9e0';

describe('e2e conversations: the conversation list and the panel controls', function () {
  this.timeout(300_000);

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: { ...gatewaySettings(gw), 'workbench.colorTheme': 'Default Light Modern' },
    workspaceFiles: { ...DEFAULT_WORKSPACE_FILES, 'broken.json': '{\n  "name": "demo",\n  "version": 1,,\n}\n' },
    viewport: { width: 1280, height: 860 },
  }));

  let wb: Workbench;
  let chat: Frame;
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const users = () => chat.getByRole('log').getByRole('article', { name: 'You' });
  const button = (name: string) => chat.getByRole('button', { name, exact: true });
  const viewTitle = (name: RegExp) => wb.page.locator('.part.sidebar .title-actions').getByRole('button', { name });
  const quickInput = () => wb.page.locator('.quick-input-widget');
  const row = (label: string): Locator =>
    wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: wb.page.locator('.label-name').getByText(label, { exact: true }) });

  async function send(text: string): Promise<void> {
    const before = await users().count();
    await fillField(message(), text);
    await button('Send').click();
    // the message is in the log before the answer is awaited: on a loaded machine Stop may not
    // have shown yet, and "Stop hidden" alone let the next send go while this one was starting
    await users().nth(before).waitFor({ state: 'visible', timeout: 60_000 });
    // its answer is done once it shows its usage line
    await chat
      .getByRole('log')
      .getByRole('article', { name: 'Assistant' })
      .nth(before)
      .getByText(/\d prompt/)
      .waitFor({ state: 'visible', timeout: 60_000 });
    await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
    await button('Send').waitFor({ state: 'visible', timeout: 10_000 });
  }

  async function listed(expected: string[]): Promise<string[]> {
    let labels: string[] = [];
    for (let i = 0; i < 100; i++) {
      // The first label of each row (a content match's snippet is a second line, also a .label-name).
      labels = await wb.page.evaluate(() =>
        [...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row')].map((r) =>
          (r.querySelector('.label-name')?.textContent ?? '').trim(),
        ),
      );
      if (JSON.stringify(labels) === JSON.stringify(expected)) return labels;
      await wb.page.waitForTimeout(200);
    }
    return labels;
  }

  async function screenshot(file: string): Promise<string> {
    const dir = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, file);
    await wb.page.screenshot({ path });
    return path;
  }

  before(async () => {
    wb = fixture.get();
    // The walkthrough opens at start-up (in the preview slot, taking the focus): let it come first.
    await wb.page
      .locator('.tabs-container .tab', { hasText: 'Welcome' })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 })
      .catch(() => undefined);
  });

  it("problems chip: attaches the current file's problems, and the user can remove it", async () => {
    // open the file from the Explorer, as a person does (a double click keeps it open)
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'broken.json' }).first().dblclick({ timeout: 60_000 });
    await wb.page.locator('.tabs-container .tab', { hasText: 'broken.json' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    // the JSON language service marks the error in the editor
    await wb.page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 90_000 });
    chat = await wb.openChat({ timeoutMs: 120_000 });
    await wb.setKey(KEY);
    const attach = chat.getByRole('button', { name: 'Attach problems', exact: true });
    await attach.waitFor({ state: 'visible', timeout: 30_000 });
    await attach.click();
    const chip = chat.locator('.composer-attachments .chip-diagnostics');
    await chip.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await chip.innerText(), /Problems: broken\.json \(\d+\)/);
    const dir = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    await wb.page.locator('.part.sidebar').screenshot({ path: join(dir, 'problems-chip.png') });
    await chip.getByRole('button', { name: /^Remove attachment Problems: broken\.json/ }).click();
    await chip.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('makes two conversations through the panel (New chat from the view title)', async () => {
    // The extension host registers its commands a while after the workbench shows (long on a loaded machine).
    chat = await wb.openChat({ timeoutMs: 120_000 });
    await wb.setKey(KEY);
    await send('## How do I **parse** JSON in `Go`?');
    await send('And what about streaming decoders with ostrich buffers?');
    await viewTitle(/^New Chat/).click();
    await users().first().waitFor({ state: 'detached', timeout: 30_000 });
    await send('Sort a list in Python');
    // a word past the first 2,000 characters, all the index keeps of a conversation: found by the full-text search
    await send(`Sort it by the second key. ${'Some more context about the list. '.repeat(65)}And keep the pangolin order stable.`);
    await chat.getByRole('button', { name: 'Conversations: Sort a list in Python' }).waitFor({ state: 'visible', timeout: 10_000 });
  });

  it("shows one New chat control: the view title's, none in the panel", async () => {
    assert.equal(await viewTitle(/^New Chat/).count(), 1, 'New chat in the view title');
    assert.equal(await chat.getByRole('button', { name: /new chat/i }).count(), 0, 'no second New chat in the panel');
    assert.equal(await chat.locator('select').count(), 0, 'no bare <select> of conversations');
    assert.equal(await viewTitle(/^Open Conversation/).count(), 1, 'the list is in the view title too');
  });

  it("opens the list from the panel's history control: titles without markdown, newest first, dates", async () => {
    await chat.getByRole('button', { name: /^Conversations: / }).click();
    await quickInput().waitFor({ state: 'visible', timeout: 30_000 });
    const labels = await listed(['Sort a list in Python', 'How do I parse JSON in Go?']);
    assert.deepEqual(labels, ['Sort a list in Python', 'How do I parse JSON in Go?']);
    const first = await row('Sort a list in Python').first().innerText();
    assert.match(first, /just now|min ago/, first);
  });

  it('searches the content and opens the pick in the panel', async () => {
    const input = quickInput().locator('.quick-input-box input');
    // The list filters when the query changes; the index may take the last message a moment
    // after it was sent (the save is queued), so the query is typed again, up to 3 times.
    // fillField checks that the box holds the query before the rows are read.
    let found: string[] = [];
    for (let i = 0; i < 3 && found.length === 0; i++) {
      await fillField(input, '');
      await fillField(input, 'OSTRICH');
      found = await listed(['How do I parse JSON in Go?']);
      if (found.length === 0) console.log(`    [e2e] search found nothing (try ${i + 1})`);
    }
    assert.deepEqual(found, ['How do I parse JSON in Go?'], 'found by a word of its second message');
    const shot = await screenshot('conversation-list-search.png');
    console.log(`    [e2e] screenshot: ${shot}`);
    await input.press('Enter');
    await quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
    // The conversation on screen before the pick has two messages of its own: wait for the panel
    // to show the picked one (its first message, its title in the header) before reading them.
    await users().first().filter({ hasText: 'parse' }).waitFor({ state: 'visible', timeout: 30_000 });
    await chat.getByRole('button', { name: 'Conversations: How do I parse JSON in Go?' }).waitFor({ state: 'visible', timeout: 10_000 });
    await users().nth(1).waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await renderedText(users().first()), /parse \*\*?|parse/);
    assert.match(await renderedText(users().nth(1)), /ostrich/);
  });

  it('finds a word deep in a long conversation once typing pauses (light and dark theme)', async () => {
    const input = quickInput().locator('.quick-input-box input');
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await wb.runCommand('Preferences: Color Theme');
        await wb.answerInput('Dark Modern');
        await wb.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 60_000 });
      }
      await viewTitle(/^Open Conversation/).click();
      await quickInput().waitFor({ state: 'visible', timeout: 30_000 });
      await fillField(input, 'PANGOLIN');
      assert.deepEqual(await listed(['Sort a list in Python']), ['Sort a list in Python'], 'found past what the index holds');
      const snippet = await row('Sort a list in Python').first().innerText();
      assert.match(snippet, /keep the pangolin order stable/, snippet);
      console.log(`    [e2e] screenshot: ${await screenshot(`conversation-list-full-text-${theme}.png`)}`);
      await wb.page.keyboard.press('Escape');
      await quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
    }
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput('Light Modern');
    await wb.page.locator('.monaco-workbench.vs').waitFor({ state: 'attached', timeout: 60_000 });
  });

  it('renames and deletes with the item buttons (delete confirmed in the list)', async () => {
    await viewTitle(/^Open Conversation/).click();
    // Opening a conversation does not make it newer: the order is by last update.
    assert.deepEqual(await listed(['Sort a list in Python', 'How do I parse JSON in Go?']), ['Sort a list in Python', 'How do I parse JSON in Go?']);
    const python = row('Sort a list in Python').first();
    await python.hover();
    await python.getByRole('button', { name: 'Rename' }).click();
    const input = quickInput().locator('.quick-input-box input');
    await wb.page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value === 'Sort a list in Python',
      undefined,
      { timeout: 10_000, polling: 100 },
    );
    await fillField(input, 'Python sorting notes');
    await input.press('Enter');
    assert.deepEqual(
      await listed(['Python sorting notes', 'How do I parse JSON in Go?']),
      ['Python sorting notes', 'How do I parse JSON in Go?'],
      'renamed in place (a rename does not reorder)',
    );

    const renamed = row('Python sorting notes').first();
    await renamed.hover();
    await renamed.getByRole('button', { name: 'Delete' }).click();
    assert.deepEqual(await listed(['Delete “Python sorting notes”', 'Keep it']), ['Delete “Python sorting notes”', 'Keep it']);
    await screenshot('conversation-list-delete.png');
    await row('Delete “Python sorting notes”').first().click();
    assert.deepEqual(await listed(['How do I parse JSON in Go?']), ['How do I parse JSON in Go?']);
    await wb.page.keyboard.press('Escape');
    await screenshot('conversation-panel.png');
  });
});
