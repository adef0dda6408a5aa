// Hostile workspace (docs/reliability.md, category 4): a repository's .vscode/settings.json sets every
// Modelgate setting to an attacker's value, in the plain (`"modelgate.x"`), nested
// (`"modelgate": {x}`) and language-scoped (`"[markdown]": {...}`) forms, with the base URL
// pointing at the attacker's capture server (a second loopback HTTP server). Run trusted
// (hostileWorkspace.test.ts) and in Restricted Mode (hostileWorkspace.untrusted.test.ts): the key
// never reaches the capture server, and the model, channel, tool rounds, timeout, catalogue and
// the tools from VS Code switched on stay the user's own. Not a suite itself (index.ts loads *.test.js only).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { until, useModelgate } from './helpers';
import { hostileSettings } from '../harness/hostileSettings';

export function hostileWorkspaceSuite(trusted: boolean): void {
  const KEY = trusted ? 'sk-hostile-ws-7c4e19b2d0' : 'sk-hostile-ws-u-3a8f62c1e5';
  describe(`hostile workspace settings (${trusted ? 'trusted' : 'Restricted Mode'}, real VS Code)`, function () {
    this.timeout(90_000);
    // The user's own, cheap choices.
    const mg = useModelgate({
      gateway: { keys: { [KEY]: { balance: 100 } } },
      settings: { 'chat.model': 'flagship-text', channel: 'economical', 'chat.maxToolRounds': 1 },
      ready: (api) => api.settings().maxToolRounds === 1,
      key: KEY,
    });
    let capture: http.Server;
    let captureUrl: string;
    const captured: { url: string; auth: string; body: string }[] = [];
    let settingsFile: string;
    let previous: string | undefined;

    before(async function () {
      capture = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          captured.push({ url: req.url ?? '', auth: String(req.headers.authorization ?? ''), body });
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ data: [] }));
        });
      });
      await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
      captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/v1`;

      // The attacker's repository settings, every setting in every form (test/harness/hostileSettings.ts).
      const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      settingsFile = path.join(ws, '.vscode', 'settings.json');
      previous = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      // VS Code has read the file once its harmless neighbour shows up; the extension's settings
      // listener ran in the same dispatch of the configuration change as this one.
      let read = false;
      const listener = vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('editor.tabSize') && vscode.workspace.getConfiguration('editor').inspect('tabSize')?.workspaceValue === 7) read = true;
      });
      try {
        fs.writeFileSync(settingsFile, JSON.stringify(hostileSettings(captureUrl, { 'editor.tabSize': 7 }), null, 2));
        await until(() => read, 'the workspace settings file was read (its configuration change dispatched)');
      } finally {
        listener.dispose();
      }
    });

    after(async () => {
      if (previous === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, previous);
      await new Promise((r) => capture?.close(r));
    });

    it('reads the base URL, models, channel, tool rounds and timeout from user settings only', () => {
      const s = mg.api.settings();
      assert.equal(s.baseUrl, mg.gw.baseUrl);
      assert.equal(s.chatModel, 'flagship-text');
      assert.equal(s.channel, 'economical');
      assert.equal(s.imageModel, 'image-restricted');
      assert.equal(s.maxToolRounds, 1);
      assert.equal(s.requestTimeoutMs, 60_000);
      assert.deepEqual(s.modelOverrides, {});
      assert.deepEqual(s.vscodeTools, [], 'no tool from VS Code is switched on by the workspace');
    });

    it('a chat with a tool-calling answer costs what the user allowed, and the key never reaches the capture server', async () => {
      const chat = mg.api.chat.controller;
      await chat.newChat();
      const start = mg.gw.requests.length;
      await chat.send('List it [[call:list_files {"path":"."}]]');
      await chat.whenIdle();
      const requests = mg.gw.requests.slice(start).filter((r) => r.path.endsWith('/chat/completions'));
      assert.ok(requests.length >= 1);
      // one tool round at most (the user's 1), not the attacker's 50
      assert.ok(requests.length <= 2, `requests: ${requests.length}`);
      for (const r of requests) {
        const body = r.body as { model: string; provider?: { channel: string }; tools?: { function: { name: string } }[] };
        assert.equal(body.model, 'flagship-text');
        assert.deepEqual(body.provider, { channel: 'economical' });
        const tools = (body.tools ?? []).map((t) => t.function.name);
        assert.ok(!tools.includes('mgtest_throws') && !tools.includes('vscode_read_file'), `no tool the workspace switched on is offered: ${tools.join(', ')}`);
      }
      assert.deepEqual(captured, [], 'nothing reached the attacker');
    });
  });
}
