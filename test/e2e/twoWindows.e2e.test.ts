// Endurance and crash safety (docs/reliability.md, categories 7 and 8), the part an integration suite cannot do: two windows.
// Two pages of the browser on the same code-server workspace are two VS Code windows, each with
// its own extension host, sharing one chat history on disk. Ten conversations stream at once,
// five started in each window (interleaved); afterwards every one is whole on disk (the question
// and the full answer, status done), both windows reloaded, and the list in either window still
// names all ten. The simulator holds every stream after its first chunk (holdStreams) until all
// ten are seen streaming on disk, then lets them finish together: overlap by construction, not by
// answers dripped slowly enough (they took over a minute each and most of this file's CPU).
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { extensionHostPids } from '../harness/processes';
import { useGatewayWorkbench, type Workbench } from './workbench';
import { fillField } from './typing';
import { storedConversations, type StoredConversation } from './storedChats';

const KEY = 'sk-e2e-two-windows-8e31c0';
const PER_WINDOW = 5;
const WORDS = 80;

/** The conversations of the shared store on disk whose first question starts with `prefix`. */
function conversationsAsking(userDataDir: string, prefix: string): StoredConversation[] {
  return storedConversations(userDataDir).filter((c) => c.messages[0]?.text?.startsWith(prefix));
}

const answerOf = (c: StoredConversation) => c.messages.find((m) => m.role === 'assistant');
const answerText = (c: StoredConversation) =>
  (answerOf(c)?.parts ?? [])
    .map((p) => p.text ?? '')
    .join('')
    .trim();

async function poll<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = probe();
    if (last !== undefined) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('e2e two windows: 10 conversations streaming at once across two windows, nothing lost', function () {
  this.timeout(600_000);
  const fixture = useGatewayWorkbench(KEY, (gw) => ({ settings: { 'modelgate.baseUrl': gw.baseUrl, 'modelgate.chat.model': 'flagship-text' } }));
  let second: Workbench | undefined;
  after(async () => {
    await second?.close();
  });

  const windows: { wb: Workbench; chat?: Frame; name: string }[] = [];
  const prefix = 'two-windows';
  const labels: string[] = [];

  async function chatFrame(w: { wb: Workbench; chat?: Frame }): Promise<Frame> {
    await w.wb.runCommand('Modelgate: Open Chat');
    w.chat = await w.wb.webviewFrame('[role="log"]', { timeoutMs: 90_000 });
    return w.chat;
  }

  /** New chat in that window, then a question whose answer drips for a while. */
  async function start(w: { wb: Workbench; chat?: Frame }, label: string): Promise<void> {
    const chat = w.chat!;
    // New Chat only when the shown chat has messages: on an empty one it changes nothing the panel
    // shows, so nothing tells the test it arrived, and a Send that reaches the host before it
    // (official CI, the first question of a window) is then moved out of view by the new chat.
    if ((await chat.getByRole('log').getByRole('article').count()) > 0) {
      await w.wb.page
        .locator('.part.sidebar .title-actions')
        .getByRole('button', { name: /^New Chat/ })
        .click();
      await chat.getByRole('log').getByRole('article').first().waitFor({ state: 'detached', timeout: 30_000 });
    }
    const text = `${label} [[words:${WORDS}]]`;
    const box = chat.getByRole('textbox', { name: 'Message' });
    await fillField(box, text);
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    await chat.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'visible', timeout: 60_000 });
  }

  before(() => {
    windows.push({ wb: fixture.get(), name: 'A' });
  });

  it('opens two windows on one workspace, each with its own extension host, sharing the key', async () => {
    const first = windows[0]!.wb;
    await chatFrame(windows[0]!);
    await first.setKey(KEY);
    second = await first.openWindow();
    windows.push({ wb: second, name: 'B' });
    await chatFrame(windows[1]!);
    await second.keyStored();
    const hosts = await poll('two extension hosts', 60_000, () => {
      const pids = extensionHostPids(first.serverPid);
      return pids.length >= 2 ? pids : undefined;
    });
    assert.equal(hosts.length, 2, `one extension host per window: ${hosts.join()}`);
  });

  it('10 conversations stream at once, 5 started in each window, and all end whole on disk', async () => {
    const userData = windows[0]!.wb.profile.userDataDir;
    const release = fixture.gateway().holdStreams();
    for (let i = 0; i < PER_WINDOW; i++) {
      for (const w of windows) {
        const label = `${prefix} ${w.name}${i}`;
        labels.push(label);
        await start(w, label);
      }
    }
    // All ten are streaming at the same time: on disk (each window saves within ~100 ms of a
    // change) every conversation has its answer marked streaming, none done yet.
    const streaming = await poll('all ten conversations on disk, streaming', 30_000, () => {
      const all = conversationsAsking(userData, prefix);
      const states = all.map((c) => answerOf(c)?.status);
      if (states.some((s) => s === 'done')) throw new Error(`an answer ended before all ten had started: ${states.join()}`);
      return all.length === 10 && states.every((s) => s === 'streaming') ? all : undefined;
    });
    console.log(`[two windows] ${streaming.length} conversations streaming at once; ${extensionHostPids(windows[0]!.wb.serverPid).length} extension hosts`);
    release();
    const done = await poll('all ten answers done on disk', 300_000, () => {
      const all = conversationsAsking(userData, prefix);
      return all.length === 10 && all.every((c) => answerOf(c)?.status !== 'streaming') ? all : undefined;
    });
    const problems: string[] = [];
    for (const label of labels) {
      const mine = done.filter((c) => c.messages[0]?.text?.startsWith(`${label} `));
      if (mine.length !== 1) {
        problems.push(`${label}: ${mine.length} conversations`);
        continue;
      }
      const c = mine[0]!;
      const words = answerText(c).split(/\s+/).filter(Boolean).length;
      if (c.messages.length !== 2 || answerOf(c)?.status !== 'done' || words !== WORDS) {
        problems.push(`${label}: ${c.messages.length} messages, answer ${answerOf(c)?.status} with ${words} words`);
      }
    }
    assert.deepEqual(problems, [], 'every conversation has its question and its whole answer');
  });

  // One window reloads (its new extension host reads the history from disk while the other
  // window's host runs on); the other keeps its host and lists what the store gives it. Reloading
  // both read the same files twice, for a workbench load of CPU (about 15 s).
  it('after window A reloads: still ten whole conversations, listed in either window', async () => {
    const reloaded = windows[0]!.wb.page;
    // a bound against a hang (30 s, the default, ran out once at load 44), not a speed check
    await reloaded.reload({ waitUntil: 'domcontentloaded', timeout: 120_000 });
    await reloaded.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
    for (const w of windows) await chatFrame(w);
    const all = conversationsAsking(windows[0]!.wb.profile.userDataDir, prefix);
    assert.equal(all.length, 10);
    for (const c of all) assert.equal(answerText(c).split(/\s+/).filter(Boolean).length, WORDS, `${c.messages[0]?.text} kept its answer`);
    for (const w of windows) {
      await w.wb.runCommand('Modelgate: Open Conversation…');
      const end = Date.now() + 30_000;
      let listed: string[] = [];
      while (Date.now() < end) {
        listed = await w.wb.quickInputItems();
        if (labels.every((l) => listed.some((i) => i.includes(l)))) break;
        await w.wb.page.waitForTimeout(500);
      }
      await w.wb.page.keyboard.press('Escape');
      const missing = labels.filter((l) => !listed.some((i) => i.includes(l)));
      assert.deepEqual(missing, [], `window ${w.name} lists every conversation (it lists: ${listed.join(' | ')})`);
    }
  });
});
