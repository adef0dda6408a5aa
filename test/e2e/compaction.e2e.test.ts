// Compaction in the real web workbench at the default side-bar width: `/compact` typed in the
// message box writes the summary, the "Compacted here" divider stands above the first message
// still sent as it is and opens the summary, and Undo on it takes the divider away. Screenshots of
// the open divider in Light Modern and Dark Modern go to test-results/screenshots/.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, userSettingsOf, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-compaction-3c9f27';

describe('e2e compaction: the divider in the panel', function () {
  this.timeout(300_000);
  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: { ...gatewaySettings(gw), 'workbench.colorTheme': 'Light Modern' },
    viewport: { width: 1280, height: 860 },
  }));
  let wb: Workbench;
  let chat: Frame;
  const shots = join(repoRoot(), 'test-results', 'screenshots');
  const button = (name: string) => chat.getByRole('button', { name, exact: true });
  const answers = () => chat.getByRole('log').getByRole('article', { name: 'Assistant' });

  async function send(text: string, answered = true): Promise<void> {
    const before = await answers().count();
    await fillField(chat.getByRole('textbox', { name: 'Message' }), text);
    await button('Send').click();
    if (answered)
      await answers()
        .nth(before)
        .getByText(/\d prompt/)
        .waitFor({ state: 'visible', timeout: 60_000 });
    await button('Send').waitFor({ state: 'visible', timeout: 60_000 });
  }

  /** Through the Color Theme picker, as a person does; VS Code 1.139 writes "Dark Modern" (older versions "Default Dark Modern"). */
  async function setDarkTheme(): Promise<void> {
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput('Dark Modern');
    const theme = () => String(userSettingsOf(wb)?.['workbench.colorTheme']);
    for (let i = 0; i < 100 && !/^(Default )?Dark Modern$/.test(theme()); i++) await wb.page.waitForTimeout(200);
    assert.match(theme(), /^(Default )?Dark Modern$/);
    await wb.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 60_000 });
    await wb.page.waitForTimeout(1_000);
  }

  before(async () => {
    wb = fixture.get();
    chat = await wb.openChat({ timeoutMs: 120_000 });
    await wb.setKey(KEY);
  });

  it('/compact draws the divider, which opens the summary and offers Undo', async () => {
    await send('How do prefix caches work? [[words:60]]');
    await send('And how long do they live? [[words:40]]');
    await send('Summarise the cost rules. [[words:30]]');
    await send('/compact keep the cache rules', false);
    const divider = chat.locator('.compaction-divider');
    await divider.waitFor({ state: 'visible', timeout: 60_000 });
    // it stands right before the first message still sent verbatim (the latest request)
    const next = await divider.evaluate((el) => el.nextElementSibling?.getAttribute('aria-label'));
    assert.equal(next, 'You');
    await divider.locator('summary').click();
    await chat.locator('.compaction-summary').waitFor({ state: 'visible', timeout: 10_000 });
    mkdirSync(shots, { recursive: true });
    const sidebar = wb.page.locator('.part.sidebar');
    const width = await sidebar.evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(Math.abs(width - 290) < 30, `the default side-bar width (${width})`);
    await sidebar.screenshot({ path: join(shots, 'compaction-light.png') });
    await setDarkTheme();
    await sidebar.screenshot({ path: join(shots, 'compaction-dark.png') });
    await divider.getByRole('button', { name: 'Undo compaction' }).click();
    await divider.waitFor({ state: 'detached', timeout: 10_000 });
  });
});
