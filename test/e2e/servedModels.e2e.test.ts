// A gateway that does not serve the built-in default, in the real workbench: once its /models has
// answered, "Modelgate: Pick Chat Model" lists what it serves, and a model the user's settings name is
// still there, marked "not listed by the gateway". Screenshots in the Light and Dark Modern themes:
// test-results/screenshots/served-models-{light,dark}.png.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { useGatewayWorkbench, type Workbench } from './workbench';

const KEY = 'sk-e2e-served-models-6a02c1';

describe('e2e models the gateway serves: the model picker', function () {
  this.timeout(240_000);
  const fixture = useGatewayWorkbench(
    KEY,
    (gw) => ({
      settings: { 'modelgate.baseUrl': gw.baseUrl, 'modelgate.chat.model': 'flagship-text', 'workbench.colorTheme': 'Default Light Modern' },
      viewport: { width: 1280, height: 860 },
    }),
    { servedModels: ['long-context-tools', 'image-small'] },
  );
  let wb: Workbench;
  before(() => {
    wb = fixture.get();
  });

  it('lists the served model and the user’s own, marked; light and dark', async () => {
    const shots = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(shots, { recursive: true });
    await wb.setKey(KEY);
    const rows = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
        await wb.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 60_000 });
      }
      // the list lands in the background after the key: open the picker until it shows the mark
      let texts: string[] = [];
      for (let i = 0; i < 20; i++) {
        await wb.runCommand('Modelgate: Pick Chat Model');
        await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
        texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
        if (texts.some((t) => /flagship-text.*not listed by the gateway/.test(t))) break;
        await wb.page.keyboard.press('Escape');
        await wb.page.waitForTimeout(500);
      }
      assert.equal(texts.length, 2, texts.join(' | '));
      assert.ok(
        texts.some((t) => /^long-context-tools/.test(t.replace(/^\S*\s/, ''))) || texts.some((t) => t.includes('long-context-tools')),
        texts.join(' | '),
      );
      assert.ok(
        texts.some((t) => /flagship-text.*not listed by the gateway/.test(t)),
        texts.join(' | '),
      );
      await wb.screenshot(join(shots, `served-models-${theme}.png`));
      await wb.page.keyboard.press('Escape');
    }
  });
});
