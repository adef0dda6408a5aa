// Completions as you type in the real web workbench (VS Code 1.139 in headless Chromium), against
// the simulator's completions mode: typing in the sample's src/math.ts shows ghost text in the
// editor, Tab inserts it (and the status-bar item's tooltip counts the acceptance), Escape
// dismisses it. The completions item's tooltip (today's spend, acceptance, the cost of an hour of
// typing) is shot beside the ghost text in Light Modern and Dark Modern at the default side-bar
// width (290 px): test-results/screenshots/completions-light.png and completions-dark.png.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoModelSettings } from '../gateway/demo-key';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';

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
        // with the suggestion list open, completions wait for it to close: TypeScript's list must not open on its own while the test types
        'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
      },
      workspaceFiles: { 'src/math.ts': sample('src/math.ts'), 'src/main.ts': sample('src/main.ts'), 'README.md': sample('README.md') },
    }),
    // the economical channel's first token in a quarter of a second, so the test does not wait for a realistic one
    { channels: { economical: { firstTokenMs: 250, perChunkMs: 20 } } },
  );

  let wb: Workbench;
  const shots = join(repoRoot(), 'test-results', 'screenshots');
  /** the ghost text on the cursor's line (its first piece) */
  const ghost = () => wb.page.locator('.monaco-editor .ghost-text-decoration').first();
  const editor = () => wb.page.locator('.part.editor .monaco-editor').first();
  const completionsItem = () => wb.page.locator('.part.statusbar .statusbar-item[id$="modelgate.completions"]');
  const hover = () => wb.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Modelgate completions as you type' }).first();

  async function setTheme(label: string, workbenchClass: string): Promise<void> {
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput(label);
    await wb.page.locator(`.monaco-workbench.${workbenchClass}`).waitFor({ state: 'attached', timeout: 60_000 });
  }

  /**
   * Starts a new function at the end of math.ts, keystroke by keystroke once the editor holds the
   * keyboard focus, and waits for its ghost text; returns the ghost text's first line.
   */
  async function typeForGhostText(start: string): Promise<string> {
    await wb.quickOpen('math.ts');
    await editor().locator('.view-lines').click();
    await wb.page.waitForFunction(() => !!document.querySelector('.part.editor .monaco-editor.focused') && document.hasFocus(), undefined, {
      timeout: 30_000,
      polling: 100,
    });
    await wb.page.keyboard.press('Control+End');
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.press('Enter');
    // about 11 characters a second, with the pause at the end where ghost text appears
    await wb.page.keyboard.type(start, { delay: 90 });
    const line = editor().locator('.view-line', { hasText: start }).first();
    await line.waitFor({ state: 'visible', timeout: 10_000 });
    await ghost().waitFor({ state: 'visible', timeout: 30_000 });
    // the ghost text is drawn inside the cursor's line, in pieces coloured like code: read the line after what was typed
    const shown = (await line.innerText()).replace(/\u00a0/g, ' ');
    return shown.slice(shown.indexOf(start) + start.length);
  }

  /** Hovers the completions item until its tooltip shows `text`; returns the tooltip's text. */
  async function tooltip(text: RegExp): Promise<string> {
    await completionsItem().waitFor({ state: 'visible', timeout: 30_000 });
    for (let attempt = 0; ; attempt++) {
      await completionsItem().hover();
      const shown = await hover()
        .waitFor({ state: 'visible', timeout: 10_000 })
        .then(() => hover().innerText())
        .catch(() => '');
      if (text.test(shown)) return shown;
      if (attempt >= 4) throw new Error(`the completions tooltip does not show ${text}: ${JSON.stringify(shown)}`);
      // away and back: the hover is made again from the item's current tooltip
      await wb.page.mouse.move(700, 300);
      await hover()
        .waitFor({ state: 'hidden', timeout: 10_000 })
        .catch(() => undefined);
    }
  }

  /** The side bar at the default width (290 px), dragged there by its sash if it is not. */
  async function sidebarIsDefaultWidth(): Promise<void> {
    const sidebar = wb.page.locator('.part.sidebar');
    for (let attempt = 0; attempt < 3; attempt++) {
      const box = (await sidebar.boundingBox())!;
      if (Math.abs(box.width - 290) <= 1) return;
      await wb.page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
      await wb.page.mouse.down();
      await wb.page.mouse.move(box.x + 291, box.y + box.height / 2, { steps: 8 });
      await wb.page.mouse.up();
    }
    const box = await sidebar.boundingBox();
    assert.ok(box && Math.abs(box.width - 290) <= 2, `the side bar is ${box?.width} px wide, not the default 290`);
  }

  before(async () => {
    wb = fixture.get();
    await wb.setKey(KEY);
    mkdirSync(shots, { recursive: true });
  });

  it('in Light Modern: typing shows ghost text from the gateway, the tooltip its cost, and Tab inserts it', async () => {
    await sidebarIsDefaultWidth();
    const shown = await typeForGhostText('export function med');
    assert.ok(shown.startsWith('ian('), `ghost text: ${shown}`);
    const before = await tooltip(/Today:.*for \d+ requests/s);
    assert.match(before, /about \$[0-9.]+ per hour of typing/);
    assert.match(before, /On: ghost text appears when you pause typing/);
    assert.equal(await ghost().isVisible(), true, 'the ghost text is still there while the tooltip shows');
    await wb.screenshot(join(shots, 'completions-light.png'));

    await wb.page.keyboard.press('Tab');
    await editor().locator('.view-line', { hasText: 'const sorted = [...xs].sort' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    await editor().locator('.view-line', { hasText: 'export function median(xs: number[]): number {' }).first().waitFor({ state: 'visible' });
    // VS Code ran the accept command: the acceptance is counted
    await wb.page.mouse.move(700, 300);
    assert.match(await tooltip(/Accepted:\s*1 of \d+ shown today/), /Accepted:\s*1 of/);
  });

  it('in Dark Modern: ghost text and the tooltip; Escape dismisses the ghost text', async () => {
    await setTheme('Dark Modern', 'vs-dark');
    await sidebarIsDefaultWidth();
    const shown = await typeForGhostText('export function varia');
    assert.ok(shown.startsWith('nce('), `ghost text: ${shown}`);
    await tooltip(/Today:.*for \d+ requests/s);
    await wb.screenshot(join(shots, 'completions-dark.png'));

    await wb.page.mouse.move(700, 300);
    await wb.page.keyboard.press('Escape');
    await ghost().waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await editor().locator('.view-line', { hasText: 'const m = mean(xs)' }).count(), 0, 'nothing was inserted');
  });
});
