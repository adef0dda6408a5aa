// The panel at the default side-bar width (290 px), in the real workbench, in a light and a dark
// theme: a conversation with a stopped answer keeps the header on one row (the cost badge short,
// whole in its tooltip); while an answer runs, Stop takes Send's place and the model chip reads
// the whole name, with the reasoning effort of a model that thinks beside the channel; the
// context meter's tooltip says the window's size. Screenshots go to test-results/screenshots/
// (narrow-running-<theme>.png, narrow-stopped-<theme>.png).
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { PRICE_CARD } from '../gateway/prices';
import { repoRoot } from '../harness/paths';
import { useGatewayWorkbench, userSettingsOf, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-narrow-3f81c2';

const THEMES = [
  { id: 'Light Modern', label: 'Light Modern', shot: 'light', body: 'vscode-light' },
  { id: 'Dark Modern', label: 'Dark Modern', shot: 'dark', body: 'vscode-dark' },
] as const;

describe('e2e narrow panel (290 px): header, model chip and context meter in a light and a dark theme', function () {
  this.timeout(300_000);
  // paced chunks, so an answer is seen running
  const fixture = useGatewayWorkbench(
    KEY,
    (gw) => ({
      settings: {
        'modelgate.baseUrl': gw.baseUrl,
        // flagship-text priced; the thinking model has an effort and no price
        'modelgate.models': { 'flagship-text': { prices: { default: PRICE_CARD.chat['flagship-text']!.stable } }, reasoner: { reasoningEffort: 'high' } },
        'workbench.colorTheme': THEMES[0].id,
      },
      viewport: { width: 1280, height: 860 },
    }),
    { channels: { stable: { firstTokenMs: 300, perChunkMs: 400 } } },
  );

  let wb: Workbench;
  let chat: Frame;
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const button = (name: string) => chat.getByRole('button', { name, exact: true });

  async function screenshot(file: string): Promise<void> {
    const dir = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    await wb.page.locator('.part.sidebar').screenshot({ path: join(dir, file) });
  }

  async function sidebarWidth(width: number): Promise<void> {
    const sidebar = wb.page.locator('.part.sidebar');
    for (let attempt = 0; attempt < 3; attempt++) {
      const box = (await sidebar.boundingBox())!;
      if (Math.abs(box.width - width) <= 1) return;
      await wb.page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
      await wb.page.mouse.down();
      await wb.page.mouse.move(box.x + width + 1, box.y + box.height / 2, { steps: 8 });
      await wb.page.mouse.up();
    }
    const box = (await sidebar.boundingBox())!;
    assert.ok(Math.abs(box.width - width) <= 2, `the side bar is ${box.width} px wide, not ${width}`);
  }

  async function pickModel(id: string): Promise<void> {
    await wb.runCommand('Modelgate: Pick Chat Model');
    await wb.answerInput(id);
    await chat.waitForFunction((m) => document.querySelector('.model-button')?.getAttribute('aria-label')?.startsWith(`Model ${m},`), id, {
      timeout: 30_000,
      polling: 100,
    });
  }

  /** What the header, the chip and the meter show, measured in the page. */
  const layout = () =>
    chat.evaluate(() => {
      const rect = (el: Element | null) => el?.getBoundingClientRect();
      const header = document.querySelector('.chat-header')!;
      const kids = [...header.children].filter((c) => (c as HTMLElement).offsetParent !== null && !(c as HTMLElement).hidden);
      // rows: the children's vertical centres, a new row wherever two differ by more than 10 px
      const centres = kids.map((c) => rect(c)!.top + rect(c)!.height / 2).sort((a, b) => a - b);
      const rows = centres.filter((c, i) => i === 0 || c - centres[i - 1]! > 10).length;
      const chip = document.querySelector<HTMLElement>('.model-button')!;
      const name = chip.querySelector<HTMLElement>('.model-name')!;
      const effort = chip.querySelector<HTMLElement>('.model-effort-text');
      const bar = chip.parentElement!.getBoundingClientRect();
      const r = chip.getBoundingClientRect();
      const total = document.querySelector<HTMLElement>('.total-cost')!;
      const meter = document.querySelector<HTMLElement>('.context-meter')!;
      return {
        width: innerWidth,
        // one row: every shown child of the header centred on the same line
        headerRows: rows,
        headerHeight: rect(header)!.height,
        total: { text: total.textContent ?? '', title: total.title, whole: total.scrollWidth <= total.clientWidth + 1 },
        chip: {
          name: name.textContent ?? '',
          nameFits: name.scrollWidth <= name.clientWidth,
          fits: chip.scrollWidth <= chip.clientWidth && r.left >= bar.left - 1 && r.right <= bar.right + 1,
          effort: effort && effort.getClientRects().length ? (effort.textContent ?? '') : '',
          effortFits: !!effort && effort.scrollWidth <= effort.clientWidth && effort.getBoundingClientRect().right <= r.right + 1,
          label: chip.getAttribute('aria-label') ?? '',
        },
        send: !!document.querySelector('.send-button') && document.querySelector<HTMLElement>('.send-button')!.offsetParent !== null,
        stop: !!document.querySelector('.stop-button') && document.querySelector<HTMLElement>('.stop-button')!.offsetParent !== null,
        meterTitle: meter.title,
      };
    });

  before(async () => {
    wb = fixture.get();
    chat = await wb.openChat();
    await wb.setKey(KEY);
    await sidebarWidth(290);
    await chat.waitForFunction(() => innerWidth <= 300, undefined, { timeout: 30_000, polling: 100 });
  });

  for (const theme of THEMES) {
    it(`${theme.id}: a running answer shows the whole model name with its effort; a stopped one leaves the header on one row; the meter says the window`, async () => {
      if (theme !== THEMES[0]) {
        await wb.runCommand('Preferences: Color Theme');
        await wb.answerInput(theme.label);
        for (let i = 0; i < 100 && userSettingsOf(wb)?.['workbench.colorTheme'] !== theme.id; i++) await wb.page.waitForTimeout(200);
        await chat.waitForFunction((cls) => document.body.classList.contains(cls), theme.body, { timeout: 30_000, polling: 100 });
        await wb.runCommand('Modelgate: New Chat');
        await chat.waitForFunction(() => !document.querySelector('article'), undefined, { timeout: 30_000, polling: 100 });
      }
      // a priced answer first, so the total has a figure: a short one (every chunk comes 400 ms
      // apart, so that the next answer is seen running; the default answer took 15 s of them)
      await pickModel('flagship-text');
      await fillField(message(), 'Hello [[words:3]]');
      await button('Send').click();
      await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
      await chat.waitForFunction(() => /^\$\d/.test(document.querySelector('.total-cost')?.textContent ?? ''), undefined, { timeout: 30_000, polling: 100 });

      // then a thinking model, stopped while it runs
      await pickModel('reasoner');
      await fillField(message(), 'Explain the workspace in detail [[reasoning:passback]]');
      await button('Send').click();
      await button('Stop').waitFor({ state: 'visible', timeout: 30_000 });
      const running = await layout();
      const at = `${theme.id}, running: ${JSON.stringify(running)}`;
      assert.ok(running.width <= 300, at);
      assert.equal(running.stop, true, at);
      assert.equal(running.send, false, `Stop takes Send's place (${at})`);
      assert.equal(running.chip.name, 'reasoner', `the model name reads whole while the answer runs (${at})`);
      assert.ok(running.chip.nameFits && running.chip.fits, `the chip is cut (${at})`);
      assert.equal(running.chip.effort, 'high', `the effort shows beside the channel (${at})`);
      assert.ok(running.chip.effortFits, `the effort is cut (${at})`);
      assert.match(running.chip.label, /reasoning effort high$/, at);
      await screenshot(`narrow-running-${theme.shot}.png`);

      await button('Stop').click();
      await button('Send').waitFor({ state: 'visible', timeout: 30_000 });
      await chat.waitForFunction(() => /^≥ \$\d/.test(document.querySelector('.total-cost')?.textContent ?? ''), undefined, { timeout: 30_000, polling: 100 });
      const stopped = await layout();
      const at2 = `${theme.id}, stopped: ${JSON.stringify(stopped)}`;
      assert.equal(stopped.headerRows, 1, `the header is on one row (${at2})`);
      assert.ok(stopped.total.whole, `the total is cut (${at2})`);
      assert.match(stopped.total.title, /\+ 1 answer without a price/, `the tooltip says it whole (${at2})`);
      assert.match(stopped.meterTitle, /of [\d,]+ tokens \(.*\), the context window of reasoner\./, `the meter's tooltip says the window's size (${at2})`);
      await screenshot(`narrow-stopped-${theme.shot}.png`);
    });
  }
});
