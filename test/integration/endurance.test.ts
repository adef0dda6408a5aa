// Endurance (docs/reliability.md, category 7), in the real extension host against the gateway simulator.
//  - CHATS chats in a row, each a new conversation: send, and in turn regenerate, stop mid-stream,
//    stop then regenerate (40 in the test run: each of the four kinds ten times, so a leak of one
//    handle per chat is still 10 times the slack; `npm run bench -- endurance` runs the full 200
//    with MODELGATE_ENDURANCE_CHATS=200 and prints the figures, which go to test-results/endurance.json);
//  - 10 conversations streaming at once (held streaming, so "at once" does not depend on timing),
//    stopped one by one; then 10 more started together and left to finish;
// then: the extension host's sockets, timers and other active handles, the registered commands
// and open documents are back where they started (allowing a small documented constant for VS
// Code's own background work), heap after a full GC is back near its start (figure printed; a
// generous bound), and every conversation is intact on disk after a reload.
//
// One window: the suite runs inside one extension host, and a second workbench window is a second
// extension host the suite cannot drive (see the notes of h5-suite for why).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { HostMessage } from '../../src/chat/protocol';
import { answerText, type AnswerView, until, useModelgate, useOwnChatHistory, waitFor } from './helpers';

const KEY = 'sk-endurance-2c7f0e93ab';
/** A multiple of 4 (the four kinds of chat take turns); MODELGATE_ENDURANCE_CHATS for the bench's 200. */
const CHATS = Math.max(4, Math.round(Number(process.env.MODELGATE_ENDURANCE_CHATS ?? 40) / 4) * 4 || 40);
const AT_ONCE = 10;
/**
 * Allowed growth of a kind of active resource (timers, sockets, ...) between the start and the
 * end: VS Code's own extension-host work (file watchers, log flushes, telemetry timers) comes and
 * goes, independent of the chats. A leak of one per chat would show as ~200.
 */
const SLACK = 4;
/**
 * Heap after GC may grow by this much: the conversations are legitimately kept loaded (~1-2 MB for
 * 200); a generous bound, 16 MB plus 0.16 MB per chat (48 MB for 200, 22.4 MB for 40).
 */
const HEAP_BOUND_MB = 16 + 0.16 * CHATS;

interface Expected {
  id: string;
  users: string[];
  /** status of the last answer */
  last: 'done' | 'stopped';
}

function gcFunction(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  const info = (process as unknown as { getActiveResourcesInfo?: () => string[] }).getActiveResourcesInfo?.() ?? [];
  for (const kind of info) counts[kind] = (counts[kind] ?? 0) + 1;
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  counts['handles (all)'] = handles.length;
  counts['sockets'] = handles.filter((h) => h && (h as object).constructor?.name === 'Socket').length;
  return counts;
}

/** The run's figures for `npm run bench -- endurance` (never asserted). */
function writeFigures(figures: Record<string, unknown>): void {
  const dir = path.resolve(__dirname, '..', '..', '..', 'test-results');
  fs.mkdirSync(dir, { recursive: true });
  const record = { date: new Date().toISOString(), host: `${vscode.env.appName} ${vscode.version}`, ...figures };
  fs.writeFileSync(path.join(dir, 'endurance.json'), `${JSON.stringify(record, null, 2)}\n`);
}

describe('endurance (real VS Code, gateway simulator)', function () {
  this.timeout(600_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 1000 } } },
    settings: { 'chat.model': 'flagship-text', channel: 'default' },
    ready: (api) => api.settings().chatModel === 'flagship-text',
    key: KEY,
    chat: true,
    // A failed or timed-out run may leave answers streaming: closing the chat (as a reload does)
    // aborts them all, so they cannot spill requests into the suites that follow.
    cleanup: () => mg.api.chat.reload(),
  });
  const chat = (): ChatController => mg.api.chat.controller;

  // The suite starts from an empty conversation store and puts the one it found back afterwards:
  // it costs the same wherever it runs (in the trusted session after other suites' conversations,
  // or in a VS Code of its own), and its figures do not depend on what ran before it.
  useOwnChatHistory(mg);

  it(`${CHATS} chats in a row (send, stop, regenerate) and ${AT_ONCE} conversations streaming at once: no leaked handles, memory back, every conversation intact`, async () => {
    const gc = gcFunction();
    const c0 = chat();
    // Warm up (first request, first write, lazy modules), so the baseline is a steady state.
    await c0.newChat();
    await c0.send('warm up [[words:3]]');
    await c0.whenIdle();
    let deltas = 0;
    const sub = c0.onDidPost((m: HostMessage) => {
      if (m.type === 'textDelta') deltas++;
    });
    // Modelgate's own commands: VS Code's built-in extensions may activate (and register theirs)
    // at any time during the run, more so on a loaded machine.
    const isOwn = (c: string) => /^_?modelgate\b/i.test(c);
    const allBefore = await vscode.commands.getCommands(false);
    const commandsBefore = allBefore.filter(isOwn).sort();
    const documentsBefore = vscode.workspace.textDocuments.length;
    // The warm-up's sockets, timers and writes settle: the baseline is taken once the active
    // resources have stayed the same for three samples in a row.
    let last = '';
    let same = 0;
    await waitFor(
      () => {
        const now = JSON.stringify(resources());
        same = now === last ? same + 1 : 0;
        last = now;
        return same >= 2;
      },
      { what: 'the active resources to settle after the warm-up', timeoutMs: 30_000, intervalMs: 250 },
    );
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const before = resources();

    const expected: Expected[] = [];
    /** Sends and resolves (with the send's promise, boxed) once the answer streams. */
    const streamUntilDelta = async (text: string): Promise<{ sent: Promise<void> }> => {
      const seen = deltas;
      const sent = c0.send(text);
      await until(() => c0.busy && deltas > seen, `streamed text of: ${text}`);
      return { sent };
    };

    const started = Date.now();
    for (let i = 0; i < CHATS; i++) {
      await c0.newChat();
      const id = (await c0.conversation()).id;
      const first = `chat ${i} [[words:5]]`;
      await c0.send(first);
      const e: Expected = { id, users: [first], last: 'done' };
      switch (i % 4) {
        case 1:
          await c0.regenerate();
          break;
        case 2: {
          const long = `chat ${i} long [[words:20000]] [[fault:drip:1]]`;
          const { sent } = await streamUntilDelta(long);
          c0.stop();
          await sent;
          e.users.push(long);
          e.last = 'stopped';
          break;
        }
        case 3: {
          const long = `chat ${i} again [[words:20000]] [[fault:drip:1]]`;
          const { sent } = await streamUntilDelta(long);
          c0.stop();
          await sent;
          e.users.push(long);
          // Regenerate the stopped answer (the same long request) and stop that one too.
          const seen = deltas;
          const regen = c0.regenerate();
          await until(() => c0.busy && deltas > seen, 'the regenerated answer streams');
          c0.stop();
          await regen;
          e.last = 'stopped';
          break;
        }
      }
      expected.push(e);
    }
    const rowSeconds = (Date.now() - started) / 1000;

    // AT_ONCE conversations held streaming together (the simulator holds every stream after its first
    // chunk: holdStreams), then stopped. They used to drip 20000 words in 1-5 byte pieces every 2 ms
    // meanwhile, which kept ten streams' deltas and saves going through the window for no purpose.
    const release = mg.gw.holdStreams();
    const held: { e: Expected; sent: Promise<void> }[] = [];
    for (let k = 0; k < AT_ONCE; k++) {
      await c0.newChat();
      const id = (await c0.conversation()).id;
      const text = `at once ${k} [[words:20000]]`;
      held.push({ e: { id, users: [text], last: 'stopped' }, sent: (await streamUntilDelta(text)).sent });
    }
    for (const h of held) {
      assert.ok(await c0.switchConversation(h.e.id));
      assert.equal(c0.busy, true, 'all of them stream at the same time');
    }
    for (const h of held) {
      await c0.switchConversation(h.e.id);
      c0.stop();
      await h.sent;
      expected.push(h.e);
    }
    release();
    // AT_ONCE more started together, left to finish.
    const together: Promise<unknown>[] = [];
    for (let k = 0; k < AT_ONCE; k++) {
      await c0.newChat();
      const id = (await c0.conversation()).id;
      const text = `together ${k} [[words:300]]`;
      together.push(c0.send(text));
      // send() picks the active conversation after an await: let it take this one before the next newChat.
      await until(async () => (await c0.conversation()).messages.length > 0, `the message went into ${id}`);
      expected.push({ id, users: [text], last: 'done' });
    }
    await Promise.all(together);
    await c0.whenIdle();

    // Let idle keep-alive sockets and debounce timers lapse, then measure.
    let after = resources();
    const grown = () => Object.entries(after).filter(([k, n]) => n > (before[k] ?? 0) + SLACK);
    await waitFor(
      () => {
        after = resources();
        return grown().length === 0;
      },
      { what: 'active resources back near the baseline', timeoutMs: 15_000, intervalMs: 500 },
    ).catch(() => undefined); // reported below with the figures
    gc?.();
    const heapAfter = process.memoryUsage().heapUsed;
    const allAfter = await vscode.commands.getCommands(false);
    const commandsAfter = allAfter.filter(isOwn).sort();
    const seenBefore = new Set(allBefore);
    const othersAdded = allAfter.filter((c) => !seenBefore.has(c) && !isOwn(c));
    const documentsAfter = vscode.workspace.textDocuments.length;
    sub.dispose();
    const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    console.log(
      `[endurance] ${CHATS} chats in ${rowSeconds.toFixed(1)} s; resources before ${JSON.stringify(before)} after ${JSON.stringify(after)}; ` +
        `heap after GC ${mb(heapBefore)} MB -> ${mb(heapAfter)} MB (${gc ? 'gc exposed' : 'no gc'}); Modelgate commands ${commandsBefore.length} -> ${commandsAfter.length} (others registered meanwhile: ${othersAdded.join(', ') || 'none'}); documents ${documentsBefore} -> ${documentsAfter}`,
    );
    assert.deepEqual(grown(), [], `active resources grew by more than ${SLACK}: before ${JSON.stringify(before)} after ${JSON.stringify(after)}`);
    assert.deepEqual(commandsAfter, commandsBefore, "Modelgate's registered commands");
    assert.ok(documentsAfter <= documentsBefore + 1, `open documents ${documentsBefore} -> ${documentsAfter}`);
    assert.ok(heapAfter - heapBefore < HEAP_BOUND_MB * 1024 * 1024, `heap grew by ${mb(heapAfter - heapBefore)} MB`);
    writeFigures({
      chats: CHATS,
      atOnce: AT_ONCE,
      rowSeconds: Math.round(rowSeconds * 10) / 10,
      heapBeforeMb: mb(heapBefore),
      heapAfterMb: mb(heapAfter),
      gcExposed: !!gc,
      resourcesBefore: before,
      resourcesAfter: after,
    });

    // Every conversation intact, as stored: reopen from disk and read each one.
    const reopened = await mg.api.chat.reload();
    const files = fs.readdirSync(mg.api.chat.storageUri.fsPath);
    assert.deepEqual(
      files.filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file left',
    );
    // The index and this suite's conversations parse (other suites may plant damaged files on purpose).
    const missing = ['index.json', ...expected.map((e) => `conversation-${e.id}.json`)].filter((f) => !files.includes(f));
    assert.deepEqual(missing, [], `store files missing (${files.length} files for ${expected.length} conversations)`);
    for (const f of ['index.json', ...expected.map((e) => `conversation-${e.id}.json`)])
      JSON.parse(fs.readFileSync(path.join(mg.api.chat.storageUri.fsPath, f), 'utf8'));
    const listed = new Set((await reopened.conversations()).map((s) => s.id));
    for (const e of expected) {
      assert.ok(listed.has(e.id), `conversation ${e.id} listed`);
      assert.ok(await reopened.switchConversation(e.id), `conversation ${e.id} opens`);
      const view = await reopened.conversation();
      const users = view.messages.filter((m) => m.role === 'user').map((m) => (m as { text: string }).text);
      assert.deepEqual(users, e.users, `the user messages of ${e.id}`);
      const answers = view.messages.filter((m): m is AnswerView => m.role === 'assistant');
      assert.equal(answers.length, e.users.length, `one answer per message in ${e.id}`);
      const last = answers.at(-1)!;
      assert.equal(last.status, e.last, `the last answer of ${e.id}`);
      assert.ok(answerText(last).length > 0, `the last answer of ${e.id} has its text`);
      for (const a of answers.slice(0, -1)) assert.equal(a.status, 'done');
    }
  });
});
