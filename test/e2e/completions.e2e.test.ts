// Completions as you type in the real web workbench (VS Code 1.139 in headless Chromium), against
// the simulator's completions mode: typing in the sample's src/math.ts shows ghost text in the
// editor and the completions item in the status bar; Tab inserts the ghost text. In Light Modern
// and Dark Modern, at the default side-bar width; screenshots go to test-results/screenshots/
// (completions-light.png, completions-dark.png).
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoModelSettings } from '../gateway/demo-key';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, userSettingsOf, type Workbench } from './workbench';

const KEY = 'sk-e2e-completions-71c2';

function sample(rel: string): string {
  return readFileSync(join(repoRoot(), 'test/demo/sample', rel), 'utf8');
}

describe('e2e completions as you type: ghost text in the web workbench', function () {
  this.timeout(300_000);

  const fixture = useGatewayWorkbench(
    KEY,
    (gw) => ({
      settings: {
        ...gatewaySettings(gw),
        'modelgate.models': demoModelSettings(),
        'modelgate.completions.enabled': true,
        'workbench.colorTheme': 'Light Modern',
      },
      workspaceFiles: { 'src/math.ts': sample('src/math.ts'), 'src/main.ts': sample('src/main.ts'), 'README.md': sample('README.md') },
      viewport: { width: 1280, height: 860 },
    }),
    // the economical channel's first token in a quarter of a second, so the test does not wait for a realistic one
    { channels: { economical: { firstTokenMs: 250, perChunkMs: 20 } } },
  );

  let wb: Workbench;
  const shots = join(repoRoot(), 'test-results', 'screenshots');
  const ghost = () => wb.page.locator('.monaco-editor .ghost-text-decoration, .monaco-editor .ghost-text').first();
  const completionsItem = () => wb.page.locator('.statusbar-item[id$="modelgate.completions"]');

  async function setTheme(label: string, id: string, workbenchClass: string): Promise<void> {
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput(label);
    for (let i = 0; i < 100 && userSettingsOf(wb)?.['workbench.colorTheme'] !== id; i++) await wb.page.waitForTimeout(200);
    await wb.page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ state: 'attached', timeout: 60_000 });
  }

  /** Types a new function's start at the end of math.ts and waits for its ghost text. */
  async function typeForGhostText(start: string): Promise<string> {
    await wb.page.locator('.monaco-editor .view-lines').first().click();
    await wb.page.keyboard.press('Control+End');
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.type(start, { delay: 90 });
    await ghost().waitFor({ state: 'visible', timeout: 30_000 });
    return (await ghost().innerText()).trim();
  }

  before(async () => {
    wb = fixture.get();
    await wb.setKey(KEY);
  });

  it('shows ghost text while typing and the completions item, in Light Modern; Tab inserts it', async () => {
    await wb.quickOpen('math.ts');
    const shown = await typeForGhostText('export function med');
    assert.ok(shown.startsWith('ian('), `ghost text: ${shown}`);
    await completionsItem().waitFor({ state: 'visible', timeout: 10_000 });
    mkdirSync(shots, { recursive: true });
    await wb.page.waitForTimeout(300);
    await wb.screenshot(join(shots, 'completions-light.png'));
    await wb.page.keyboard.press('Tab');
    await wb.page.locator('.monaco-editor .view-lines', { hasText: 'const sorted = [...xs].sort' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await ghost().count(), 0, 'no ghost text left after Tab');
  });

  it('shows ghost text in Dark Modern too', async () => {
    await setTheme('Dark Modern', 'Dark Modern', 'vs-dark');
    await wb.quickOpen('math.ts');
    const shown = await typeForGhostText('export function varia');
    assert.ok(shown.startsWith('nce('), `ghost text: ${shown}`);
    await wb.page.waitForTimeout(300);
    await wb.screenshot(join(shots, 'completions-dark.png'));
    await wb.page.keyboard.press('Escape');
    await wb.page.waitForTimeout(300);
    assert.equal(await ghost().count(), 0, 'Escape dismissed it');
  });
});
