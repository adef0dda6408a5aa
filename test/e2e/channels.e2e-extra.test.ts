// The channel picker as the user sees it: after a few answers on `direct`,
// "Modelgate: Pick Channel" shows each channel's whole price and the health measured from
// those answers. Screenshot: test-results/screenshots/channel-picker.png.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway/index';
import { repoRoot } from '../harness/paths';
import { useWorkbench, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-channels-40b7e1';
const card = PRICE_CARD.chat['flagship-text']!;

describe('e2e channels: the channel picker shows price and measured health', function () {
  this.timeout(240_000);
  let gw: RunningGateway;

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 100 } }, channels: { direct: { firstTokenMs: 300, perChunkMs: 20 } } });
  });

  const fixture = useWorkbench(() => ({
    settings: {
      'modelgate.baseUrl': gw.baseUrl,
      'modelgate.channel': 'direct',
      'modelgate.models': { 'flagship-text': { prices: { default: card.stable, ...card } } },
      'workbench.colorTheme': 'Default Dark Modern',
    },
    viewport: { width: 1280, height: 860 },
  }));

  after(async () => {
    await gw?.close();
  });

  let wb: Workbench;
  before(() => {
    wb = fixture.get();
  });

  it('lists each channel with its whole price and the measured figures', async () => {
    await wb.runCommand('Modelgate: Set API Key');
    await wb.answerInput(KEY);
    await wb.runCommand('Modelgate: Open Chat');
    const chat: Frame = await wb.webviewFrame('[role="log"]', { timeoutMs: 60_000 });
    for (const [i, text] of ['[[words:40]] first', '[[words:40]] second'].entries()) {
      await fillField(chat.getByRole('textbox', { name: 'Message' }), text);
      await chat.getByRole('button', { name: 'Send', exact: true }).click();
      // finished: its usage line is there (the Stop button may not have shown yet)
      await chat.locator('.message-usage', { hasText: 'completion' }).nth(i).waitFor({ state: 'visible', timeout: 60_000 });
    }
    await wb.runCommand('Modelgate: Pick Channel');
    const rowLocator = wb.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rowLocator.filter({ hasText: 'Economical' }).first().waitFor({ state: 'visible', timeout: 20_000 });
    const rows = (await rowLocator.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    const direct = rows.find((r) => r.includes('Direct')) ?? '';
    assert.match(
      direct,
      new RegExp(`\\$${card.direct.input} / \\$${card.direct.output} per 1M · p50 first token [\\d.]+ m?s · [\\d.]+ tok/s · 0 errors in 2`),
      rows.join(' | '),
    );
    assert.match(rows.find((r) => r.includes('Economical')) ?? '', /per 1M · not measured yet/);
    // the price is never cut off: the element that holds it is as wide as its text
    const cut = await wb.page.evaluate(() =>
      [...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row *')]
        .filter((e) => e.children.length === 0 && (e.textContent ?? '').includes('per 1M'))
        .filter((e) => (e as HTMLElement).scrollWidth > (e as HTMLElement).clientWidth + 1)
        .map((e) => e.textContent),
    );
    assert.deepEqual(cut, [], 'no price line is cut off');
    await wb.screenshot(join(repoRoot(), 'test-results', 'screenshots', 'channel-picker.png'));
    await wb.page.keyboard.press('Escape');
  });
});
