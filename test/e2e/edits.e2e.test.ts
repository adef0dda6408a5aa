// The model's edits reviewed in the real web workbench: an answer (scripted through the
// gateway simulator) edits two files, creates one and edits a package.json; the panel lists them
// with their +/- counts, the package.json with its warning; the user opens a diff, keeps one file,
// undoes another, keeps the new one (the package.json stays to review), then restores the files to
// before the answer (the modal lists what it reverts). An edit of `.env` asks in a card of the
// answer, Refuse focused as the default. Screenshots of the panel in light and dark go to
// test-results/screenshots/ (edits-light.png, edits-reviewed-light.png, edits-dark.png,
// edits-secret-light.png, edits-secret-dark.png).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-edits-51c8a2';
const A = 'export const alpha = 1;\nexport const beta = 2;\n';
const B = 'export function greet(name: string) {\n  return `Hello ${name}`;\n}\n';
const ENV = 'API_TOKEN=abc\n';
const PKG = '{\n  "name": "tools",\n  "version": "1.0.0"\n}\n';
const call = (name: string, args: unknown) => `[[call:${name} ${JSON.stringify(args)}]]`;
const SCRIPT =
  'Rename things ' +
  call('edit_file', {
    path: 'src/a.ts',
    edits: [
      { search: 'alpha = 1', replace: 'alpha = 10' },
      { search: 'beta = 2', replace: 'beta = 20' },
    ],
  }) +
  ' ' +
  call('edit_file', { path: 'src/b.ts', edits: [{ search: '  return `Hello ${name}`;\n', replace: '  const text = `Hi ${name}`;\n  return text;\n' }] }) +
  ' ' +
  call('create_file', { path: 'src/c.ts', content: 'export const c = 3;\n' }) +
  ' ' +
  call('edit_file', { path: 'tools/package.json', edits: [{ search: '"1.0.0"', replace: '"1.0.1"' }] });

describe('e2e edits: review the model’s edits in the panel, then restore', function () {
  this.timeout(240_000);
  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: { ...gatewaySettings(gw), 'workbench.colorTheme': 'Default Light Modern' },
    workspaceFiles: { 'src/a.ts': A, 'src/b.ts': B, '.env': ENV, 'tools/package.json': PKG },
    viewport: { width: 1280, height: 860 },
  }));

  let wb: Workbench;
  let chat: Frame;
  const button = (name: string) => chat.getByRole('button', { name, exact: true });
  const onDisk = (rel: string) => (existsSync(join(wb.workspace, rel)) ? readFileSync(join(wb.workspace, rel), 'utf8') : undefined);
  const until = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 150 && !check(); i++) await wb.page.waitForTimeout(100);
    assert.ok(check(), what);
  };
  const shots = join(repoRoot(), 'test-results', 'screenshots');

  /** An answer that edits .env: the card names the file, Refuse has the focus; `refuse` answers it. */
  async function secretCard(shot: string, refuse: () => Promise<void>): Promise<void> {
    await fillField(
      chat.getByRole('textbox', { name: 'Message' }),
      `Change the token ${call('edit_file', { path: '.env', edits: [{ search: 'abc', replace: 'pwned' }] })}`,
    );
    await button('Send').click();
    const card = chat.locator('.approval-card');
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await card.innerText(), /The model wants to change "\.env", which may contain secrets\.[\s\S]*File: \.env/);
    const focused = await chat.evaluate(() => document.activeElement?.textContent ?? '');
    assert.equal(focused, 'Refuse', 'Refuse is the focused default');
    mkdirSync(shots, { recursive: true });
    await wb.page.locator('.part.sidebar').screenshot({ path: join(shots, shot) });
    await refuse();
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
    assert.equal(onDisk('.env'), ENV, 'nothing written');
  }

  before(async () => {
    wb = fixture.get();
    chat = await wb.openChat();
    await wb.setKey(KEY);
  });

  it('lists the files, opens a diff, keeps one, undoes another, and restores the answer', async () => {
    await secretCard('edits-secret-light.png', () => button('Refuse').click());
    await fillField(chat.getByRole('textbox', { name: 'Message' }), SCRIPT);
    await button('Send').click();
    const card = chat.locator('.edit-answer');
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
    const rows = card.locator('.edit-file');
    assert.deepEqual(
      (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
      [
        'src/a.ts +2 -2 Keep Undo',
        'src/b.ts +2 -1 Keep Undo',
        'src/c.ts new +1 -0 Keep Undo',
        'tools/package.json +1 -1 Keep Undo ⚠ package configuration: scripts and registries run at install',
      ],
      'a file that configures packages carries its warning',
    );
    assert.equal(onDisk('src/a.ts'), A, 'nothing saved before Keep');
    assert.equal(onDisk('src/c.ts'), undefined);
    assert.ok(await chat.getByRole('checkbox', { name: /Auto-accept/ }).isVisible(), 'the auto-accept toggle is there');
    assert.equal(await chat.getByRole('checkbox', { name: /Auto-accept/ }).isChecked(), false, 'off by default');

    // the diff of a.ts opens in the editor area
    await button('Open diff: src/a.ts').click();
    await wb.page.locator('.tabs-container .tab', { hasText: 'a.ts ↔' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await wb.page
      .locator('.monaco-diff-editor .view-lines', { hasText: /alpha.=.10/ })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    mkdirSync(shots, { recursive: true });
    await wb.page.screenshot({ path: join(shots, 'edits-light.png') });

    await button('Keep src/a.ts').click();
    await until(() => onDisk('src/a.ts') === 'export const alpha = 10;\nexport const beta = 20;\n', 'Keep saved a.ts');
    // Keep ends after the disk write (the editor reads the file again, then its diff closes): wait
    // for the row, or the diff's closing takes the focus from whatever the test opens next
    await rows.nth(0).locator('.edit-state', { hasText: 'kept' }).waitFor({ timeout: 30_000 });
    await button('Undo src/b.ts').click();
    await rows.nth(1).locator('.edit-state', { hasText: 'undone' }).waitFor({ timeout: 30_000 });
    assert.equal(onDisk('src/b.ts'), B, 'Undo wrote nothing');
    await button('Keep src/c.ts').click();
    await until(() => onDisk('src/c.ts') === 'export const c = 3;\n', 'Keep created c.ts');
    await rows.nth(2).locator('.edit-state', { hasText: 'kept' }).waitFor({ timeout: 30_000 });
    assert.equal(onDisk('tools/package.json'), PKG, 'package.json is still to review');
    await wb.page.locator('.part.sidebar').screenshot({ path: join(shots, 'edits-reviewed-light.png') });

    // dark theme, the reviewed state
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput('Dark Modern');
    await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: 30_000 });
    await wb.page.locator('.part.sidebar').screenshot({ path: join(shots, 'edits-dark.png') });
    await secretCard('edits-secret-dark.png', () => wb.page.keyboard.press('Enter'));

    await button('Restore files to before this answer').click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /Restore 2 file\(s\) to before this answer\?/);
    assert.match(text, /src\/a\.ts: put back its text from before this answer/);
    assert.match(text, /src\/c\.ts: delete it \(this answer created it\)/);
    await dialog.getByRole('button', { name: 'Restore Files' }).click();
    await until(() => onDisk('src/a.ts') === A && onDisk('src/c.ts') === undefined, 'restored a.ts and removed c.ts');
    await card.getByText('Restored to before this answer').waitFor({ timeout: 30_000 });
  });
});
