// Every runtime string goes through vscode.l10n.t, seen in the real workbench: the server
// runs with a display language (code-server --locale) for which the installed extension carries
// a pseudo translation, generated here from the English bundle and package.nls.json (every
// message wrapped in ⟦…⟧, placeholders kept). A text of the extension that shows without its
// brackets was not routed through l10n (or is missing from the bundle). Covered: the command
// palette (package.nls), the status bar (host l10n.t), the chat panel's own texts (the webview's
// bundle), an error a wrong key produces (src/core's l10n.t) and the spending page. Screenshots
// go to test-results/screenshots/locale-*.png.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import type { Profile } from '../harness/code-server';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';
import { fillField } from './typing';

const KEY = 'sk-e2e-locale-5c2e91';
const LOCALE = 'qps-ploc';
const SHOTS = join(repoRoot(), 'test-results', 'screenshots');

const wrap = (messages: Record<string, string>, value: (key: string, english: string) => string) =>
  Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, `⟦${value(k, v)}⟧`]));

/**
 * VS Code resolves a display language only when a language pack provides it (else it falls back
 * to English, and extensions get their English bundle). An empty pack for LOCALE: VS Code's own
 * texts stay English, the extension's come from its bundle for LOCALE. Registered the way an
 * install registers it: in extensions.json and the user data's languagepacks.json.
 */
function installEmptyLanguagePack(profile: Profile): void {
  const id = 'modelgate-test.pseudo-language-pack';
  const folder = join(profile.extensionsDir, `${id}-1.0.0`);
  mkdirSync(join(folder, 'translations'), { recursive: true });
  const translations = join(folder, 'translations', 'main.i18n.json');
  writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({
      name: 'pseudo-language-pack',
      publisher: 'modelgate-test',
      version: '1.0.0',
      engines: { vscode: '^1.90.0' },
      categories: ['Language Packs'],
      contributes: {
        localizations: [
          {
            languageId: LOCALE,
            languageName: 'Pseudo',
            localizedLanguageName: 'Pseudo',
            translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
          },
        ],
      },
    }),
  );
  const listFile = join(profile.extensionsDir, 'extensions.json');
  const list = JSON.parse(readFileSync(listFile, 'utf8')) as unknown[];
  list.push({
    identifier: { id },
    version: '1.0.0',
    location: { $mid: 1, path: folder, scheme: 'file' },
    relativeLocation: `${id}-1.0.0`,
    metadata: { installedTimestamp: Date.now(), source: 'vsix' },
  });
  writeFileSync(listFile, JSON.stringify(list));
  const packs = {
    [LOCALE]: {
      hash: 'modelgate-test-1',
      extensions: [{ extensionIdentifier: { id }, version: '1.0.0' }],
      translations: { vscode: translations },
      label: 'Pseudo',
    },
  };
  writeFileSync(join(profile.userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}

/** Writes the pseudo translation into the installed copy of the extension. */
function installPseudoTranslation(profile: Profile): void {
  installEmptyLanguagePack(profile);
  const dir = readdirSync(profile.extensionsDir).find((n) => n.startsWith('modelgate.modelgate'));
  if (!dir) throw new Error(`the extension is not installed in ${profile.extensionsDir}`);
  const root = join(profile.extensionsDir, dir);
  const bundle = JSON.parse(readFileSync(join(root, 'media', 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
  writeFileSync(join(root, 'media', 'l10n', `bundle.l10n.${LOCALE}.json`), JSON.stringify(wrap(bundle, (k) => k)));
  const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  writeFileSync(join(root, `package.nls.${LOCALE}.json`), JSON.stringify(wrap(nls, (_k, v) => v)));
}

describe('e2e locale: a pseudo translation reaches every kind of text in the real workbench', function () {
  this.timeout(300_000);

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: { ...gatewaySettings(gw), 'workbench.colorTheme': 'Default Light Modern' },
    locale: LOCALE,
    prepareProfile: installPseudoTranslation,
    viewport: { width: 1280, height: 860 },
  }));

  let wb: Workbench;
  let chat: Frame;
  const gw = () => fixture.gateway();
  /** `text` without its ⟦…⟧ parts (two levels: a translated message inside another). */
  const bare = (text: string) => text.replace(/⟦[^⟦⟧]*⟧/g, '').replace(/⟦[^⟦⟧]*⟧/g, '');

  before(() => {
    wb = fixture.get();
  });

  it('lists the commands under their translated titles (package.nls)', async () => {
    const labels = await wb.findCommands('Open Chat', { expect: 'Modelgate: ⟦Open Chat⟧', timeoutMs: 60_000 });
    assert.ok(labels.includes('Modelgate: ⟦Open Chat⟧'), labels.join(' | '));
  });

  it('asks for the key, and the chat panel, an error and the status bar speak the language', async () => {
    await wb.runCommand('Modelgate: ⟦Open Chat⟧', { timeoutMs: 60_000 });
    chat = await wb.webviewFrame('[role="log"]', { timeoutMs: 60_000 });
    await wb.setKey(KEY, { command: 'Modelgate: ⟦Set API Key⟧', prompt: (text) => assert.match(text, /⟦/, `the key prompt: ${text}`) });

    // The webview's own texts (its bundle), an answer, then an error written by src/core.
    const message = chat.getByRole('textbox', { name: '⟦Message⟧' });
    await fillField(message, 'hello [[words:12]]');
    await chat.getByRole('button', { name: '⟦Send⟧', exact: true }).click();
    // The answer is whole once its Regenerate shows (Stop may not have shown yet right after Send).
    await chat.getByRole('button', { name: '⟦Regenerate⟧' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await chat.getByRole('button', { name: '⟦Send⟧', exact: true }).waitFor({ state: 'visible', timeout: 10_000 });
    await fillField(message, 'again [[fault:html502]]');
    await chat.getByRole('button', { name: '⟦Send⟧', exact: true }).click();
    await chat.getByText('again [[fault:html502]]').first().waitFor({ state: 'visible', timeout: 30_000 });
    const error = chat.locator('[role="alert"]').filter({ hasText: /502/ }).first();
    await error.waitFor({ state: 'visible', timeout: 90_000 });
    const errorText = (await error.innerText()).trim();
    mkdirSync(SHOTS, { recursive: true });
    await wb.screenshot(join(SHOTS, 'locale-chat.png'));
    assert.match(errorText, /^⟦/, `the gateway error: ${errorText}`);

    // Every Modelgate status bar entry names itself in the language (the model id inside stays as it is).
    const entries = wb.page.locator('.part.statusbar [id^="modelgate."]');
    const labels = await entries.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    assert.ok(labels.length > 0, 'Modelgate has status bar entries');
    for (const label of labels) assert.match(label, /⟦/, `status bar entry: ${label}`);
    assert.ok(
      gw().requests.some((r) => r.path.endsWith('/chat/completions')),
      'the chat reached the gateway',
    );
  });

  it('draws the spending page in the language, its source names included', async () => {
    await wb.runCommand('Modelgate: ⟦Show Spending⟧');
    const page = await wb.webviewFrame('#today', { timeoutMs: 60_000 });
    const text = await page.locator('#today').innerText();
    await wb.screenshot(join(SHOTS, 'locale-spending.png'));
    const tab = (await wb.page.locator('.tab.active').first().innerText()).trim();
    assert.equal(tab, '⟦Modelgate Spending⟧', 'the editor tab title');
    assert.match(text, /⟦By source⟧/, text);
    assert.match(text, /⟦chat panel⟧/, text);
    assert.match(text, /⟦By model⟧/, text);
    // What is left outside brackets is figures, model and channel ids only.
    const left = bare(text)
      .replace(/flagship-text|stable|economical|direct|default/g, ' ')
      .replace(/[\s\d$.,:·()%+-]+/g, ' ')
      .trim();
    assert.equal(left, '', `untranslated text on the spending page: ${left}`);
  });
});
