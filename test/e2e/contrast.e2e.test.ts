// Readability of the chat panel in the real workbench, in each built-in theme: every visible text
// meets WCAG AA contrast (4.5:1; 3:1 for large text), computed from the rendered colours.
//
// One workbench start. The panel is filled once with a conversation that shows every kind of
// element (user and assistant messages, a code block with its buttons, a tool call done and one
// failed, an error card, a notice, chips, the context meter, usage lines), then the theme is
// switched through the `workbench.colorTheme` user setting (settings.json on disk, as a person's
// edit would be) and, in each theme, the webview frame is walked: for every element with visible
// text, the foreground (computed colour, times the opacity of the element and its ancestors) is
// composed over the backgrounds of its ancestors (alpha included) down to the side bar's own
// background, and the WCAG ratio is computed. A theme fails listing each offender.
//
// Screenshots of the panel in Light, Dark and High Contrast go to test-results/screenshots/
// (media/screenshots/, used by the README, with MODELGATE_UPDATE_SCREENSHOTS=1).
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, userSettingsOf, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-contrast-5e19a0';

interface Theme {
  /** the `workbench.colorTheme` value (the theme's id in VS Code 1.139) */
  id: string;
  /** its label in the Color Theme picker */
  label: string;
  /** class of .monaco-workbench once the theme applies */
  workbenchClass: string;
  /** class of the webview's body once the theme reached it */
  bodyClass: string;
  screenshot?: string;
  /** the panel at the default side-bar width (290 px) with three notices is measured and shot here */
  narrowShot?: string;
}

const THEMES: Theme[] = [
  {
    id: 'Light Modern',
    label: 'Light Modern',
    workbenchClass: 'vs',
    bodyClass: 'vscode-light',
    screenshot: 'chat-light.png',
    narrowShot: 'chat-290-light.png',
  },
  {
    id: 'Dark Modern',
    label: 'Dark Modern',
    workbenchClass: 'vs-dark',
    bodyClass: 'vscode-dark',
    screenshot: 'chat-dark.png',
    narrowShot: 'chat-290-dark.png',
  },
  {
    id: 'Default High Contrast',
    label: 'Dark High Contrast',
    workbenchClass: 'hc-black',
    bodyClass: 'vscode-high-contrast',
    screenshot: 'chat-hc.png',
    narrowShot: 'chat-290-hc.png',
  },
  {
    id: 'Default High Contrast Light',
    label: 'Light High Contrast',
    workbenchClass: 'hc-light',
    bodyClass: 'vscode-high-contrast-light',
    narrowShot: 'chat-290-hc-light.png',
  },
];

/** What the walk in the webview reports for one text. */
interface TextSample {
  text: string;
  path: string;
  fg: string;
  bg: string;
  ratio: number;
  required: number;
}

/**
 * Runs in the webview frame. `base` is the opaque colour behind the webview (the side bar's
 * background, read in the workbench page). Returns every visible text with its contrast.
 */
function measureContrast(base: [number, number, number]): TextSample[] {
  type RGBA = [number, number, number, number];
  const parse = (css: string): RGBA => {
    const m = /rgba?\(([^)]+)\)/.exec(css);
    if (!m) {
      // `color(srgb r g b / a)` and the like: let canvas normalise it.
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.fillStyle = '#000';
      ctx.fillStyle = css;
      return parse(ctx.fillStyle.startsWith('#') ? hexToRgb(ctx.fillStyle) : ctx.fillStyle);
    }
    const p = m[1]!
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [p[0]!, p[1]!, p[2]!, p.length > 3 ? p[3]! : 1];
  };
  const hexToRgb = (hex: string): string => {
    const n = parseInt(hex.slice(1), 16);
    return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
  };
  const over = (top: RGBA, under: [number, number, number]): [number, number, number] =>
    [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])) as [number, number, number];
  const lum = (c: [number, number, number]): number => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratioOf = (a: [number, number, number], b: [number, number, number]): number => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
    return (x + 0.05) / (y + 0.05);
  };
  const hex = (c: [number, number, number]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

  /** The colour behind `el`: its own background and its ancestors', composed over `base`. */
  const backgroundOf = (el: Element): [number, number, number] => {
    const layers: RGBA[] = [];
    for (let e: Element | null = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let under = base;
    for (const layer of layers.reverse()) under = over(layer, under);
    return under;
  };
  const opacityOf = (el: Element): number => {
    let o = 1;
    for (let e: Element | null = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const describe = (el: Element): string => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      const cls = [...e.classList]
        .slice(0, 2)
        .map((c) => `.${c}`)
        .join('');
      parts.unshift(`${e.tagName.toLowerCase()}${cls}`);
    }
    return parts.join(' > ');
  };
  const visible = (el: Element): boolean => {
    if (!(el instanceof HTMLElement || el instanceof SVGElement)) return false;
    if (el.closest('[hidden], [aria-hidden="true"] [hidden]')) return false;
    const s = getComputedStyle(el);
    if (s.visibility !== 'visible' || s.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };

  const samples: TextSample[] = [];
  const sample = (el: Element, text: string, color: string) => {
    // Disabled controls are exempt from 1.4.3 (inactive user interface components).
    if (el.closest(':disabled, [aria-disabled="true"]')) return;
    const style = getComputedStyle(el);
    const bg = backgroundOf(el);
    const fgRaw = parse(color);
    const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * opacityOf(el)], bg);
    const px = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const large = px >= 24 || (bold && px >= 18.66);
    samples.push({
      text: text.replace(/\s+/g, ' ').trim().slice(0, 50),
      path: describe(el),
      fg: hex(fg),
      bg: hex(bg),
      ratio: ratioOf(fg, bg),
      required: large ? 3 : 4.5,
    });
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set<Element>();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || seen.has(el) || !(n.textContent ?? '').trim()) continue;
    if (el.closest('script, style, option, select, textarea')) continue;
    seen.add(el);
    if (!visible(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    sample(el, n.textContent ?? '', getComputedStyle(el).color);
  }
  // Form controls draw their text themselves: the select's chosen option, the textarea's value
  // or else its placeholder.
  for (const el of document.querySelectorAll('select, textarea, input:not([type=checkbox]):not([type=radio])')) {
    if (!visible(el)) continue;
    const field = el as HTMLSelectElement | HTMLTextAreaElement | HTMLInputElement;
    if (field instanceof HTMLSelectElement) {
      const text = field.selectedOptions[0]?.textContent ?? '';
      if (text.trim()) sample(el, text, getComputedStyle(el).color);
    } else if (field.value.trim()) {
      sample(el, field.value, getComputedStyle(el).color);
    } else if (field.placeholder) {
      sample(el, field.placeholder, getComputedStyle(el, '::placeholder').color);
    }
  }
  return samples;
}

/** Runs in the webview frame: what the composer's model chip shows, and whether any of it is cut. */
function modelChip(): {
  name: string;
  channel: string;
  chipFits: boolean;
  nameFits: boolean;
  channelFits: boolean;
  icon: boolean;
  label: string;
  title: string;
} {
  const chip = document.querySelector<HTMLElement>('.model-button')!;
  const name = chip.querySelector<HTMLElement>('.model-name')!;
  const word = chip.querySelector<HTMLElement>('.model-channel-text');
  const icon = chip.querySelector('.channel-icon')?.getBoundingClientRect();
  const bar = chip.parentElement!.getBoundingClientRect();
  const r = chip.getBoundingClientRect();
  return {
    name: name.textContent ?? '',
    // the channel's word, when it shows
    channel: word && word.getClientRects().length ? (word.textContent ?? '') : '',
    // nothing of the chip overflows it, and the chip is inside its bar
    chipFits: chip.scrollWidth <= chip.clientWidth && r.left >= bar.left - 1 && r.right <= bar.right + 1,
    nameFits: name.scrollWidth <= name.clientWidth,
    // the channel's word is shown whole, inside the chip (not cut, not hidden by the chip's overflow)
    channelFits:
      !!word &&
      word.getClientRects().length > 0 &&
      word.scrollWidth <= word.clientWidth &&
      word.getBoundingClientRect().right <= r.right + 0.5 &&
      word.getBoundingClientRect().bottom <= r.bottom + 0.5 &&
      word.getBoundingClientRect().width > 0,
    icon: !!icon && icon.width > 0 && icon.right <= r.right,
    label: chip.getAttribute('aria-label') ?? '',
    title: chip.title,
  };
}

describe('e2e contrast: every text of the chat panel meets WCAG AA in the built-in themes', function () {
  this.timeout(300_000);

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: {
      ...gatewaySettings(gw),
      'workbench.colorTheme': THEMES[0]!.id,
    },
    viewport: { width: 1280, height: 1300 },
  }));

  let wb: Workbench;
  let chat: Frame;
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const log = () => chat.getByRole('log');
  const button = (name: string) => chat.getByRole('button', { name, exact: true });

  async function send(text: string): Promise<void> {
    await fillField(message(), text);
    await button('Send').click();
    await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
    await button('Send').waitFor({ state: 'visible', timeout: 10_000 });
  }

  /**
   * Switches the theme the way a person does: the Color Theme picker writes the
   * `workbench.colorTheme` user setting. (Writing settings.json behind the workbench's back
   * depends on its file watcher, which a busy machine can run out of: seen here.)
   */
  async function setTheme(theme: Theme): Promise<void> {
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput(theme.label);
    const current = () => userSettingsOf(wb)?.['workbench.colorTheme'];
    for (let i = 0; i < 100 && current() !== theme.id; i++) await wb.page.waitForTimeout(200);
    assert.equal(current(), theme.id, 'the Color Theme picker wrote the user setting');
  }

  /** Drags the side bar's sash until the side bar is `width` px wide. */
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

  async function screenshotPanel(file: string): Promise<void> {
    const dir = process.env.MODELGATE_UPDATE_SCREENSHOTS === '1' ? join(repoRoot(), 'media', 'screenshots') : join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    // From the tool calls down: most kinds of element in one picture.
    await chat.evaluate(() => document.querySelector('.tool-call')?.closest('.message')?.scrollIntoView({ block: 'start' }));
    await wb.page.locator('.part.sidebar').screenshot({ path: join(dir, file) });
  }

  before(async () => {
    wb = fixture.get();
    // A wider side bar than the default, as people who chat tend to make it.
    const sidebar = wb.page.locator('.part.sidebar');
    // The extension's commands show up once its host activated it: slow on a busy machine.
    chat = await wb.openChat({ timeoutMs: 120_000 });
    const box = (await sidebar.boundingBox())!;
    await wb.page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await wb.page.mouse.down();
    await wb.page.mouse.move(box.x + 520, box.y + box.height / 2, { steps: 8 });
    await wb.page.mouse.up();
    await wb.setKey(KEY);
  });

  it('fills the panel with every kind of element', async () => {
    // A failed answer: the error card with its actions.
    await send('Tell me [[words:12]] [[fault:streamError:1:The upstream model stopped unexpectedly.]]');
    await log().locator('.message-error').first().waitFor({ state: 'visible', timeout: 30_000 });
    // Two tool calls, one done and one failed, then the summary.
    await send('Read both [[call:read_file {"path":"src/a.ts"}]] [[call:read_file {"path":"no/such/file.ts"}]]');
    await log().locator('.tool-call.tool-done').first().waitFor({ state: 'visible', timeout: 30_000 });
    await log().locator('.tool-call.tool-error').first().waitFor({ state: 'visible', timeout: 30_000 });
    // An answer that edits a file: the changes under review (a file with +/- and Keep/Undo), left pending.
    await send('Swap them [[call:edit_file {"path":"src/b.ts","edits":[{"search":"add(1, 2)","replace":"add(2, 1)"}]}]]');
    await chat.locator('.edits .edit-file').first().waitFor({ state: 'visible', timeout: 30_000 });
    // A plain answer: markdown, a code block with its buttons, the usage line, Regenerate.
    await send('How do I debounce a function in TypeScript?');
    await log().locator('.code-block .code-action').first().waitFor({ state: 'visible', timeout: 30_000 });
    await button('Regenerate').waitFor({ state: 'visible', timeout: 10_000 });
    // A chip: a file picked in the open dialog.
    await button('Attach file').click();
    // The simple file dialog lists the folder once it has read it, and a path typed before
    // that is replaced by the folder's: type it when the listing is there, again if needed.
    await wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'README.md' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const chip = chat.locator('.composer-attachments .chip').first();
    for (let attempt = 0; attempt < 3 && !(await chip.isVisible()); attempt++) {
      const input = wb.page.locator('.quick-input-widget .quick-input-box input');
      if (await input.isVisible()) await wb.answerInput(join(wb.workspace, 'README.md'));
      await chip.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
    }
    await chip.waitFor({ state: 'visible', timeout: 10_000 });
    // A notice: there is no editor whose selection could be attached.
    await button('Attach selection').click();
    await chat.locator('.notices .notice:not([hidden])').first().waitFor({ state: 'visible', timeout: 30_000 });
    await chat.locator('.context-meter').waitFor({ state: 'visible', timeout: 30_000 });
    await fillField(message(), 'Can it also cancel a pending call?');
    // Nothing keeps the keyboard focus in the panel: no control shows a focus ring.
    await wb.page.locator('.part.statusbar').click({ position: { x: 5, y: 5 } });

    for (const selector of [
      '.message-user',
      '.message-assistant',
      '.code-block .code-action',
      '.tool-done',
      '.tool-error',
      '.message-error',
      '.notice:not([hidden])',
      '.chip',
      '.context-meter',
      '.message-usage',
      '.edits .edit-file',
      '.quote-button',
    ]) {
      assert.ok((await chat.locator(selector).count()) > 0, `the panel shows no ${selector}`);
    }
  });

  it('the context meter is a labelled meter, large enough to read', async () => {
    const meter = chat.getByRole('meter');
    await meter.waitFor({ state: 'visible' });
    const a = await meter.evaluate((el) => ({
      label: el.getAttribute('aria-label'),
      min: el.getAttribute('aria-valuemin'),
      max: el.getAttribute('aria-valuemax'),
      now: el.getAttribute('aria-valuenow'),
      text: el.getAttribute('aria-valuetext'),
    }));
    assert.equal(a.label, 'Context');
    assert.ok(a.min !== null && a.max !== null && a.now !== null, JSON.stringify(a));
    assert.ok(Number(a.min) <= Number(a.now) && Number(a.now) <= Number(a.max), JSON.stringify(a));
    // "Context: 1,332 of 1,000,000 tokens (<1%)": the numbers, not only a share.
    assert.match(a.text ?? '', /^Context: [\d,]+ of [\d,]+ tokens \((<1|\d+)%\)$/);
    const bar = (await chat.locator('.context-meter .meter-bar').boundingBox())!;
    assert.ok(bar.width >= 48 && bar.height >= 6, `the bar is ${bar.width}x${bar.height} px`);
  });

  for (const theme of THEMES) {
    it(`every text meets WCAG AA in ${theme.id}`, async () => {
      if (theme !== THEMES[0]) await setTheme(theme);
      await wb.page.locator(`.monaco-workbench.${theme.workbenchClass}`).waitFor({ state: 'attached', timeout: 60_000 });
      await chat.waitForFunction((cls) => document.body.classList.contains(cls), theme.bodyClass, { timeout: 30_000, polling: 100 });
      // The colour transitions of the new variables have ended (endless animations, a spinner, do not count).
      const settled = () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity);
      await chat.waitForFunction(settled, undefined, { timeout: 30_000, polling: 100 });
      await wb.page.waitForFunction(settled, undefined, { timeout: 30_000, polling: 100 });
      const base = await wb.page.evaluate(() => {
        const m = /rgba?\(([^)]+)\)/.exec(getComputedStyle(document.querySelector('.part.sidebar')!).backgroundColor)!;
        const p = m[1]!.split(/[\s,/]+/).map(Number);
        return [p[0]!, p[1]!, p[2]!] as [number, number, number];
      });
      const samples = await chat.evaluate(measureContrast, base);
      if (theme.screenshot) await screenshotPanel(theme.screenshot);
      assert.ok(samples.length > 40, `only ${samples.length} texts were measured`);
      // The tool card's "done" label (once 1.88:1 in Light Modern) must have been measured (the walk reaches it).
      assert.ok(
        samples.some((s) => s.path.includes('tool-status') && s.text === 'done'),
        'the tool "done" label was not measured',
      );
      // Regenerate, not focused, draws no ring: no outline and, outside high contrast (where every
      // control has a contrast border), no border of its own either.
      const regenerate = await chat
        .locator('.message-regenerate:not([hidden])')
        .last()
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return {
            focused: el.ownerDocument.activeElement === el,
            outline: s.outlineStyle === 'none' ? 'none' : `${s.outlineWidth} ${s.outlineStyle} ${s.outlineColor}`,
            border: s.borderTopColor,
            width: s.borderTopWidth,
            shadow: s.boxShadow,
          };
        });
      const problems: string[] = [];
      if (regenerate.focused) problems.push('Regenerate has the focus');
      if (regenerate.outline !== 'none') problems.push(`Regenerate shows an outline without focus: ${regenerate.outline}`);
      if (regenerate.shadow !== 'none') problems.push(`Regenerate shows a shadow without focus: ${regenerate.shadow}`);
      if (!theme.bodyClass.includes('high-contrast') && regenerate.width !== '0px' && !/^rgba\(.*,\s*0\)$|transparent/.test(regenerate.border)) {
        problems.push(`Regenerate draws a ${regenerate.width} ${regenerate.border} border that reads as a focus ring`);
      }
      const offenders = samples.filter((s) => s.ratio < s.required);
      if (offenders.length) {
        problems.push(`${offenders.length} of ${samples.length} texts below WCAG AA:`);
        for (const s of offenders) problems.push(`  ${s.ratio.toFixed(2)}:1 < ${s.required}:1  ${s.fg} on ${s.bg}  "${s.text}"  (${s.path})`);
      }
      assert.deepEqual(problems, [], `${theme.id}:\n${problems.join('\n')}`);
    });

    const shot = theme.narrowShot;
    if (shot) {
      it(`at the default width (290 px) in ${theme.id}: three notices and an answer's edits under review leave the conversation and Send in view; total, context share and the model chip read whole`, async () => {
        const size = wb.page.viewportSize()!;
        // a laptop-sized window, where a strip of notices without a cap left the transcript 24 px high
        await wb.page.setViewportSize({ width: size.width, height: 620 });
        try {
          // wide (520 px), the chip reads whole, the channel's word too
          const wide = await chat.evaluate(modelChip);
          assert.deepEqual(
            { name: wide.name, channel: wide.channel, fits: wide.chipFits && wide.nameFits },
            { name: 'flagship-text', channel: 'default', fits: true },
            `${theme.id}, 520 px: ${JSON.stringify(wide)}`,
          );
          await sidebarWidth(290);
          // three notices: two informational (nothing selected, no problems) and a warning (no image input)
          // (Attach image is aria-disabled on a text-only model, yet says why when clicked)
          // The theme before this one left the same three: each comes back from the host as a new
          // element that replaces its twin and folds the strip. Wait for the three new ones, or a
          // late one folds the strip again after 'N more notices' is clicked.
          await chat.evaluate(() => document.querySelectorAll('.notice-list .notice').forEach((n) => n.setAttribute('data-test-earlier', '')));
          for (const name of ['Attach selection', 'Attach problems', 'Attach image']) await button(name).click({ force: name === 'Attach image' });
          await chat.waitForFunction(() => document.querySelectorAll('.notice-list .notice:not([data-test-earlier])').length >= 3, undefined, {
            timeout: 30_000,
            polling: 100,
          });
          await chat.waitForFunction(() => innerWidth <= 300, undefined, { timeout: 30_000, polling: 100 });
          const more = chat.locator('.notices-more');
          await more.waitFor({ state: 'visible', timeout: 10_000 });
          assert.match((await more.textContent()) ?? '', /^\d+ more notices?$/);
          const layout = () =>
            chat.evaluate(() => {
              const rect = (sel: string) => {
                const el = document.querySelector(sel);
                if (!el) return undefined;
                const r = el.getBoundingClientRect();
                return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width };
              };
              const text = (sel: string) => document.querySelector(sel)?.textContent ?? '';
              const whole = (sel: string) => {
                // not cut: the element's text fits its box, and the box is inside its clipping parents
                const el = document.querySelector<HTMLElement>(sel);
                if (!el || !el.getClientRects().length) return false;
                if (el.scrollWidth > el.clientWidth + 1) return false;
                const r = el.getBoundingClientRect();
                for (let p = el.parentElement; p; p = p.parentElement) {
                  if (getComputedStyle(p).overflowX === 'visible') continue;
                  const q = p.getBoundingClientRect();
                  if (r.left < q.left - 1 || r.right > q.right + 1) return false;
                  if (p.scrollWidth > p.clientWidth + 1 && p.classList.contains('meter-text')) return false;
                }
                return r.right <= innerWidth + 1;
              };
              return {
                viewport: { width: innerWidth, height: innerHeight },
                transcript: rect('.transcript')!,
                notices: rect('.notices')!,
                edits: rect('.edits')!,
                send: rect('.send-button')!,
                composerBar: rect('.composer-bar')!,
                total: { text: text('.total-cost'), whole: whole('.total-cost') },
                percent: { text: text('.meter-percent'), whole: whole('.meter-percent') },
                quote: { text: text('.quote-button'), whole: whole('.quote-button'), rect: rect('.quote-button') },
              };
            });
          const check = async (what: string) => {
            const l = { ...(await layout()), chip: await chat.evaluate(modelChip) };
            const at = `${theme.id}, ${what}: ${JSON.stringify(l)}`;
            assert.ok(l.viewport.width <= 300, at);
            assert.ok(l.notices.height <= l.viewport.height * 0.34 + 2, `the notices take more than a third of the panel (${at})`);
            assert.ok(l.edits.height >= 30, `the edits under review are not shown (${at})`);
            assert.ok(l.transcript.height >= Math.max(100, l.viewport.height * 0.25 - 1), `the transcript is ${l.transcript.height} px high (${at})`);
            assert.ok(l.send.top >= 0 && l.send.bottom <= l.viewport.height && l.send.right <= l.viewport.width + 1, `Send is not wholly in view (${at})`);
            assert.ok(l.composerBar.bottom <= l.viewport.height, `the Send row is cut (${at})`);
            assert.match(l.total.text, /^(≥ )?\$\d/, `the total reads "${l.total.text}" (${at})`);
            assert.ok(l.total.whole, `the total is cut (${at})`);
            assert.match(l.percent.text, /^(<1|\d+)%$/, at);
            assert.ok(l.percent.whole, `the context share is cut (${at})`);
            // the cost quote: whole, in view, right under Send
            assert.match(l.quote.text, /^≈ \$\d[\d.,]*(–[\d.,]+)?$|^no price$/, `the quote reads "${l.quote.text}" (${at})`);
            assert.ok(l.quote.whole, `the quote is cut (${at})`);
            const q = l.quote.rect!;
            assert.ok(q.bottom <= l.viewport.height && q.top >= l.send.bottom - 1 && q.top - l.send.bottom <= 40, `the quote is not under Send (${at})`);
            assert.ok(Math.abs(q.right - l.send.right) <= 12, `the quote is not aligned with Send (${at})`);
            // the model chip: the whole name, the channel's icon and its word as readable text
            // (under the name at this width), nothing cut; both in its accessible name and tooltip
            assert.equal(l.chip.name, 'flagship-text', `the model name reads "${l.chip.name}" (${at})`);
            assert.ok(l.chip.chipFits && l.chip.nameFits, `the model chip is cut (${at})`);
            assert.equal(l.chip.channel, 'default', `the channel reads "${l.chip.channel}" (${at})`);
            assert.ok(l.chip.channelFits, `the channel's word is cut (${at})`);
            assert.ok(l.chip.icon, `the channel's icon is not shown (${at})`);
            assert.equal(l.chip.label, 'Model flagship-text, channel default', at);
            assert.match(l.chip.title, /^Model flagship-text, channel default\./, at);
          };
          await check('three notices, folded');
          await more.click();
          const afterClick = await more.getAttribute('aria-expanded');
          await chat
            .waitForFunction(() => document.querySelectorAll('.notice-list .notice:not([hidden])').length >= 3, undefined, {
              timeout: 10_000,
              polling: 100,
            })
            .catch(async (err: Error) => {
              // what the strip showed instead: whether the click unfolded it (then something folded it
              // again) or missed, and which notices came or went since
              const strip = await chat.evaluate(() => ({
                more: [document.querySelector('.notices-more')?.getAttribute('aria-expanded'), document.querySelector('.notices-more')?.textContent],
                notices: [...document.querySelectorAll<HTMLElement>('.notice-list .notice')].map((n) => `${n.hidden ? 'folded' : 'shown'}: ${n.textContent}`),
              }));
              throw new Error(`${err.message}\naria-expanded right after the click: ${afterClick}; the strip now: ${JSON.stringify(strip)}`);
            });
          await check('three notices, unfolded');
          // unfolded, the strip scrolls within its cap with the newest (the warning) in view
          const newest = await chat.evaluate(() => {
            const strip = document.querySelector('.notices')!.getBoundingClientRect();
            const all = document.querySelectorAll('.notice-list .notice');
            const r = all[all.length - 1]!.getBoundingClientRect();
            return { inView: r.top >= strip.top - 1 && r.bottom <= strip.bottom + 1, text: all[all.length - 1]!.textContent ?? '' };
          });
          assert.ok(newest.inView, `the newest notice is scrolled out of the strip: ${newest.text}`);
          // not a README picture: always beside the routine screenshots
          mkdirSync(join(repoRoot(), 'test-results', 'screenshots'), { recursive: true });
          await wb.page.locator('.part.sidebar').screenshot({ path: join(repoRoot(), 'test-results', 'screenshots', shot) });
          await more.click();
          // the quote's details: every channel, the cache, the assumptions, the spending limit
          await chat.locator('.quote-button').click();
          const details = chat.locator('.quote-details');
          await details.waitFor({ state: 'visible', timeout: 10_000 });
          // the default channel this send goes to, then each named channel
          assert.equal(await details.locator('.quote-channels tbody tr').count(), 4, 'a row per channel');
          await details.getByRole('button', { name: /Spending Limit/ }).waitFor({ state: 'visible', timeout: 10_000 });
          // above the composer, wholly in view however little room the panel has
          const box = await details.evaluate((el) => {
            const r = el.getBoundingClientRect();
            return { top: r.top, bottom: r.bottom, composer: el.closest('.composer')!.getBoundingClientRect().top, height: innerHeight };
          });
          assert.ok(box.top >= 0 && box.bottom <= box.height && box.bottom <= box.composer + 8, `the quote's details are not in view: ${JSON.stringify(box)}`);
          await wb.page.locator('.part.sidebar').screenshot({ path: join(repoRoot(), 'test-results', 'screenshots', shot.replace('chat-290', 'quote-290')) });
          await chat.locator('.quote-button').click();
          await details.waitFor({ state: 'hidden', timeout: 10_000 });
        } finally {
          await wb.page.setViewportSize(size);
          await sidebarWidth(520);
        }
      });
    }
  }

  it('at 290 px a long model name is elided in the middle, its end kept; the whole name in the tooltip', async () => {
    await wb.runCommand('Modelgate: Pick Chat Model');
    await wb.answerInput('long-context-tools');
    await wb.runCommand('Modelgate: Pick Channel');
    await wb.answerInput('Economical');
    await chat.waitForFunction(
      () => document.querySelector('.model-button')?.getAttribute('aria-label') === 'Model long-context-tools, channel economical',
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    try {
      await sidebarWidth(290);
      await chat.waitForFunction(() => innerWidth <= 300, undefined, { timeout: 30_000, polling: 100 });
      await chat.waitForFunction(() => document.querySelector('.model-button .model-name')?.textContent?.includes('…'), undefined, {
        timeout: 10_000,
        polling: 100,
      });
      const chip = await chat.evaluate(modelChip);
      const at = JSON.stringify(chip);
      assert.match(chip.name, /^long-?\S*…\S*tools$/, at);
      assert.ok(chip.chipFits && chip.nameFits, `the model chip is cut: ${at}`);
      assert.ok(chip.icon, `the channel's icon is not shown: ${at}`);
      // the channel stays readable text under the name: whole here (its line alone fits; abbreviated only when it does not)
      assert.equal(chip.channel, 'economical', at);
      assert.ok(chip.channelFits, `the channel's word is cut: ${at}`);
      assert.match(chip.title, /^Model long-context-tools, channel economical\./, at);
      mkdirSync(join(repoRoot(), 'test-results', 'screenshots'), { recursive: true });
      await wb.page.locator('.part.sidebar').screenshot({ path: join(repoRoot(), 'test-results', 'screenshots', 'chat-290-long-model.png') });
    } finally {
      await sidebarWidth(520);
    }
  });

  it('Regenerate shows the focus ring when the keyboard reaches it', async () => {
    const regenerate = chat.locator('.message-regenerate:not([hidden])').last();
    // Keyboard use first (the browser shows :focus-visible on focus that follows keys), then
    // the focus moves to Regenerate.
    await message().focus();
    await wb.page.keyboard.press('Shift');
    await regenerate.focus();
    const outline = await regenerate.evaluate((el) => {
      const s = getComputedStyle(el);
      return { focused: el.ownerDocument.activeElement === el, visible: el.matches(':focus-visible'), style: s.outlineStyle, width: s.outlineWidth };
    });
    assert.deepEqual(outline, { focused: true, visible: true, style: 'solid', width: '1px' });
    await regenerate.blur();
  });
});
