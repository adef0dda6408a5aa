// Budgets and the spending view in the real web workbench (VS Code 1.139 in headless Chromium):
// with a tiny daily budget, the second chat send opens the budget question (a modal with
// "Send Once" and "Raise Budget"); Cancel sends nothing and leaves the text in the input. Then
// "Modelgate: Show Spending" draws the last 30 days, the conversations and today's total. Then, in the same workbench: the Pricing column of
// VS Code's "Chat: Manage Language Models" filled from the simulator's (the demo's) price card, the
// Modelgate walkthrough at the default side-bar width with no step text clipped (measured in the
// DOM, Light and Dark), the spending page in a half-width editor (each cell one line, nothing
// sideways, measured), and the spending page in Dark and High Contrast (Export CSV… keeps a
// visible border). Screenshots go to test-results/screenshots/.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { demoModelSettings } from '../gateway/demo-key';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, userSettingsOf, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-spend-3f9a01';

describe('e2e spending: budget question and Show Spending in the web workbench', function () {
  this.timeout(240_000);

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: {
      ...gatewaySettings(gw),
      // the demo's price card: every chat model priced on every channel
      'modelgate.models': demoModelSettings(),
      'modelgate.budget.dailyUsd': 0.0001,
      'workbench.colorTheme': 'Light Modern', // the theme's id in VS Code 1.139
    },
    viewport: { width: 1280, height: 860 },
  }));

  const gw = () => fixture.gateway();

  let wb: Workbench;
  let chat: Frame;
  const shots = join(repoRoot(), 'test-results', 'screenshots');
  const chatRequests = () => gw().requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions')).length;

  /** Switches the theme through the Color Theme picker (it writes the user setting), as a person does. */
  async function setTheme(label: string, id: string, workbenchClass: string): Promise<void> {
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput(label);
    const current = () => userSettingsOf(wb)?.['workbench.colorTheme'];
    for (let i = 0; i < 100 && current() !== id; i++) await wb.page.waitForTimeout(200);
    assert.equal(current(), id, 'the Color Theme picker wrote the user setting');
    await wb.page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ state: 'attached', timeout: 60_000 });
    await themeShows(workbenchClass === 'vs' ? 'light' : 'dark');
  }

  /** Waits until the workbench is painted in a light or dark theme (the side bar's background), not only classed so. */
  async function themeShows(kind: 'light' | 'dark'): Promise<void> {
    const state = () =>
      wb.page.evaluate(() => {
        const m = /rgba?\(([^)]+)\)/.exec(getComputedStyle(document.querySelector('.part.sidebar')!).backgroundColor)?.[1] ?? '0 0 0';
        const [r, g, b] = m.split(/[\s,/]+/).map(Number) as [number, number, number];
        return {
          luminance: (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255,
          classes: [...document.querySelectorAll('.monaco-workbench')].map((e) => e.className),
        };
      });
    let seen = await state();
    for (let i = 0; i < 100 && (kind === 'light' ? seen.luminance < 0.6 : seen.luminance > 0.4); i++) {
      await wb.page.waitForTimeout(200);
      seen = await state();
    }
    assert.ok(kind === 'light' ? seen.luminance >= 0.6 : seen.luminance <= 0.4, `the workbench is not painted ${kind}: ${JSON.stringify(seen)}`);
  }

  before(async () => {
    wb = fixture.get();
    chat = await wb.openChat();
    await wb.setKey(KEY);
  });

  it('asks before a send once the daily budget is used up; Cancel keeps the text and sends nothing', async () => {
    const message = chat.getByRole('textbox', { name: 'Message' });

    await fillField(message, 'hello [[words:40]]');
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    await chat.getByRole('article', { name: 'Assistant' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await chat.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'hidden', timeout: 60_000 });
    // The answer's article shows before its request reaches the gateway: count once it has.
    for (let i = 0; i < 100 && chatRequests() === 0; i++) await wb.page.waitForTimeout(100);
    assert.ok(chatRequests() >= 1, 'the first question reached the gateway');
    const sent = chatRequests();

    await fillField(message, 'a second question');
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /Daily budget of \$0\.0001 \(modelgate\.budget\.dailyUsd\) reached/);
    assert.match(text, /Send Once/);
    assert.match(text, /Raise Budget/);
    mkdirSync(shots, { recursive: true });
    await wb.page.screenshot({ path: join(shots, 'budget-question.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await chat.waitForFunction(() => (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === 'a second question', undefined, {
      timeout: 10_000,
      polling: 100,
    });
    assert.equal(
      chatRequests(),
      sent,
      `nothing was sent: ${JSON.stringify(
        gw()
          .requests.filter((r) => r.path.endsWith('/chat/completions'))
          .map((r) => (r.body as { messages?: { content?: unknown }[] }).messages?.at(-1)?.content),
      )}`,
    );
  });

  it("Show Spending draws today's total, by model and source, with bars", async () => {
    await wb.runCommand('Modelgate: Show Spending');
    const page = await wb.webviewFrame('#today', { timeoutMs: 60_000 });
    const total = await page.locator('#today .total').innerText();
    assert.match(total, /^\$\d/);
    const today = await page.locator('#today').innerText();
    assert.match(today, /flagship-text/);
    assert.match(today, /chat panel/);
    assert.ok((await page.locator('#today svg rect').count()) > 0, 'bars drawn');
    assert.match(await page.locator('#budgets').innerText(), /Daily budget .* reached/);
    // the last 30 days, a bar per day, and the conversation the first question started
    assert.equal(await page.locator('#days svg rect').count(), 30);
    assert.match(await page.locator('#days h2').innerText(), /^Last 30 days: \$\d/);
    const conversations = await page.locator('#conversations').innerText();
    assert.match(conversations, /hello/, conversations);
    assert.match(conversations, /\d+% cached/);
    const chart = await page.locator('#days svg').boundingBox();
    assert.ok(chart && chart.width > 200 && chart.height >= 40, `the chart is drawn: ${JSON.stringify(chart)}`);
    await wb.page.screenshot({ path: join(shots, 'spending.png') });
  });

  it('Show Spending in a half-width editor: every table cell on one line, nothing wider than the page', async () => {
    // a laptop-sized window (1000 px), the side bar as it is, and an empty editor group beside the
    // page: it keeps half the editor area, about 320 px
    const size = wb.page.viewportSize()!;
    await wb.page.setViewportSize({ width: 1000, height: size.height });
    await wb.runCommand('Modelgate: Show Spending');
    await wb.webviewFrame('#today', { timeoutMs: 60_000 });
    await wb.runCommand('View: New Editor Group to the Right');
    try {
      const measure = async () =>
        (await wb.webviewFrame('#today', { timeoutMs: 30_000 })).evaluate(() => {
          // the lines a cell's text takes: the distinct tops of its text's line boxes
          const lines = (el: Element) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
          };
          const cells = [...document.querySelectorAll<HTMLElement>('table td:not(.bar-cell)')].filter((td) => td.getClientRects().length);
          const root = document.scrollingElement ?? document.documentElement;
          return {
            width: innerWidth,
            cells: cells.length,
            wrapped: cells
              .filter((td) => lines(td) > 1)
              .map((td) => `${td.textContent ?? ''} (${lines(td)} lines, ${Math.round(td.getBoundingClientRect().height)} px)`),
            rowHeights: [...new Set([...document.querySelectorAll('table tr')].map((tr) => Math.round(tr.getBoundingClientRect().height)))],
            overflow: root.scrollWidth - root.clientWidth,
            wide: [...document.querySelectorAll('table, h2, p')].filter((el) => el.getBoundingClientRect().right > innerWidth + 1).map((el) => el.tagName),
          };
        });
      // the page's frame is laid out again after the split: measure once it is half width
      let m = await measure();
      for (let i = 0; i < 50 && m.width > 500; i++) {
        await new Promise((r) => setTimeout(r, 200));
        m = await measure();
      }
      const at = JSON.stringify(m);
      assert.ok(m.width > 250 && m.width <= 500, `the spending page is half the editor area: ${at}`);
      assert.ok(m.cells >= 6, `the tables were measured: ${at}`);
      assert.deepEqual(m.wrapped, [], `cells wrapped at ${m.width} px: ${at}`);
      assert.equal(m.rowHeights.length, 1, `every row has the height of one line: ${at}`);
      assert.ok(m.overflow <= 0, `the page scrolls sideways by ${m.overflow} px: ${at}`);
      assert.deepEqual(m.wide, [], `wider than the page: ${at}`);
      await wb.page.screenshot({ path: join(shots, 'spending-half-width.png') });
    } finally {
      await wb.runCommand('View: Join All Editor Groups');
      await wb.page.setViewportSize(size);
    }
  });

  it("Chat: Manage Language Models shows Modelgate's prices in the Pricing column, whole", async () => {
    await wb.runCommand('Chat: Manage Language Models');
    const widget = wb.page.locator('.models-widget').first();
    const rowOf = (name: string) => widget.locator('.monaco-table-tr').filter({ hasText: name }).first();
    await rowOf('Flagship (text)').waitFor({ state: 'visible', timeout: 60_000 });
    await rowOf('Long context').waitFor({ state: 'visible', timeout: 30_000 });
    // the column whose header reads "Pricing", read in the model's row (VS Code puts a provider's
    // pricing text into the first of the column's four cells)
    const pricing = (name: string) =>
      rowOf(name).evaluate((row) => {
        const table = row.closest('.monaco-table')!;
        const headers = [...table.querySelectorAll('.monaco-table-th')].map((h) => (h.textContent ?? '').trim());
        const at = headers.indexOf('Pricing');
        const cell = row.querySelectorAll('.monaco-table-td')[at]?.querySelector<HTMLElement>('.model-cost-cell');
        return { headers, text: cell?.textContent ?? '', scrollWidth: cell?.scrollWidth ?? 0, clientWidth: cell?.clientWidth ?? 0 };
      });
    const flagship = await pricing('Flagship (text)');
    assert.ok(flagship.headers.includes('Pricing'), `the models editor's columns: ${flagship.headers.join(' | ')}`);
    // the default channel's price from the demo's card (the simulator's default channel, stable)
    assert.equal(flagship.text, '$2/$8', JSON.stringify(flagship));
    assert.ok(flagship.scrollWidth <= flagship.clientWidth, `the price is cut: ${JSON.stringify(flagship)}`);
    const long = await pricing('Long context');
    assert.equal(long.text, '$1/$8', JSON.stringify(long));
    assert.ok(long.scrollWidth <= long.clientWidth, `the price is cut: ${JSON.stringify(long)}`);
    mkdirSync(shots, { recursive: true });
    await wb.page.screenshot({ path: join(shots, 'manage-models-pricing.png') });
    await wb.page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('the Modelgate walkthrough at the default side-bar width: no step title or description is clipped, Light and Dark', async () => {
    const sidebar = (await wb.page.locator('.part.sidebar').boundingBox())!;
    assert.ok(Math.abs(sidebar.width - 300) <= 12, `the side bar has its default width (${sidebar.width} px)`);
    if (!(await wb.page.locator('.monaco-workbench.vs').count())) await setTheme('Light Modern', 'Light Modern', 'vs');
    const steps = wb.page.locator('.getting-started-step');
    const usable = (title: string) =>
      wb.page
        .waitForFunction(
          (t) =>
            [...document.querySelectorAll<HTMLElement>('.getting-started-step')].some(
              (s) =>
                s.textContent?.includes(t) &&
                !s.hasAttribute('disabled') &&
                s.getClientRects().length > 0 &&
                s.closest('.gettingStartedSlide')?.checkVisibility(),
            ),
          title,
          { timeout: 20_000, polling: 100 },
        )
        .then(
          () => true,
          () => false,
        );
    // the command opens the walkthrough; should the Welcome page show its overview instead, the
    // walkthrough is picked there, as a person would
    const openWalkthrough = async () => {
      await wb.runCommand('Modelgate: Get Started');
      if (await usable('Set the gateway address')) return;
      await wb.page.locator('.getting-started-category', { hasText: 'Get started with Modelgate' }).first().click({ timeout: 10_000 });
      assert.ok(await usable('Set the gateway address'), 'the Modelgate walkthrough shows its steps');
    };
    const titles = ['Set the gateway address', 'Set your API key', 'Pick a model and a channel', 'Ask a first question', 'Generate a first image'];
    const measure = async (theme: string) => {
      const problems: string[] = [];
      for (const title of titles) {
        const step = steps.filter({ hasText: title }).first();
        // a step shows its description once selected (completion events are not "on select")
        await step.locator('.step-title').click();
        await wb.page.waitForFunction((t) => [...document.querySelectorAll('.getting-started-step.expanded')].some((s) => s.textContent?.includes(t)), title, {
          timeout: 10_000,
          polling: 100,
        });
        // the expansion animates its height: measure once it stopped changing
        let last = '';
        for (let i = 0; i < 40; i++) {
          const now = JSON.stringify(await step.boundingBox());
          if (now === last) break;
          last = now;
          await wb.page.waitForTimeout(100);
        }
        // every text of the walkthrough's page with this step open: its header, the step titles and
        // the open step's description (with VS Code's shortcut tip), "Mark Done"
        const clipped = await step.evaluate((open) => {
          const out: string[] = [];
          const page = open.closest('.gettingStartedSlide') ?? document.body;
          const walker = document.createTreeWalker(page, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const text = (n.textContent ?? '').trim();
            const el = n.parentElement;
            if (!text || !el || !el.getClientRects().length) continue;
            const s = getComputedStyle(el);
            if (s.visibility !== 'visible' || el.closest('[aria-hidden="true"], .codicon')) continue;
            // a closed step's description is folded away on purpose
            const step = el.closest('.getting-started-step');
            if (step && step !== open && el.closest('.step-description-container')) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            const t = range.getBoundingClientRect();
            if (t.width === 0 && t.height === 0) continue;
            const what = `"${text.slice(0, 60)}"`;
            // cut by an ellipsis or a line clamp of its own element
            if (el.scrollWidth > el.clientWidth + 1 && s.overflowX !== 'visible') out.push(`${what}: ${el.scrollWidth} px wide in ${el.clientWidth}`);
            if (el.scrollHeight > el.clientHeight + 1 && s.overflowY !== 'visible') out.push(`${what}: ${el.scrollHeight} px high in ${el.clientHeight}`);
            // or by a clipping ancestor, the text and its own box (a key cap's frame): sideways up to
            // the page, and up and down inside a step (the page itself scrolls)
            const e = s.display.startsWith('inline') ? el.getBoundingClientRect() : t;
            const r = { left: Math.min(t.left, e.left), right: Math.max(t.right, e.right), top: Math.min(t.top, e.top), bottom: Math.max(t.bottom, e.bottom) };
            for (let p = el.parentElement; p && p !== page.parentElement; p = p.parentElement) {
              const ps = getComputedStyle(p);
              const q = p.getBoundingClientRect();
              // a line clamp or an ellipsis further up (the walkthrough's description is clamped to 3 lines)
              if (ps.webkitLineClamp !== 'none' && p.scrollHeight > p.clientHeight + 1)
                out.push(`${what}: clamped to ${p.clientHeight} of ${p.scrollHeight} px (${p.className})`);
              if (ps.textOverflow === 'ellipsis' && ps.overflowX !== 'visible' && p.scrollWidth > p.clientWidth + 1)
                out.push(`${what}: cut to ${p.clientWidth} of ${p.scrollWidth} px (${p.className})`);
              if (ps.overflowX !== 'visible' && (r.left < q.left - 1 || r.right > q.right + 1))
                out.push(`${what}: ${Math.round(r.left)}-${Math.round(r.right)} outside ${p.className} ${Math.round(q.left)}-${Math.round(q.right)}`);
              if (step?.contains(p) && ps.overflowY !== 'visible' && (r.top < q.top - 1 || r.bottom > q.bottom + 1))
                out.push(`${what}: ${Math.round(r.top)}-${Math.round(r.bottom)} outside ${p.className} ${Math.round(q.top)}-${Math.round(q.bottom)}`);
            }
          }
          return out;
        });
        problems.push(...clipped.map((c) => `${theme}, ${title} open: ${c}`));
      }
      return problems;
    };
    // 1280 px: the editor is under 950 px wide, where VS Code shows the steps without their pictures;
    // 1440 px (a common laptop): the pictures beside the steps, which leaves the text less room
    const size = wb.page.viewportSize()!;
    const atWidth = async (width: number) => {
      await wb.page.setViewportSize({ width, height: size.height });
      await wb.page.waitForFunction(
        (semi) => document.querySelector('.gettingStartedContainer')?.classList.contains('width-semi-constrained') === semi,
        width < 1400,
        { timeout: 10_000, polling: 100 },
      );
    };
    let light: string[];
    let dark: string[];
    try {
      await openWalkthrough();
      await themeShows('light');
      light = await measure('Light Modern, 1280 px');
      await wb.page.screenshot({ path: join(shots, 'walkthrough-1280-light.png') });
      await atWidth(1440);
      light.push(...(await measure('Light Modern, 1440 px')));
      await wb.page.screenshot({ path: join(shots, 'walkthrough-light.png') });
      await setTheme('Dark Modern', 'Dark Modern', 'vs-dark');
      await openWalkthrough(); // the palette's Escape took the Welcome page back to its overview
      dark = await measure('Dark Modern, 1440 px');
      await themeShows('dark');
      await wb.page.screenshot({ path: join(shots, 'walkthrough-dark.png') });
    } finally {
      await wb.page.setViewportSize(size);
    }
    assert.deepEqual([...light, ...dark], []);
  });

  it('Show Spending in Dark and High Contrast: Export CSV… keeps a visible border', async () => {
    // the workbench is in Dark Modern now (the walkthrough test)
    const themed = async (bodyClass: string) => {
      await wb.runCommand('Modelgate: Show Spending');
      // the page is drawn again for the theme (and on any settings change, the theme's write among
      // them): the frame whose body has the theme's class, found again if it went away meanwhile
      for (let attempt = 0; ; attempt++) {
        const page = await wb.webviewFrame(
          (f) => f.evaluate((cls) => !!document.querySelector('#export') && document.body.classList.contains(cls), bodyClass),
          {
            timeoutMs: 60_000,
          },
        );
        const shown = await page
          .locator('#export')
          .waitFor({ state: 'visible', timeout: 10_000 })
          .then(
            () => true,
            (err: unknown) => {
              if (attempt >= 2) throw err;
              return false;
            },
          );
        if (shown) return page;
      }
    };
    await themed('vscode-dark');
    await themeShows('dark');
    await wb.page.screenshot({ path: join(shots, 'spending-dark.png') });
    await setTheme('Dark High Contrast', 'Default High Contrast', 'hc-black');
    await themed('vscode-high-contrast');
    await wb.page.screenshot({ path: join(shots, 'spending-hc.png') });
    // the page is drawn again when settings change (the theme's write among them): read the current frame, again if it went
    const exportBorder = async () =>
      (await themed('vscode-high-contrast')).locator('#export').evaluate((el) => {
        const s = getComputedStyle(el);
        const parse = (c: string) =>
          (/rgba?\(([^)]+)\)/.exec(c)?.[1] ?? '0 0 0 0')
            .split(/[\s,/]+/)
            .filter(Boolean)
            .map(Number);
        const lum = ([r, g, b]: number[]) =>
          [r!, g!, b!]
            .map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4))
            .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i]!, 0);
        const edge = parse(s.borderTopColor);
        const behind = parse(getComputedStyle(document.body).backgroundColor);
        const [hi, lo] = [lum(edge), lum(behind)].sort((a, b) => b - a) as [number, number];
        return { width: s.borderTopWidth, style: s.borderTopStyle, color: s.borderTopColor, alpha: edge[3] ?? 1, ratio: (hi + 0.05) / (lo + 0.05) };
      });
    let border: Awaited<ReturnType<typeof exportBorder>> | undefined;
    for (let attempt = 0; !border; attempt++) {
      border = await exportBorder().catch((err: unknown) => {
        if (attempt >= 2 || !String(err).includes('detached')) throw err;
        return undefined;
      });
    }
    assert.equal(border.style, 'solid', JSON.stringify(border));
    assert.ok(parseFloat(border.width) >= 1, JSON.stringify(border));
    // non-text contrast (WCAG 1.4.11): the border shows against the page at 3:1 or more
    assert.ok(border.alpha > 0 && border.ratio >= 3, JSON.stringify(border));
  });
});
