// Hostile workspace (docs/reliability.md, category 4), the `.code-workspace` half: the integration
// suites put the attacker's values in .vscode/settings.json of an opened folder; here they are in
// the `settings` of a `.code-workspace` file, opened as a multi-root workspace
// (`/?workspace=<file>` in the web workbench), trusted and in Restricted Mode. Every Modelgate
// setting is set in the plain (`"modelgate.x"`), nested (`"modelgate": {x}`) and language-scoped
// (`"[markdown]"`, `"[plaintext]": {"modelgate": ...}`) forms, with the base URL pointing at the
// attacker's capture server. The workspace file also sets a dark theme over the user's light one:
// the workbench turning dark proves VS Code read the file's settings. Then the key is set and a
// chat with a tool-calling answer runs: nothing reaches the capture server (not even the key
// check), and every request uses the user's model, channel and tool-round limit.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame } from 'playwright-core';
import { DEFAULT_WORKSPACE_FILES } from '../harness/code-server';
import { startGateway, type RunningGateway } from '../gateway/index';
import { useWorkbench, type Workbench } from './workbench';
import { hostileSettings } from '../harness/hostileSettings';
import { fillField } from './typing';

const WORKSPACE_FILE = 'hostile.code-workspace';

function hostileWorkspaceFileSuite(trusted: boolean): void {
  const KEY = trusted ? 'sk-hostile-wsfile-5b2d8e41' : 'sk-hostile-wsfile-u-9c7a13f0';
  describe(`e2e hostile .code-workspace settings (${trusted ? 'trusted' : 'Restricted Mode'})`, function () {
    this.timeout(300_000);
    let gw: RunningGateway;
    let capture: http.Server;
    let captureUrl = '';
    const captured: { url: string; auth: string }[] = [];

    before(async () => {
      gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
      capture = http.createServer((req, res) => {
        captured.push({ url: req.url ?? '', auth: String(req.headers.authorization ?? '') });
        req.resume();
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ data: [] }));
      });
      await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
      captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/v1`;
    });

    const fixture = useWorkbench(() => {
      const workspaceFile = {
        folders: [{ path: '.' }],
        settings: hostileSettings(captureUrl, { 'workbench.colorTheme': 'Default Dark Modern' }),
      };
      return {
        trustWorkspace: trusted,
        settings: {
          'workbench.colorTheme': 'Default Light Modern',
          'modelgate.baseUrl': gw.baseUrl,
          'modelgate.chat.model': 'flagship-text',
          'modelgate.channel': 'economical',
          'modelgate.chat.maxToolRounds': 1,
        },
        workspaceFiles: { ...DEFAULT_WORKSPACE_FILES, [WORKSPACE_FILE]: JSON.stringify(workspaceFile, null, 2) },
        // the window opens the .code-workspace file (`/?workspace=`), not the folder
        workspaceFile: WORKSPACE_FILE,
      };
    });

    after(async () => {
      await gw?.close();
      await new Promise((r) => capture?.close(r));
    });

    let wb: Workbench;
    let chat: Frame;
    const button = (name: string) => chat.getByRole('button', { name, exact: true });
    before(() => {
      wb = fixture.get();
    });

    it('opens the .code-workspace file, and VS Code applies its settings (its dark theme shows)', async () => {
      // The user's theme is light: dark is the workspace file's.
      await wb.page.waitForFunction(() => document.title.includes('(Workspace)'), undefined, { timeout: 60_000, polling: 100 });
      await wb.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 60_000 });
      console.log(`[hostile .code-workspace] window title: ${await wb.page.title()}`);
    });

    it("the key goes to the user's gateway only, and a chat costs what the user allowed", async () => {
      await wb.runCommand('Modelgate: Open Chat');
      chat = await wb.webviewFrame('[role="log"]', { timeoutMs: 90_000 });
      await wb.setKey(KEY);
      const start = gw.requests.length;
      const text = trusted ? 'List it [[call:list_files {"path":"."}]] [[rounds:5]]' : 'Tell me [[words:6]]';
      await fillField(chat.getByRole('textbox', { name: 'Message' }), text);
      await button('Send').click();
      await chat.getByRole('log').getByRole('article', { name: 'Assistant' }).first().waitFor({ state: 'attached', timeout: 60_000 });
      await button('Stop').waitFor({ state: 'hidden', timeout: 90_000 });
      const requests = gw.requests.slice(start).filter((r) => r.path.endsWith('/chat/completions'));
      assert.ok(requests.length >= 1, "the chat reached the user's gateway");
      // one tool round at most (the user's 1), not the attacker's 50
      assert.ok(requests.length <= 2, `requests: ${requests.length}`);
      for (const r of requests) {
        const body = r.body as { model: string; provider?: { channel: string } };
        assert.equal(body.model, 'flagship-text');
        assert.deepEqual(body.provider, { channel: 'economical' });
        assert.equal(r.headers.authorization, `Bearer ${KEY}`);
      }
      console.log(`[hostile .code-workspace] ${requests.length} chat request(s) to the user's gateway; capture server got ${captured.length}`);
      assert.deepEqual(captured, [], "nothing reached the attacker's server");
    });
  });
}

hostileWorkspaceFileSuite(true);
hostileWorkspaceFileSuite(false);
