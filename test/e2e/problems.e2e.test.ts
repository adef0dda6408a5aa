// The diagnostics chip in the real web workbench: a JSON file with a syntax error is open, the
// user clicks "Attach problems", the chip shows in the composer (screenshot), and its remove
// button takes it away again.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';

const KEY = 'sk-e2e-problems-3b90e4';

describe("e2e problems chip: attach the current file's problems", function () {
  this.timeout(240_000);

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: {
      ...gatewaySettings(gw),
      'workbench.colorTheme': 'Default Light Modern',
    },
    workspaceFiles: { 'broken.json': '{\n  "name": "demo",\n  "version": 1,,\n}\n' },
    viewport: { width: 1280, height: 860 },
  }));

  let wb: Workbench;
  let chat: Frame;

  it('shows the chip, which the user can remove', async () => {
    wb = fixture.get();
    // The walkthrough opens at start-up (in the preview slot, taking the focus): let it come first.
    await wb.page
      .locator('.tabs-container .tab', { hasText: 'Welcome' })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 })
      .catch(() => undefined);
    // open the file from the Explorer, as a person does (a double click keeps it open)
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'broken.json' }).first().dblclick({ timeout: 60_000 });
    await wb.page.locator('.tabs-container .tab', { hasText: 'broken.json' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    // the JSON language service marks the error in the editor
    await wb.page.locator('.monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 90_000 });
    chat = await wb.openChat();
    await wb.setKey(KEY);
    const attach = chat.getByRole('button', { name: 'Attach problems', exact: true });
    await attach.waitFor({ state: 'visible', timeout: 30_000 });
    await attach.click();
    const chip = chat.locator('.composer-attachments .chip-diagnostics');
    await chip.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await chip.innerText(), /Problems: broken\.json \(\d+\)/);

    const dir = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    await wb.page.locator('.part.sidebar').screenshot({ path: join(dir, 'problems-chip.png') });

    await chip.getByRole('button', { name: /^Remove attachment Problems: broken\.json/ }).click();
    await chip.waitFor({ state: 'detached', timeout: 10_000 });
  });
});
