// Smoke test of the web workbench with the packaged extension: the workbench loads, the
// command palette lists Modelgate's commands, and once the extension is active its status bar
// entry shows the chat model.
import * as assert from 'node:assert/strict';
import { useWorkbench } from './workbench';

describe('e2e smoke: Modelgate in the VS Code web workbench', () => {
  const fixture = useWorkbench();

  it('loads the workbench with the workspace folder', async () => {
    const wb = fixture.get();
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).waitFor({ state: 'visible' });
  });

  it("lists 'Modelgate: Set API Key' in the command palette", async () => {
    const labels = await fixture.get().findCommands('Modelgate: Set API Key', { expect: 'Modelgate: Set API Key' });
    assert.ok(labels.includes('Modelgate: Set API Key'), `the palette listed: ${labels.join(' | ')}`);
  });

  it('shows the chat model in the status bar once the extension is active', async () => {
    const wb = fixture.get();
    // The extension activates on its views and commands, not on startup: run a harmless one.
    await wb.runCommand('Modelgate: Show Log');
    await wb.statusBarItem('flagship-text').first().waitFor({ state: 'visible', timeout: 30_000 });
  });
});
