// Reliability suite 8 (crash safety), in the real web workbench: the extension host killed
// (SIGKILL, from this test runner) while an answer streams, and the window reloaded while an
// answer streams. Afterwards: every stored chat file parses (no corrupted store, no half-written
// file in place of a conversation), the partial answer is back in the panel marked
// "Interrupted", and how much of the text shown before the crash was lost is printed (the store
// writes at most 100 ms after a change while streaming; not asserted: timing on a shared machine).
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { extensionHostPids } from '../harness/processes';
import { useGatewayWorkbench, type Workbench } from './workbench';

const KEY = 'sk-e2e-crash-4d1b7a';
const INTERRUPTED = 'Interrupted: the answer was cut off';


/** Every file of the chat store parses as JSON; returns the names (temporary files listed apart). */
function checkStore(userDataDir: string): { files: string[]; temps: string[] } {
  const dir = join(userDataDir, 'User', 'globalStorage', 'modelgate.modelgate', 'chat');
  assert.ok(existsSync(dir), `the chat store exists: ${dir}`);
  const names = readdirSync(dir);
  const files = names.filter((n) => n.endsWith('.json'));
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    assert.doesNotThrow(() => JSON.parse(text), `${f} is whole JSON (${text.length} chars)`);
  }
  assert.ok(files.includes('index.json'), 'the index is there');
  return { files, temps: names.filter((n) => n.endsWith('.tmp')) };
}

describe('e2e crash safety: the extension host killed and the window reloaded mid-stream', function () {
  this.timeout(300_000);
  const fixture = useGatewayWorkbench(KEY, (gw) => ({ settings: { 'modelgate.baseUrl': gw.baseUrl, 'modelgate.chat.model': 'flagship-text' } }));
  after(async () => {
  });

  let wb: Workbench;
  let chat: Frame;
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const assistants = () => chat.getByRole('log').getByRole('article', { name: 'Assistant' });
  const button = (name: string) => chat.getByRole('button', { name, exact: true });

  async function chatFrame(): Promise<Frame> {
    await wb.runCommand('Modelgate: Open Chat');
    chat = await wb.webviewFrame('[role="log"]', { timeoutMs: 90_000 });
    return chat;
  }

  /** Starts a long dripped answer and resolves with the text shown once it is well under way. */
  async function streamLong(label: string): Promise<string> {
    await wb.page.locator('.part.sidebar .title-actions').getByRole('button', { name: /^New Chat/ }).click(); // the view title's New chat (the panel has no second one)
    // The new chat's snapshot resets the input: wait for it before typing.
    await chat.getByRole('log').getByRole('article').first().waitFor({ state: 'detached', timeout: 30_000 });
    const text = `${label} [[words:20000]] [[fault:drip:2]]`;
    await message().fill(text);
    await chat.waitForFunction((t) => (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === t, text, { timeout: 10_000 }).catch(() => undefined);
    await message().fill(text);
    await button('Send').click();
    await button('Stop').waitFor({ state: 'visible', timeout: 30_000 });
    await chat.waitForFunction(() => {
      const a = [...document.querySelectorAll('article[aria-label="Assistant"]')].pop();
      return !!a && (a.textContent ?? '').trim().length > 300;
    }, undefined, { timeout: 60_000 });
    return (await assistants().last().innerText()).trim();
  }

  /** After the restart: the last answer is marked interrupted and keeps (most of) what was shown. */
  async function checkRestored(label: string, shown: string): Promise<void> {
    await chatFrame();
    const last = assistants().last();
    await last.getByText(INTERRUPTED).waitFor({ state: 'visible', timeout: 60_000 });
    const restored = (await last.innerText()).replace(/Interrupted:.*$/s, '').trim();
    assert.ok(restored.length > 0, 'the partial answer is kept');
    const a = shown.split(/\s+/);
    const b = restored.split(/\s+/);
    const common = Math.min(a.length, b.length);
    // Same words as far as both go (the last few may be cut mid-word or sit next to the status line).
    assert.ok(common > 10, `enough text to compare (${a.length} shown, ${b.length} kept)`);
    assert.deepEqual(b.slice(0, common - 5), a.slice(0, common - 5), 'the kept text is the text that was shown');
    console.log(`[crash] ${label}: ${a.length} words shown before, ${b.length} kept after the restart (${Math.max(0, a.length - b.length)} lost)`);
  }

  it('opens the chat and takes a key', async () => {
    wb = fixture.get();
    await chatFrame();
    await message().waitFor({ state: 'visible' });
    await wb.setKey(KEY);
  });

  it('the extension host killed (SIGKILL) mid-stream: store whole, the answer back as interrupted', async () => {
    const shown = await streamLong('killed host');
    const hosts = extensionHostPids(wb.serverPid);
    assert.equal(hosts.length, 1, `one extension host under the server: ${hosts.join()}`);
    process.kill(hosts[0]!, 'SIGKILL');
    // The store as the crash left it.
    await new Promise((r) => setTimeout(r, 500));
    const after = checkStore(wb.profile.userDataDir);
    console.log(`[crash] after SIGKILL: ${after.files.length} store files, all whole JSON; temporary files left: ${after.temps.length}`);
    // A fresh window gets a fresh extension host.
    await wb.page.reload({ waitUntil: 'domcontentloaded' });
    await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
    await checkRestored('SIGKILL', shown);
    checkStore(wb.profile.userDataDir);
    // And the chat goes on.
    await message().fill('still there? [[words:3]]');
    await button('Send').click();
    await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
    assert.equal((await assistants().last().innerText()).trim().split(/\s+/).length >= 3, true);
  });

  it('the window reloaded mid-stream: store whole, the answer back as interrupted', async () => {
    const shown = await streamLong('reloaded window');
    await wb.page.reload({ waitUntil: 'domcontentloaded' });
    await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
    checkStore(wb.profile.userDataDir);
    await checkRestored('reload', shown);
    checkStore(wb.profile.userDataDir);
  });
});
