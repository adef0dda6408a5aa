// Apply in the real web workbench: an answer names src/calc.ts for its code block while another
// file is open; clicking Apply opens the diff of calc.ts with Accept and Discard in the editor
// title and a status-bar entry; Accept writes the change and both go away. A screenshot of the
// diff goes to test-results/screenshots/apply-diff.png.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { startGateway, type RunningGateway } from '../gateway/index';
import { useWorkbench, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-apply-3f9a10';
const CALC =
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function mul(a: number, b: number): number {\n  return a * b;\n}\n';
const BLOCK = 'export function mul(a: number, b: number): number {\n  const product = a * b;\n  return product;\n}';

describe('e2e apply: Accept and Discard in the editor title', function () {
  this.timeout(240_000);
  let gw: RunningGateway;

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
  });

  const fixture = useWorkbench(() => ({
    settings: { 'modelgate.baseUrl': gw.baseUrl, 'workbench.colorTheme': 'Default Light Modern' },
    workspaceFiles: { 'src/calc.ts': CALC, 'src/other.ts': 'export const other = 1;\n' },
    viewport: { width: 1400, height: 860 },
  }));

  after(async () => {
    await gw?.close();
  });

  let wb: Workbench;
  before(() => {
    wb = fixture.get();
  });

  it('Apply opens the diff of the named file with Accept/Discard and a status-bar entry; Accept ends both', async () => {
    const chat: Frame = await wb.openChat();
    await wb.setKey(KEY);

    // another file is the active editor
    await wb.quickOpen('other.ts');

    await fillField(chat.getByRole('textbox', { name: 'Message' }), `[[echo]]Use a local:\n\n\`\`\`ts src/calc.ts\n${BLOCK}\n\`\`\`\n`);
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    const answer = chat.getByRole('log').getByRole('article', { name: 'Assistant' }).last();
    await answer.getByRole('button', { name: 'Apply' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await answer.getByRole('button', { name: 'Apply' }).first().click();

    const accept = wb.page.locator('.editor-actions [aria-label^="Accept Proposed Change"]');
    const discard = wb.page.locator('.editor-actions [aria-label^="Discard Proposed Change"]');
    await accept.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await discard.first().isVisible(), true, 'Discard sits beside Accept');
    await wb.page.locator('.tab.active', { hasText: 'calc.ts' }).waitFor({ state: 'visible' });
    const status = wb.statusBarItem(/Review change: src\/calc\.ts/);
    await status.first().waitFor({ state: 'visible', timeout: 10_000 });

    const dir = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(dir, { recursive: true });
    await wb.screenshot(join(dir, 'apply-diff.png'));

    await accept.first().click();
    await accept.first().waitFor({ state: 'hidden', timeout: 30_000 });
    await status.first().waitFor({ state: 'hidden', timeout: 10_000 });
    // the changed file is open, with the new code in it
    await wb.page.locator('.monaco-editor .view-lines', { hasText: 'const product = a * b;' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  });
});
