// A gateway that does not serve the built-in default, in the real workbench: once its /models has
// answered, "Modelgate: Pick Chat Model" lists what it serves, and a model the user's settings name is
// still there, marked "not listed by the gateway". Screenshots in the Light and Dark Modern themes:
// test-results/screenshots/served-models-{light,dark}.png. Then Generate Image Here with that
// gateway's one image model, which the user's catalogue gives one size and one image per request:
// no option question is asked, so the price shows in one question of its own, whose default
// spends nothing (image-price-confirm-{dark,light}.png).
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
      settings: {
        'modelgate.baseUrl': gw.baseUrl,
        'modelgate.chat.model': 'flagship-text',
        'modelgate.image.model': 'image-small',
        'modelgate.models': {
          'image-small': { kind: 'image', sizes: ['256x256'], maxN: 1, quality: false, style: false, prices: { standard: { '256x256': 0.016 } } },
        },
        'workbench.colorTheme': 'Default Light Modern',
      },
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

  it('Generate Image Here with nothing to choose: the price in a question whose default spends nothing; dark and light', async () => {
    const shots = join(repoRoot(), 'test-results', 'screenshots');
    const generations = () => fixture.gateway().requests.filter((r) => r.path === '/v1/images/generations').length;
    const before = generations();
    const rows = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light') {
        await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
        await wb.page.locator('.monaco-workbench.vs').waitFor({ state: 'attached', timeout: 60_000 });
      }
      await wb.runCommand('Modelgate: Generate Image Here', { timeoutMs: 120_000 });
      await wb.answerInput('a lighthouse at dusk', { timeoutMs: 30_000 });
      const title = wb.page.locator('.quick-input-widget .quick-input-title');
      await title.filter({ hasText: 'Generate Image: $0.016' }).waitFor({ state: 'visible', timeout: 60_000 });
      const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      assert.match(texts[0] ?? '', /^Don't Generate/, texts.join(' | '));
      assert.match(texts[1] ?? '', /^Generate\b.*\$0\.016/, texts.join(' | '));
      await wb.screenshot(join(shots, `image-price-confirm-${theme}.png`));
      // Enter takes the default: nothing is generated, nothing spent
      await wb.page.keyboard.press('Enter');
      await wb.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
    }
    await wb.page.waitForTimeout(1_000);
    assert.equal(generations(), before, 'no image request reached the gateway');
  });
});
