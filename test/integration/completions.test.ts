// Completions as you type in a real VS Code, against the gateway simulator's completions mode:
// typing shows ghost text, Tab inserts it, Escape dismisses it; typing on aborts the request in
// flight (the simulator sees its stream closed before the end); .env and excluded files send
// nothing; a budget and the daily cap stop completions with a sign in the status bar and no
// dialog; an error is shown once and completions back off; every request is in the ledger under
// "completions"; turning them on asks with the cost of an hour of typing. Fixtures live under
// <workspace>/mg-completions and are removed afterwards.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { PRICE_CARD } from '../gateway/index';
import { staysFalse, until, useModelgate, config } from './helpers';

const FIX = 'mg-completions';
const QUIET_SUGGESTIONS = { other: 'off', comments: 'off', strings: 'off' };
const MATH_START = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\n';

const prices = {
  'flagship-text': { prices: { default: PRICE_CARD.chat['flagship-text']!.stable, ...PRICE_CARD.chat['flagship-text'] } },
};

describe('completions as you type (real VS Code)', function () {
  this.timeout(120_000);
  const mg = useModelgate({
    key: 'sk-test',
    // a first token soon enough for a test, late enough that a keystroke can come while it is awaited
    gateway: { channels: { economical: { firstTokenMs: 150, perChunkMs: 2 } } },
    settings: { 'completions.enabled': true, models: prices },
    restores: ['completions.enabled', 'completions.exclude', 'completions.languages', 'completions.dailyUsd', 'budget.dailyUsd', 'completions.channel'],
  });
  let folder: vscode.WorkspaceFolder;
  const uriOf = (rel: string) => vscode.Uri.joinPath(folder.uri, FIX, rel);

  /** Opens `rel` (written with `text`) in the active editor, the cursor at the end. */
  async function open(rel: string, text: string): Promise<vscode.TextEditor> {
    await vscode.workspace.fs.writeFile(uriOf(rel), new TextEncoder().encode(text));
    const editor = await vscode.window.showTextDocument(uriOf(rel), { preview: false });
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(end, end);
    return editor;
  }

  /** Types `text` as keystrokes (each one a document change and, in VS Code, an ask for ghost text). */
  async function type(text: string, gapMs = 30): Promise<void> {
    for (const ch of text) {
      await vscode.commands.executeCommand('type', { text: ch });
      await new Promise((r) => setTimeout(r, gapMs));
    }
  }

  const probe = () => mg.api.completions.probe();
  const streams = () => mg.gw.streams().filter((s) => s.fim);
  /** completion requests the simulator received whose prompt holds `text` (a file's path or its content) */
  const sentWith = (text: string) =>
    mg.gw.requests.filter(
      (r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes(text) && JSON.stringify(r.body).includes('<COMPLETION'),
    );

  /**
   * Waits for a completion offered at the editor's cursor: a fresh one, or the rest of one shown
   * earlier that the typing went through (on a loaded machine a pause comes mid-word). Says what
   * the feature did when none comes.
   */
  async function offerAtCursor(editor: vscode.TextEditor): Promise<string> {
    const at = editor.selection.active;
    return until(() => {
      const o = probe()?.lastOffer;
      return o && o.uri === editor.document.uri.toString() && o.line === at.line && o.character === at.character ? o.text : undefined;
    }, `ghost text at ${at.line}:${at.character}`).catch((err: unknown) => {
      const p = probe();
      const reports = p?.reports.slice(-5).map((r) => ({ sent: r.sent, answered: r.answered, aborted: r.aborted, shown: r.shown, error: r.error?.message }));
      throw new Error(
        `${(err as Error).message}; asked ${p?.asked}, skipped ${JSON.stringify(p?.skipped)}, last offer ${JSON.stringify(p?.lastOffer)}, stats ${JSON.stringify(p?.stats)}, last reports ${JSON.stringify(reports)}, simulator streams ${streams().length}`,
      );
    });
  }

  before(async () => {
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'a workspace folder is open');
    assert.equal(vscode.workspace.isTrusted, true);
    folder = f;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder.uri, FIX));
    // With the suggestion list open, completions wait for it to close (they do not extend its
    // selected item); TypeScript's list opening on its own while a test types would take the ghost text away.
    await vscode.workspace.getConfiguration('editor').update('quickSuggestions', QUIET_SUGGESTIONS, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('editor').update('quickSuggestions', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, FIX), { recursive: true, useTrash: false });
  });
  beforeEach(() => mg.gw.reset());

  it('typing shows ghost text from the gateway, and Tab inserts it', async () => {
    const editor = await open('math.ts', MATH_START);
    await type('export function med');
    const text = await offerAtCursor(editor);
    assert.ok(text.startsWith('ian(xs: number[]): number {'), text);
    assert.equal(loadedCompletions(), true, 'the completions feature was built on the first keystroke');
    const before = mg.api.completions.status();
    // the provider has answered; the explicit trigger resolves once VS Code holds the ghost text (the rest of the offer, no new request)
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
    await until(() => editor.document.getText().includes('export function median(xs: number[]): number {\n  const sorted'), 'the completion inserted');
    await until(() => probe()!.stats.accepted === 1, 'the acceptance counted');
    assert.match(mg.api.completions.status().tooltip, /\*\*Accepted:\*\* 1 of \d+ shown today/);
    assert.equal(before.visible, true);
  });

  it('Escape dismisses the ghost text: nothing is inserted', async () => {
    const editor = await open('math2.ts', MATH_START);
    await type('export function su');
    await offerAtCursor(editor);
    // the provider has answered; the explicit trigger resolves once VS Code holds the ghost text (the rest of the offer, no new request)
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    const text = editor.document.getText();
    await vscode.commands.executeCommand('editor.action.inlineSuggest.hide');
    await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(editor.document.getText(), text);
  });

  it('typing on aborts the request in flight: the simulator sees the stream closed before its end', async () => {
    mg.gw.setChannel('economical', { firstTokenMs: 5000 });
    try {
      const editor = await open('math3.ts', MATH_START);
      await type('export function ma');
      await until(() => streams().length === 1, 'a completion request at the simulator');
      await type('x');
      const [closed] = await until(() => (mg.gw.closedStreams().length ? mg.gw.closedStreams() : undefined), 'the stream closed by the client');
      assert.equal(closed!.closedEarly, 'waiting');
      assert.equal(closed!.sentTokens, 0);
      await until(() => probe()!.reports.some((r) => r.aborted === 'typing'), 'the engine aborted it for the keystroke');
      assert.ok(editor.document.getText().endsWith('export function max'));
    } finally {
      mg.gw.setChannel('economical', { firstTokenMs: 150 });
    }
  });

  it('sends nothing from .env, an excluded file or a language switched off, while an ordinary file beside them completes', async () => {
    const asked = probe()!.asked;
    await open('.env', 'API_KEY=sk-live-1234\n');
    await type('DB_PASSWORD=');
    await until(() => probe()!.asked > asked, 'VS Code asked for ghost text in .env');
    await staysFalse(() => sentWith('DB_PASSWORD').length > 0 || sentWith('sk-live-1234').length > 0, { forMs: 1500, what: 'a request from .env' });

    await config().update('completions.exclude', [`${FIX}/generated/**`], vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.createDirectory(uriOf('generated'));
    const askedExcluded = probe()!.asked;
    await open('generated/math.ts', MATH_START);
    await type('export function med');
    await until(() => probe()!.asked > askedExcluded, 'VS Code asked for ghost text in the excluded file');
    await staysFalse(() => sentWith('generated/math.ts').length > 0, { forMs: 1500, what: 'a request from an excluded file' });

    // a language switched off: a TypeScript file sends nothing while "typescript" is false
    await config().update('completions.languages', { typescript: false }, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().completions.languages.typescript === false, 'the language switch read');
    const askedOff = probe()!.asked;
    await open('langOff.ts', MATH_START);
    await type('export function med');
    await until(() => probe()!.asked > askedOff, 'VS Code asked for ghost text in a language switched off');
    await staysFalse(() => sentWith('langOff.ts').length > 0, { forMs: 1500, what: 'a request for a language switched off' });
    await config().update('completions.languages', undefined, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().completions.languages.typescript === undefined, 'the language switch removed');

    // the positive control: the same typing in an ordinary file does send
    await open('math4.ts', MATH_START);
    await type('export function med');
    await until(() => sentWith('math4.ts').length > 0, 'a request from an ordinary file');
    await config().update('completions.exclude', undefined, vscode.ConfigurationTarget.Global);
  });

  it('every request is in the spend ledger under "completions", priced', async () => {
    const sent = probe()!.reports.filter((r) => r.sent).length;
    assert.ok(sent > 0);
    const row = await until(
      () => mg.api.spend.summary('day').bySource.find((r) => r.key === 'completions as you type' && r.requests >= sent),
      'the completion requests in the ledger',
    );
    assert.equal(row.unpriced, 0);
    assert.ok(row.cost > 0);
    assert.match(mg.api.completions.status().tooltip, /\*\*Today:\*\* \$[0-9.]+ for \d+ requests/);
    assert.notEqual(mg.api.lastUsage()?.via, 'completions', "completions do not replace the status bar's last request");
  });

  it('a used-up budget and the daily cap stop completions with a sign in the status bar, without a dialog', async () => {
    await config().update('budget.dailyUsd', 0.000001, vscode.ConfigurationTarget.Global);
    try {
      await open('math5.ts', MATH_START);
      const asked = probe()!.asked;
      await type('export function med');
      await until(() => probe()!.asked > asked, 'VS Code asked');
      await staysFalse(() => streams().length > 0, { forMs: 1500, what: 'a request past the budget' });
      await until(() => /circle-slash/.test(mg.api.completions.status().text), 'the status bar sign');
      assert.match(mg.api.completions.status().tooltip, /Daily budget of/);
    } finally {
      await config().update('budget.dailyUsd', undefined, vscode.ConfigurationTarget.Global);
    }
    await until(() => !/circle-slash/.test(mg.api.completions.status().text), 'the sign gone once the budget is lifted');

    await config().update('completions.dailyUsd', 0.000001, vscode.ConfigurationTarget.Global);
    try {
      await open('math6.ts', MATH_START);
      await type('export function med');
      await staysFalse(() => streams().length > 0, { forMs: 1500, what: 'a request past the daily cap' });
      await until(() => /completions spent/.test(mg.api.completions.status().tooltip), 'the cap in the tooltip');
    } finally {
      await config().update('completions.dailyUsd', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('an error is shown once in the status bar with its action, and completions back off', async () => {
    mg.gw.injectFault({ kind: 'rateLimit', retryAfter: '60' }, 5);
    const editor = await open('math7.ts', MATH_START);
    await type('export function med');
    await until(() => /warning/.test(mg.api.completions.status().text), 'the trouble in the status bar');
    assert.match(mg.api.completions.status().tooltip, /limits the request rate/);
    assert.match(mg.api.completions.status().tooltip, /Click for \*\*Change Channel\*\*/, 'the one action');
    const requests = mg.gw.requests.length;
    await type('ian(');
    await staysFalse(() => mg.gw.requests.length > requests, { forMs: 1500, what: 'a request while backing off' });
    assert.ok(editor.document.getText().includes('median('));
    // a settings change (another channel) ends the back-off
    mg.gw.clearFaults();
    await config().update('completions.channel', 'direct', vscode.ConfigurationTarget.Global);
    await until(() => !/warning/.test(mg.api.completions.status().text), 'the trouble cleared');
    await config().update('completions.channel', undefined, vscode.ConfigurationTarget.Global);
  });

  it('snoozing stops asking the gateway; resuming starts again', async () => {
    await vscode.commands.executeCommand('modelgate.completions.snooze', 'fiveMinutes');
    await until(() => /snooze/.test(mg.api.completions.status().text), 'the snooze sign');
    await open('math8.ts', MATH_START);
    await type('export function med');
    await staysFalse(() => streams().length > 0, { forMs: 1200, what: 'a request while snoozed' });
    await vscode.commands.executeCommand('modelgate.completions.resume');
    await type('i');
    await until(() => streams().length > 0, 'a request after resuming').catch((err: unknown) => {
      const p = probe();
      throw new Error(`${(err as Error).message}; asked ${p?.asked}, skipped ${JSON.stringify(p?.skipped)}, stats ${JSON.stringify(p?.stats)}`);
    });
  });

  it('turning completions on asks first, with the cost of an hour of typing; the safe answer leaves them off', async () => {
    await config().update('completions.enabled', false, vscode.ConfigurationTarget.Global);
    await until(() => !mg.api.completions.status().visible, 'the item hidden while off');
    const asked: string[] = [];
    mg.api.completions.setTurnOnAsk(async (model, channel, cost) => {
      asked.push(`${model}@${channel}`);
      assert.match(cost, /^about \$[0-9.]+ per hour of typing$/);
      return undefined;
    });
    try {
      assert.equal(await vscode.commands.executeCommand('modelgate.completions.turnOn'), false);
      assert.deepEqual(asked, ['flagship-text@economical']);
      assert.equal(config().inspect('completions.enabled')?.globalValue, false);
      mg.api.completions.setTurnOnAsk(async () => 'on');
      assert.equal(await vscode.commands.executeCommand('modelgate.completions.turnOn'), true);
      await until(() => mg.api.completions.status().visible, 'the item shown once on');
      assert.match(mg.api.completions.status().tooltip, /about \$[0-9.]+ per hour of typing/);
    } finally {
      mg.api.completions.setTurnOnAsk(undefined);
    }
  });

  function loadedCompletions(): boolean {
    return mg.api.loadedFeatures().some((f) => f.feature === 'completions');
  }
});
