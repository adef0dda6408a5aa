// Secret-looking files (.env, private keys, credentials) and the workspace tools, inside a real VS Code
// extension host against the real file system and real editors. The user's answer is injected
// through createWorkspaceTools({ approveSensitiveRead }), so no dialog is opened; every question
// the tools ask is recorded and checked. Fixtures live under <workspace>/mg-sensitive-fixture and
// are removed afterwards.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createWorkspaceTools, type SensitiveReadRequest, type ToolResult, type WorkspaceTools } from '../../src/agentTools';
import { waitFor } from './helpers';

const FIX = 'mg-sensitive-fixture';
const ENV_MARKER = 'ENV_ONLY_SECRET_31337';
const SHARED = 'SHARED_SETTING_NAME_808';
const TEMPLATE_MARKER = 'TEMPLATE_PLACEHOLDER_4242';
const KEY_MARKER = 'KEY_BODY_MARKER_2718';
const DIAG_MARKER = 'DIAG_QUOTES_SECRET_1618';

let nextId = 0;
const callOf = (name: string, args: unknown) => ({ id: `call_${++nextId}`, name, arguments: JSON.stringify(args) });

interface Question {
  relPath: string;
  request: SensitiveReadRequest;
}

describe('workspace tools and secret-looking files (real VS Code)', function () {
  this.timeout(60_000);
  let tools: WorkspaceTools;
  let folder: vscode.WorkspaceFolder;
  let cts: vscode.CancellationTokenSource;
  let diagnostics: vscode.DiagnosticCollection;
  /** what the user "answers"; each test sets it */
  let answer: (q: Question) => Promise<boolean> | boolean;
  let asked: Question[];

  const run = (name: string, args: unknown = {}, token = cts.token): Promise<ToolResult> => tools.run(callOf(name, args), token);
  const ok = async (name: string, args: unknown = {}): Promise<string> => {
    const r = await run(name, args);
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed: ${r.content}`);
    return r.content;
  };
  const declined = async (name: string, args: unknown, mustNotContain: string[]): Promise<string> => {
    const r = await run(name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should be declined but returned: ${r.content.slice(0, 300)}`);
    assert.match(r.content, /^The user declined to share "/);
    for (const s of mustNotContain) assert.ok(!r.content.includes(s), `result leaks ${s}: ${r.content}`);
    return r.content;
  };
  // (not deepEqual(asked, []): its type assertion would narrow `asked` to never[] for the rest of a test)
  const noQuestions = () => assert.equal(asked.length, 0, `unexpected questions: ${JSON.stringify(asked)}`);
  const write = async (rel: string, content: string) => {
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder.uri, rel), new TextEncoder().encode(content));
  };

  before(async function () {
    assert.equal(vscode.workspace.isTrusted, true, 'this suite needs a trusted workspace');
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'a workspace folder is open');
    assert.equal(f.uri.scheme, 'file');
    assert.equal(vscode.workspace.workspaceFolders?.length, 1, 'paths below are named as in a single-folder workspace');
    folder = f;

    await write(`${FIX}/.env`, `API_KEY=${ENV_MARKER}\n${SHARED}=from-env\n`);
    await write(`${FIX}/.env.example`, `API_KEY=${TEMPLATE_MARKER}\n${SHARED}=placeholder\n`);
    await write(`${FIX}/certs/Server.KEY`, `-----BEGIN PRIVATE KEY-----\n${KEY_MARKER}\n-----END PRIVATE KEY-----\n`);
    await write(`${FIX}/plain.ts`, `export const name = '${SHARED}';\n`);
    // A link with an innocent name that leads to .env: judged by where it leads too.
    fs.symlinkSync(path.join(folder.uri.fsPath, FIX, '.env'), path.join(folder.uri.fsPath, FIX, 'notes.txt'));
    // The file search must see the new files before search_text can skip them for the right reason.
    await waitFor(async () => (await vscode.workspace.findFiles(new vscode.RelativePattern(folder, `${FIX}/**`))).length >= 5, {
      what: 'the file search lists the fixture files',
      timeoutMs: 15_000,
      intervalMs: 100,
    });

    tools = createWorkspaceTools({
      approveSensitiveRead: async (relPath, request) => {
        const q = { relPath, request };
        asked.push(q);
        return answer(q);
      },
    });
    cts = new vscode.CancellationTokenSource();
    diagnostics = vscode.languages.createDiagnosticCollection('mg-sensitive-test');
  });

  beforeEach(() => {
    asked = [];
    answer = () => assert.fail('no question was expected in this test');
  });

  after(async () => {
    tools?.dispose();
    diagnostics?.dispose();
    cts?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(folder.uri.fsPath, FIX), { recursive: true, force: true });
  });

  describe('read_file', () => {
    it('asks before reading .env, and a "no" returns an error without any of the contents', async () => {
      answer = () => false;
      const text = await declined('read_file', { path: `${FIX}/.env` }, [ENV_MARKER, SHARED, 'API_KEY']);
      assert.match(text, new RegExp(`"${FIX}/\\.env"`));
      assert.deepEqual(asked, [{ relPath: `${FIX}/.env`, request: { tool: 'read_file' } }]);
      // A line range does not get around the question either.
      asked = [];
      await declined('read_file', { path: `${FIX}/.env`, startLine: 1, endLine: 1 }, [ENV_MARKER]);
      assert.equal(asked.length, 1);
    });

    it('returns the contents when the user allows it, and asks again for the next read', async () => {
      answer = () => true;
      assert.equal(await ok('read_file', { path: `${FIX}/.env` }), `${FIX}/.env (lines 1-2 of 2)\nAPI_KEY=${ENV_MARKER}\n${SHARED}=from-env`);
      assert.equal(await ok('read_file', { path: `${FIX}/.env`, startLine: 2 }), `${FIX}/.env (lines 2-2 of 2)\n${SHARED}=from-env`);
      assert.deepEqual(
        asked.map((q) => q.relPath),
        [`${FIX}/.env`, `${FIX}/.env`],
        '"Allow Once" means once',
      );
    });

    it('reads .env.example and ordinary files without asking', async () => {
      assert.match(await ok('read_file', { path: `${FIX}/.env.example` }), new RegExp(`API_KEY=${TEMPLATE_MARKER}`));
      assert.match(await ok('read_file', { path: `${FIX}/plain.ts` }), new RegExp(SHARED));
      noQuestions();
    });

    it('asks for a private key whatever the case of its name', async () => {
      answer = () => false;
      await declined('read_file', { path: `${FIX}/certs/Server.KEY` }, [KEY_MARKER, 'PRIVATE KEY']);
      assert.deepEqual(
        asked.map((q) => q.relPath),
        [`${FIX}/certs/Server.KEY`],
      );
    });

    it('asks for a link with an innocent name that leads to .env, and says where it leads', async () => {
      answer = () => false;
      await declined('read_file', { path: `${FIX}/notes.txt` }, [ENV_MARKER]);
      assert.deepEqual(asked, [{ relPath: `${FIX}/notes.txt`, request: { tool: 'read_file', linkTarget: `${FIX}/.env` } }]);
    });

    it('takes only a strict yes: an approver that throws or answers "yes" declines', async () => {
      answer = () => {
        throw new Error('dialog failed');
      };
      await declined('read_file', { path: `${FIX}/.env` }, [ENV_MARKER, 'dialog failed']);
      answer = () => 'yes' as unknown as boolean;
      await declined('read_file', { path: `${FIX}/.env` }, [ENV_MARKER]);
      assert.equal(asked.length, 2);
    });

    it('does not ask for files it refuses anyway (missing file, folder)', async () => {
      const missing = await run('read_file', { path: `${FIX}/.env.production` });
      assert.equal(missing.isError, true);
      assert.match(missing.content, /does not exist/);
      const dir = await run('read_file', { path: `${FIX}/certs` });
      assert.match(dir.content, /is a folder/);
      noQuestions();
    });
  });

  describe('search_text and list_files', () => {
    it('search_text finds nothing for a string that only occurs in .env, without asking', async () => {
      const text = await ok('search_text', { query: ENV_MARKER });
      assert.match(text, new RegExp(`^No matches for "${ENV_MARKER}"`));
      assert.ok(!text.includes(`API_KEY=${ENV_MARKER}`));
      assert.match(text, /\[Skipped files: [^\]]*\b\d+ that may contain secrets/);
      const regex = await ok('search_text', { query: 'ENV_ONLY_SECRET_\\d+', isRegex: true });
      assert.match(regex, /^No matches/);
      assert.ok(!regex.includes(ENV_MARKER));
      const key = await ok('search_text', { query: KEY_MARKER });
      assert.match(key, /^No matches/);
      noQuestions();
    });

    it('search_text returns matches in ordinary files and .env.example, never in .env or a link to it', async () => {
      const text = await ok('search_text', { query: SHARED, glob: `${FIX}/**` });
      const lines = text.split('\n');
      assert.equal(lines[0], `2 matches for "${SHARED}" in 2 files:`);
      assert.ok(lines.includes(`${FIX}/.env.example:2: ${SHARED}=placeholder`), text);
      assert.ok(lines.includes(`${FIX}/plain.ts:1: export const name = '${SHARED}';`), text);
      assert.ok(!text.includes('from-env'), `leaks .env through some name: ${text}`);
      // .env, certs/Server.KEY and notes.txt (the link to .env) were not read.
      assert.match(text, /\[Skipped files: 3 that may contain secrets/);
      // Naming the file in the glob does not get around it.
      assert.match(await ok('search_text', { query: 'API_KEY', glob: `${FIX}/.env` }), /^No matches/);
      noQuestions();
    });

    it('list_files lists the names of secret-looking files (names are not contents)', async () => {
      const text = await ok('list_files', { path: FIX });
      const lines = text.split('\n');
      for (const p of ['.env', '.env.example', 'certs/Server.KEY', 'notes.txt', 'plain.ts']) assert.ok(lines.includes(`${FIX}/${p}`), `lists ${p}:\n${text}`);
      assert.ok(!text.includes(ENV_MARKER) && !text.includes(KEY_MARKER));
      noQuestions();
    });
  });

  describe('get_selection and get_diagnostics', () => {
    it('get_selection asks when the active editor shows .env', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, `${FIX}/.env`));
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      answer = () => false;
      await declined('get_selection', {}, [ENV_MARKER]);
      assert.deepEqual(asked, [{ relPath: `${FIX}/.env`, request: { tool: 'get_selection' } }]);
      answer = () => true;
      assert.match(await ok('get_selection'), new RegExp(`^${FIX}/\\.env \\(selection: lines 1-1 of 2, [^)]+\\)\\nAPI_KEY=${ENV_MARKER}$`));
      assert.equal(asked.length, 2);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });

    it('get_selection does not ask for an ordinary file', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, `${FIX}/plain.ts`));
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(0, 0, 0, 12);
      assert.match(await ok('get_selection'), /\nexport const$/);
      noQuestions();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });

    it('get_diagnostics leaves secret-looking files out of the workspace report and asks for one by path', async () => {
      const envUri = vscode.Uri.joinPath(folder.uri, `${FIX}/.env`);
      diagnostics.set(envUri, [new vscode.Diagnostic(new vscode.Range(0, 0, 0, 7), `Unexpected value "${DIAG_MARKER}"`, vscode.DiagnosticSeverity.Error)]);
      diagnostics.set(vscode.Uri.joinPath(folder.uri, `${FIX}/plain.ts`), [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 6), 'Ordinary fixture warning', vscode.DiagnosticSeverity.Warning),
      ]);
      try {
        const all = await ok('get_diagnostics', {});
        assert.ok(!all.includes(DIAG_MARKER), `leaks a diagnostic of .env: ${all}`);
        assert.match(all, /Ordinary fixture warning/);
        assert.match(all, /\[Not shown: problems in 1 file that may contain secrets\./);
        noQuestions();

        answer = () => false;
        await declined('get_diagnostics', { path: `${FIX}/.env` }, [DIAG_MARKER]);
        answer = () => true;
        assert.match(await ok('get_diagnostics', { path: `${FIX}/.env` }), new RegExp(DIAG_MARKER));
        assert.deepEqual(
          asked.map((q) => q.request.tool),
          ['get_diagnostics', 'get_diagnostics'],
        );
      } finally {
        diagnostics.clear();
      }
      // Nothing to report: no question needed.
      asked = [];
      assert.equal(await ok('get_diagnostics', { path: `${FIX}/.env` }), `No errors or warnings in ${FIX}/.env.`);
      noQuestions();
    });
  });

  describe('questions, parallel calls and cancellation', () => {
    it('parallel reads of secret-looking files ask one question at a time', async () => {
      let open = 0;
      let mostOpen = 0;
      // Each answer is held until all three questions were asked or a while has passed: with one
      // question at a time the others cannot arrive meanwhile, so `mostOpen` stays 1. (The order and
      // the cancellation of queued questions are unit-tested deterministically: ApprovalQueue.)
      answer = async () => {
        open++;
        mostOpen = Math.max(mostOpen, open);
        const end = Date.now() + 500;
        while (asked.length < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
        open--;
        return true;
      };
      const results = await tools.runAll(
        [
          callOf('read_file', { path: `${FIX}/.env` }),
          callOf('read_file', { path: `${FIX}/certs/Server.KEY` }),
          callOf('read_file', { path: `${FIX}/notes.txt` }),
          callOf('read_file', { path: `${FIX}/plain.ts` }),
        ],
        cts.token,
      );
      assert.deepEqual(
        results.map((r) => r.isError),
        [false, false, false, false],
      );
      assert.match(results[1]!.content, new RegExp(KEY_MARKER));
      assert.equal(asked.length, 3);
      assert.equal(mostOpen, 1);
    });

    it('a call stopped while its question is open returns Cancelled and nothing of the file, even if the user then allows it', async () => {
      let allow!: (v: boolean) => void;
      answer = () => new Promise<boolean>((r) => (allow = r));
      const stop = new vscode.CancellationTokenSource();
      const pending = run('read_file', { path: `${FIX}/.env` }, stop.token);
      await waitFor(() => asked.length > 0, { what: 'the question', timeoutMs: 15_000, intervalMs: 10 });
      assert.equal(asked.length, 1, 'the question was asked');
      stop.cancel();
      const r = await pending;
      allow(true);
      assert.equal(r.isError, true);
      assert.match(r.content, /^Cancelled/);
      assert.ok(!r.content.includes(ENV_MARKER));
      stop.dispose();
    });
  });

  describe('credential files by name and by content', () => {
    const SA_MARKER = 'SA_PRIVATE_KEY_BODY_5771';
    const TF_MARKER = 'TFVARS_PASSWORD_6029';
    const WP_MARKER = 'WP_DB_PASSWORD_8110';
    const PEM_MARKER = 'PEM_IN_NOTES_9413';
    before(async () => {
      await write(
        `${FIX}/creds/service-account.json`,
        JSON.stringify({ type: 'service_account', private_key: `-----BEGIN PRIVATE KEY-----\\n${SA_MARKER}\\n`, client_email: 'a@p.iam.gserviceaccount.com' }),
      );
      await write(`${FIX}/creds/terraform.tfvars`, `db_password = "${TF_MARKER}"\n`);
      await write(`${FIX}/creds/wp-config.php`, `<?php define('DB_PASSWORD', '${WP_MARKER}');\n`);
      // innocent names, secret contents
      await write(`${FIX}/creds/notes.txt`, `deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_MARKER}\n-----END OPENSSH PRIVATE KEY-----\n`);
      await write(`${FIX}/creds/gcp.json`, JSON.stringify({ private_key: SA_MARKER, client_email: 'b@p.iam.gserviceaccount.com' }));
      const end = Date.now() + 15_000;
      while ((await vscode.workspace.findFiles(new vscode.RelativePattern(folder, `${FIX}/creds/**`))).length < 5 && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 100));
      }
    });

    for (const [name, marker] of [
      ['service-account.json', SA_MARKER],
      ['terraform.tfvars', TF_MARKER],
      ['wp-config.php', WP_MARKER],
      ['notes.txt', PEM_MARKER],
      ['gcp.json', SA_MARKER],
    ] as const) {
      it(`read_file asks before returning ${name}`, async () => {
        answer = () => false;
        await declined('read_file', { path: `${FIX}/creds/${name}` }, [marker]);
        assert.deepEqual(
          asked.map((q) => q.relPath),
          [`${FIX}/creds/${name}`],
        );
      });
    }

    it('search_text skips all five without asking', async () => {
      for (const marker of [SA_MARKER, TF_MARKER, WP_MARKER, PEM_MARKER]) {
        const text = await ok('search_text', { query: marker, glob: `${FIX}/creds/**` });
        assert.match(text, new RegExp(`^No matches for "${marker}"`), text);
        assert.match(text, /may contain secrets/);
      }
      noQuestions();
    });
  });
});
