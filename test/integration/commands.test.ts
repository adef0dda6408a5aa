// run_command through the chat, driven by the gateway simulator's [[call:…]] markers: the panel's
// approval card (answered the way the webview answers it, through the view's message entry), the
// command's output and exit code in the follow-up request the simulator records, Skip, Stop, the
// user's allow-list and the forms that must always ask.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { ApprovalView, HostMessage } from '../../src/chat/protocol';
import type { ChatMessage } from '../../src/core/client/types';
import { visibleCommand } from '../../src/core/workspace/allowedCommands';
import { config, modelgateLogFile, until, useModelgate } from './helpers';

const KEY = 'sk-commands-suite-7c21d0e4';

describe('run_command in the chat (real VS Code, gateway simulator)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } } },
    settings: { 'chat.model': 'flagship-text', 'chat.allowedCommands': [], 'chat.commandTimeoutSeconds': 300 },
    ready: (api) => api.settings().chatModel === 'flagship-text',
    key: KEY,
    chat: true,
  });
  const chat = (): ChatController => mg.api.chat.controller;
  let posts: HostMessage[] = [];
  let sub: vscode.Disposable | undefined;
  let ws: string;

  before(() => {
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });
  beforeEach(async () => {
    await chat().newChat();
    posts = [];
    sub = chat().onDidPost((m) => void posts.push(m));
  });
  afterEach(() => sub?.dispose());

  const cards = () => posts.filter((p): p is Extract<HostMessage, { type: 'approvalRequest' }> => p.type === 'approvalRequest').map((p) => p.approval);
  const runQuestions = () => cards().filter((c) => c.choices.some((x) => x.id === 'run'));
  const answer = (card: ApprovalView, choiceId: string) => mg.api.chat.view.receive({ type: 'approvalAnswer', id: card.id, choiceId });
  const nthCard = (n: number, what: string) => until(() => cards()[n], what);
  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  /** the tool results the model got in the last request */
  const toolResults = () =>
    (chatRequests().at(-1)!.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  const call = (command: string, cwd?: string) => `[[call:run_command ${JSON.stringify(cwd ? { command, cwd } : { command })}]]`;

  it('Run: the card shows the exact command and folder with Skip as the default; output and exit code go back to the model', async () => {
    const command = 'node -e \'console.log("MG_OUT_" + (40 + 2)); process.exit(3)\'';
    const sending = chat().send(`Run it ${call(command)}`);
    const card = await nthCard(0, 'the approval card');
    assert.equal(card.code, command, 'the exact command');
    assert.deepEqual(card.detail, ['Folder: .']);
    assert.deepEqual(
      card.choices.map((c) => c.id),
      ['run', 'skip'],
    );
    assert.equal(card.safeChoiceId, 'skip');
    assert.equal(card.messageId, (await chat().conversation()).messages.at(-1)!.id, 'shown in the answer being written');
    answer(card, 'run');
    await sending;
    const [result] = toolResults();
    assert.match(result!, /Exit code: 3/);
    assert.match(result!, /MG_OUT_42/);
    assert.ok(
      posts.some((p) => p.type === 'approvalDone' && p.id === card.id),
      'the card was removed',
    );
    // the log has the command and its exit code, never its output
    const file = modelgateLogFile(mg.api);
    assert.ok(file, 'found the Modelgate log file');
    const log = await until(() => {
      const text = fs.readFileSync(file, 'utf8');
      return text.includes(`run_command approved by the user: ${JSON.stringify(command)}`) && text;
    }, 'the run in the log');
    assert.match(log, /run_command approved by the user: .*MG_OUT_.*, exit code 3, /, 'the command and its exit code');
    assert.ok(!log.includes('MG_OUT_42'), 'the command’s output is not in the log');
  });

  it('changes staged by the answer and not kept: the card and the result say the command ran on the disk without them, get_diagnostics too', async () => {
    const rel = 'mg-cmd-staged.txt';
    const undoAll = async () => {
      for (const m of (await chat().conversation()).messages) if (m.role === 'assistant') await mg.api.chat.edits.undo(m.id);
    };
    fs.writeFileSync(path.join(ws, rel), 'MG_DISK_TEXT\n');
    try {
      const edit = `[[call:edit_file ${JSON.stringify({ path: rel, edits: [{ search: 'MG_DISK_TEXT', replace: 'MG_STAGED_TEXT' }] })}]]`;
      const show = `node -e 'process.stdout.write("MG_SEEN_" + require("fs").readFileSync("${rel}", "utf8"))'`;
      const sending = chat().send(`Edit, then run ${edit} [[then]] ${call(show)} [[call:get_diagnostics {}]]`);
      const card = await nthCard(0, 'the approval card');
      answer(card, 'run'); // first: a failed assertion must not leave the answer waiting
      await sending;
      const detail = [
        'Folder: .',
        `Not on disk yet: 1 file(s) with changes the model staged that you have not kept (${rel}). The command runs on the files on disk, without those changes.`,
      ];
      assert.deepEqual(card.detail, detail);
      assert.deepEqual(cards().find((c) => c.choices.some((x) => x.id === 'stop'))?.detail, detail, 'the running card says so too');
      const [ran, problems] = toolResults().slice(-2);
      assert.match(ran!, /MG_SEEN_MG_DISK_TEXT/, 'the command read the file on disk');
      assert.ok(
        ran!.startsWith(
          `Note: 1 file with changes staged in this conversation is not on disk yet (${rel}); the command ran against the files on disk, without those changes.`,
        ),
        ran,
      );
      assert.ok(
        problems!.startsWith(`Note: 1 file with changes staged in this conversation is not on disk yet (${rel}); these problems are of the files`),
        problems,
      );
      await undoAll();
      // nothing staged any more: no note
      const again = chat().send(`Run it ${call(show)}`);
      answer(await until(() => runQuestions()[1], 'the second approval card'), 'run');
      await again;
      assert.deepEqual(runQuestions()[1]!.detail, ['Folder: .']);
      assert.doesNotMatch(toolResults().at(-1)!, /^Note:/);
    } finally {
      await undoAll();
      fs.rmSync(path.join(ws, rel), { force: true });
    }
  });

  it('Skip: nothing runs and the model is told it was skipped', async () => {
    const marker = path.join(ws, 'mg-skipped-marker.txt');
    fs.rmSync(marker, { force: true });
    const sending = chat().send(`Run it ${call('node -e \'require("fs").writeFileSync("mg-skipped-marker.txt", "x")\'')}`);
    answer(await nthCard(0, 'the approval card'), 'skip');
    await sending;
    assert.match(toolResults()[0]!, /The user chose Skip: the command was not run/);
    assert.equal(fs.existsSync(marker), false, 'the command did not run');
  });

  it('Stop on the running card ends a long command; cwd is a workspace folder and outside paths are refused', async () => {
    fs.mkdirSync(path.join(ws, 'mg-cmd-dir'), { recursive: true });
    const sending = chat().send(`Run it ${call('node -e \'console.log("started"); setTimeout(() => {}, 120000)\'', 'mg-cmd-dir')}`);
    const card = await nthCard(0, 'the approval card');
    assert.deepEqual(card.detail, ['Folder: mg-cmd-dir']);
    answer(card, 'run');
    const running = await nthCard(1, 'the running card');
    assert.deepEqual(
      running.choices.map((c) => c.id),
      ['stop'],
    );
    answer(running, 'stop');
    await sending;
    assert.match(toolResults()[0]!, /The user stopped the command/);

    const escape = chat().send(`Run it ${call('node -v', '../..')}`);
    await escape;
    assert.equal(runQuestions().length, 1, 'no question for a folder outside the workspace');
    assert.match(toolResults().at(-1)!, /outside|not inside|workspace/i);
    fs.rmSync(path.join(ws, 'mg-cmd-dir'), { recursive: true, force: true });
  });

  it('the time limit (modelgate.chat.commandTimeoutSeconds) ends a command that runs on, and the model is told', async () => {
    await config().update('chat.commandTimeoutSeconds', 5, vscode.ConfigurationTarget.Global);
    try {
      await until(() => mg.api.settings().commandTimeoutMs === 5_000, "the 5 s time limit (the setting's minimum)");
      const sending = chat().send(`Run it ${call('node -e \'console.log("started"); setTimeout(() => {}, 120000)\'')}`);
      answer(await nthCard(0, 'the approval card'), 'run');
      await sending;
      assert.match(toolResults()[0]!, /stopped at the time limit of 5 s/);
      assert.match(toolResults()[0]!, /started/, 'the output up to then');
    } finally {
      await config().update('chat.commandTimeoutSeconds', 300, vscode.ConfigurationTarget.Global);
    }
  });

  it('an allowed line runs without asking, as its words only; options, expansions and control characters it does not name ask, and Skip runs nothing', async () => {
    await config().update('chat.allowedCommands', ["node -e 'console.log(6 * 7)'", 'echo', 'echo hello', 'npm test'], vscode.ConfigurationTarget.Global);
    const pwned = path.join(ws, 'mg-pwned.txt');
    fs.rmSync(pwned, { force: true });
    try {
      await until(() => mg.api.settings().allowedCommands.some((e) => e.text === 'echo hello'), 'the allow-list setting');
      // the same words, quoted another way
      await chat().send(`Run it ${call('node -e "console.log(6 * 7)"')}`);
      assert.equal(runQuestions().length, 0, 'no question for an allowed command');
      assert.match(toolResults()[0]!, /Exit code: 0[\s\S]*42/);
      assert.ok(
        vscode.window.terminals.some((t) => t.name === 'Modelgate command'),
        'the output is shown in a terminal',
      );

      const forms = [
        // typed into a terminal, these line-editing keys would rewrite the line into `touch mg-pwned.txt`
        'echo hello\u0015touch mg-pwned.txt',
        `echo hello${'\u007f'.repeat(5)}touch mg-pwned.txt`,
        'echo hello\u0017\u0017touch mg-pwned.txt',
        'echo \u0001touch mg-pwned.txt #',
        'echo \u001b[Htouch mg-pwned.txt #',
        'echo hello\u001b\u007ftouch mg-pwned.txt',
        'echo hello\u000ftouch mg-pwned.txt',
        'echo hello\u001atouch mg-pwned.txt',
        'echo hello\u200dtouch',
        // expansions and options the entries do not name
        'echo $HOME',
        'echo ~',
        'echo *',
        'npm test --prefix ..',
        'npm test --script-shell=./evil.sh',
        'npm test -- --grep x',
        // several commands in one
        'echo a && echo b',
        'echo a || echo b',
        'echo a; echo b',
        'echo a | cat',
        'echo a > mg-out.txt',
        'echo a < /dev/null',
        'echo $(id)',
        'echo `id`',
        'echo a & echo b',
        'echo a\necho b',
      ];
      posts = [];
      const sending = chat().send(`Run them ${forms.map((f) => call(f)).join(' ')}`);
      for (let i = 0; i < forms.length; i++) answer(await until(() => runQuestions()[i], `the question for ${JSON.stringify(forms[i])}`), 'skip');
      await sending;
      // the card shows every character: invisible ones are marked
      assert.deepEqual(
        runQuestions().map((c) => c.code),
        forms.map((f) => visibleCommand(f).text),
      );
      assert.equal(runQuestions()[0]!.code, 'echo hello⟨U+0015⟩touch mg-pwned.txt');
      assert.match(runQuestions()[0]!.detail.join('\n'), /1 invisible or control character/);
      assert.equal(fs.existsSync(pwned), false, 'nothing ran');
      assert.equal(fs.existsSync(path.join(ws, 'mg-out.txt')), false);
    } finally {
      fs.rmSync(pwned, { force: true });
      await config().update('chat.allowedCommands', [], vscode.ConfigurationTarget.Global);
    }
  });

  it('an approved line with control characters runs as the card showed it: no line editor turns them into keys', async () => {
    const pwned = path.join(ws, 'mg-pwned-approved.txt');
    fs.rmSync(pwned, { force: true });
    try {
      const command = 'echo MG_KEPT\u0015touch mg-pwned-approved.txt';
      const sending = chat().send(`Run it ${call(command)}`);
      const card = await nthCard(0, 'the approval card');
      assert.equal(card.code, 'echo MG_KEPT⟨U+0015⟩touch mg-pwned-approved.txt');
      answer(card, 'run');
      await sending;
      assert.match(toolResults()[0]!, /Exit code: 0/);
      assert.ok(toolResults()[0]!.includes('MG_KEPT\u0015touch mg-pwned-approved.txt'), 'echo printed the whole line');
      assert.equal(fs.existsSync(pwned), false, 'Ctrl-U did not erase the line and run touch');
    } finally {
      fs.rmSync(pwned, { force: true });
    }
  });
});
