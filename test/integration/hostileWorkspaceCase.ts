// Suite 4 "hostile workspace" (issue 10): a repository's .vscode/settings.json sets every
// Modelgate setting to an attacker's value, in the plain (`"modelgate.x"`), nested
// (`"modelgate": {x}`) and language-scoped (`"[markdown]": {...}`) forms, with the base URL
// pointing at the attacker's capture server (a second loopback HTTP server). Run trusted
// (hostileWorkspace.test.ts) and in Restricted Mode (hostileWorkspace.untrusted.test.ts): the key
// never reaches the capture server, and the model, channel, tool rounds, timeout and catalogue
// stay the user's own. Not a suite itself (index.ts loads *.test.js only).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelgateApi } from '../../src/extension';
import { startGateway, type RunningGateway } from '../gateway/index';
import { until } from './helpers';
import { hostileSettings } from '../harness/hostileSettings';

export function hostileWorkspaceSuite(trusted: boolean): void {
  const KEY = trusted ? 'sk-hostile-ws-7c4e19b2d0' : 'sk-hostile-ws-u-3a8f62c1e5';
  describe(`hostile workspace settings (${trusted ? 'trusted' : 'Restricted Mode'}, real VS Code)`, function () {
    this.timeout(90_000);
    let gw: RunningGateway;
    let api: ModelgateApi;
    let capture: http.Server;
    let captureUrl: string;
    const captured: { url: string; auth: string; body: string }[] = [];
    let settingsFile: string;
    let previous: string | undefined;
    const config = () => vscode.workspace.getConfiguration('modelgate');

    before(async function () {
      gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
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

      // The user's own, cheap choices.
      await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
      await config().update('chat.model', 'flagship-text', vscode.ConfigurationTarget.Global);
      await config().update('channel', 'economical', vscode.ConfigurationTarget.Global);
      await config().update('chat.maxToolRounds', 1, vscode.ConfigurationTarget.Global);
      const ext = vscode.extensions.getExtension<ModelgateApi>('modelgate.modelgate');
      assert.ok(ext);
      api = await ext.activate();
      await until(() => api.settings().baseUrl === gw.baseUrl && api.settings().maxToolRounds === 1, 'user settings applied');
      await vscode.commands.executeCommand('modelgate.setApiKey', KEY);

      // The attacker's repository settings, every setting in every form (test/harness/hostileSettings.ts).
      const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      settingsFile = path.join(ws, '.vscode', 'settings.json');
      previous = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
      fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
      fs.writeFileSync(settingsFile, JSON.stringify(hostileSettings(captureUrl, { 'editor.tabSize': 7 }), null, 2));
      // VS Code has read the file once its harmless neighbour shows up
      await until(() => vscode.workspace.getConfiguration('editor').inspect('tabSize')?.workspaceValue === 7, 'the workspace settings file was read');
      await new Promise((r) => setTimeout(r, 500)); // let the extension's settings listener run
    });

    after(async () => {
      await api?.chat.controller.whenIdle();
      if (previous === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, previous);
      for (const k of ['baseUrl', 'chat.model', 'channel', 'chat.maxToolRounds']) await config().update(k, undefined, vscode.ConfigurationTarget.Global);
      await gw?.close();
      await new Promise((r) => capture?.close(r));
    });

    it('reads the base URL, models, channel, tool rounds and timeout from user settings only', () => {
      const s = api.settings();
      assert.equal(s.baseUrl, gw.baseUrl);
      assert.equal(s.chatModel, 'flagship-text');
      assert.equal(s.channel, 'economical');
      assert.equal(s.imageModel, 'image-restricted');
      assert.equal(s.maxToolRounds, 1);
      assert.equal(s.requestTimeoutMs, 60_000);
      assert.deepEqual(s.modelOverrides, {});
    });

    it('a chat with a tool-calling answer costs what the user allowed, and the key never reaches the capture server', async () => {
      const chat = api.chat.controller;
      await chat.newChat();
      const start = gw.requests.length;
      await chat.send('List it [[call:list_files {"path":"."}]]');
      await chat.whenIdle();
      const requests = gw.requests.slice(start).filter((r) => r.path.endsWith('/chat/completions'));
      assert.ok(requests.length >= 1);
      // one tool round at most (the user's 1), not the attacker's 50
      assert.ok(requests.length <= 2, `requests: ${requests.length}`);
      for (const r of requests) {
        const body = r.body as { model: string; provider?: { channel: string } };
        assert.equal(body.model, 'flagship-text');
        assert.deepEqual(body.provider, { channel: 'economical' });
      }
      assert.deepEqual(captured, [], 'nothing reached the attacker');
    });
  });
}
