// Every runtime string a person sees goes through vscode.l10n.t, and the English bundle
// (media/l10n/bundle.l10n.json, package.json "l10n") holds every key the source uses.
// Refresh the bundle after adding or changing a message:
//   MODELGATE_WRITE_L10N_BUNDLE=1 npm run test:unit -- --grep l10n
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/paths';
import {
  coreSourceFiles,
  englishBundle,
  hostSourceFiles,
  l10nCalls,
  placeholders,
  plainCoreSinks,
  plainSinks,
  plainWebviewSinks,
  USER_FACING_CORE,
  webviewSourceFiles,
} from './runtimeScan';

const root = repoRoot();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { l10n?: string };
const bundleDir = join(root, manifest.l10n ?? 'media/l10n');
const bundleFile = join(bundleDir, 'bundle.l10n.json');
const files = hostSourceFiles(root);
// src/core's l10n.t (src/core/l10n.ts, wired to vscode.l10n.t) and the webview's (src/webview/panelL10n.ts,
// given the bundle by the host) look their messages up in the same bundle.
const calls = l10nCalls(root, [...files, ...coreSourceFiles(root), ...webviewSourceFiles(root)]);
const fmt = (f: { file: string; line: number; text: string }) => `${f.file}:${f.line}: ${f.text}`;

describe('l10n: runtime strings go through vscode.l10n.t', () => {
  it('scans the host source (chat, agent tools, workspace edits, images, status bar, lm, completions, services, shared helpers, onboarding, spending view)', () => {
    for (const dir of [
      'src/chat/',
      'src/agentTools/',
      'src/workspaceEdits/',
      'src/images/',
      'src/statusBar/',
      'src/lm/',
      'src/completions/',
      'src/onboarding/',
      'src/services/',
      'src/shared/',
      'src/spendingView/',
    ]) {
      assert.ok(
        files.some((f) => f.startsWith(join(root, dir))),
        dir,
      );
    }
    assert.ok(!files.some((f) => f.includes('/src/core/') || f.includes('/src/webview/')));
    assert.ok(calls.length > 50, `only ${calls.length} l10n.t calls found`);
  });

  it('no notification, button, picker/input/progress title, placeholder, prompt, status-bar text, attachment chip or reason a chip could not be attached is a plain literal', () => {
    assert.deepEqual(plainSinks(root, files).map(fmt), [], 'wrap these in vscode.l10n.t(...) with {0} placeholders');
  });

  it('src/core: no GatewayError message, result message/problem/label/detail or returned sentence of a user-facing module is a plain literal', () => {
    const core = coreSourceFiles(root);
    for (const name of USER_FACING_CORE)
      assert.ok(
        core.some((f) => f.endsWith(`/src/core/${name}`)),
        name,
      );
    assert.deepEqual(plainCoreSinks(root, core).map(fmt), [], 'wrap these in l10n.t(...) from src/core/l10n.ts, whole sentences with {0} placeholders');
  });

  it('src/webview: no textContent/title/placeholder/aria-label (property, setAttribute, h()/append() text) is a plain literal', () => {
    assert.deepEqual(plainWebviewSinks(root, webviewSourceFiles(root)).map(fmt), [], 'wrap these in l10n.t(...) from src/webview/panelL10n.ts');
  });

  it('every vscode.l10n.t message is a literal (so it can be a bundle key)', () => {
    assert.deepEqual(calls.filter((c) => c.key === undefined).map(fmt), []);
  });

  it('package.json points "l10n" at a folder the .vsix ships', () => {
    assert.equal(manifest.l10n, './media/l10n');
    const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!media\/l10n\/\*\.json$/m);
  });

  it('bundle.l10n.json holds exactly the messages of the source', () => {
    const expected = englishBundle(calls);
    if (process.env.MODELGATE_WRITE_L10N_BUNDLE) writeFileSync(bundleFile, JSON.stringify(expected, null, 2) + '\n');
    assert.ok(existsSync(bundleFile), `${bundleFile} is missing: run MODELGATE_WRITE_L10N_BUNDLE=1 npm run test:unit -- --grep l10n`);
    const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as Record<string, string>;
    const missing = Object.keys(expected).filter((k) => !(k in bundle));
    const stale = Object.keys(bundle).filter((k) => !(k in expected));
    assert.deepEqual(
      { missing, stale },
      { missing: [], stale: [] },
      'bundle.l10n.json is out of date: run MODELGATE_WRITE_L10N_BUNDLE=1 npm run test:unit -- --grep l10n',
    );
  });

  it('each translation bundle only has known keys, with the same {n} placeholders', () => {
    const expected = englishBundle(calls);
    for (const name of readdirSync(bundleDir).filter((n) => /^bundle\.l10n\.[\w-]+\.json$/.test(n))) {
      const translated = JSON.parse(readFileSync(join(bundleDir, name), 'utf8')) as Record<string, string>;
      for (const [key, value] of Object.entries(translated)) {
        assert.ok(key in expected, `${name}: "${key}" is not a message of the source`);
        assert.deepEqual(placeholders(value), placeholders(key), `${name}: placeholders of "${key}"`);
      }
    }
  });
});

describe('l10n: the runtime string scanner', () => {
  const scan = (source: string) => plainSinks('/r', ['/r/src/x.ts'], () => source).map((f) => f.text);

  it('catches literals in messages, buttons, options and status-bar fields', () => {
    const found = scan(`
      vscode.window.showErrorMessage('Something failed', 'Retry');
      vscode.window.showWarningMessage(\`Delete \${t}?\`, { modal: true, detail: 'Gone for good.' });
      vscode.window.showInputBox({ title: 'Key', prompt: reason + ' Paste it', placeHolder: ok ? 'a' : 'the key' });
      vscode.window.withProgress({ location: 1, title: 'Working' }, f);
      item.text = \`$(key) Set key\`;
      item.tooltip = 'Click to switch';
      qp.placeholder = 'Pick one';
      return { problem: \`Nothing in \${name}.\` };
      return { id, kind: 'diagnostics', label: \`Problems: \${path}\`, contexts };
    `);
    assert.equal(found.length, 13, found.join('\n'));
  });

  it('leaves l10n.t calls, variables and text without words alone', () => {
    const found = scan(`
      vscode.window.showErrorMessage(vscode.l10n.t('Something failed: {0}', e), retry);
      vscode.window.showInputBox({ title: l10n.t('Key'), prompt: (reason ? reason + ' ' : '') + vscode.l10n.t('Paste it'), placeHolder });
      item.text = \`\${icon} \${model} · \${channel}\`;
      item.text = '$(sync~spin)';
      item.tooltip = md;
      return { problem: vscode.l10n.t('Nothing in {0}.', name) };
      return { id, kind: 'selection', label: \`\${path}:\${first}-\${last}\`, contexts };
      ranges.push({ range, label: 'nothing selected' });
    `);
    assert.deepEqual(found, []);
  });

  it('src/core: catches GatewayError messages, result messages and returned sentences with words', () => {
    const core = (source: string, name = 'client/gatewayError.ts') => plainCoreSinks('/r', [`/r/src/core/${name}`], () => source).map((f) => f.text);
    const found = core(`
      throw new GatewayError('auth', 'The key is wrong.');
      const e = new GatewayError('network', \`Could not reach \${peer} (\${detail}).\`, { code });
      return { ok: false, message: \`The URL "\${raw}" is not valid. \${hint}\` };
      return { problem: bad ? 'is not a channel' : x };
      export const INFO = { a: { id: 'a', label: 'Default' }, b: { get detail() { return 'Picks the channel.'; } } };
      export function waitWords(s: number) { return \`in \${s} s, or later\`; }
    `);
    assert.equal(found.length, 7, found.join('\n'));
    // Returned sentences only count in the user-facing modules; the other rules everywhere.
    assert.deepEqual(core(`export function label() { return 'chat panel'; }`, 'spend/spendBook.ts'), []);
    assert.equal(core(`throw new GatewayError('network', 'The stream was cut.');`, 'chatStream.ts').length, 1);
  });

  it('src/core: leaves l10n.t, units, ids, zod diagnostics and composed parts alone', () => {
    const found = plainCoreSinks(
      '/r',
      ['/r/src/core/imageBytes.ts'],
      () => `
      throw new GatewayError('auth', l10n.t('The key is wrong ({0}).', status), { retryable: false });
      throw new GatewayError(kind, message);
      return { ok: false, message: \`\${l10n.t('No URL is set.')} \${hint()}\` };
      if (bytes < 1024 * 1024) return \`\${kb} KB\`;
      if (png) return 'png';
      return /[.!?]$/.test(text) ? text : \`\${text}.\`;
      const schema = z.array(x).min(1, { message: 'the response contains no images' });
      export const INFO = { a: { id: 'a', get label() { return l10n.t('Default'); } } };
      export const MODELS = [{ kind: 'chat', id: 'flagship-text', label: 'Flagship (text)' }];
      if (x) return 'rate_limit';
    `,
    ).map((f) => f.text);
    assert.deepEqual(found, []);
  });

  it('src/webview: catches words in DOM text properties, text attributes and dom.ts builders', () => {
    const web = (source: string) => plainWebviewSinks('/r', ['/r/src/webview/x.ts'], () => source).map((f) => f.text);
    const found = web(`
      badge.textContent = 'Thinking…';
      this.total.title = text ? \`Cost so far: \${text}\` : 'Cost so far';
      input.placeholder = 'Ask a question';
      button.ariaLabel = 'Copy code';
      button.setAttribute('aria-label', 'Copy code');
      button.setAttribute('title', \`Insert \${n} lines\`);
      const t = doc.createTextNode('Nothing here yet');
      const b = h(doc, 'button', { className: 'x', text: 'Stop', attrs: { 'aria-label': 'Stop the answer', title: 'Stop' } }, ['Stop now']);
      append(el, [h(doc, 'span'), 'more words']);
      setAttrs(el, { placeholder: 'Type here' });
    `);
    assert.equal(found.length, 13, found.join('\n'));
  });

  it('src/webview: leaves l10n.t, variables, ids, icons and non-text attributes alone', () => {
    const found = plainWebviewSinks(
      '/r',
      ['/r/src/webview/x.ts'],
      () => `
      badge.textContent = l10n.t('Thinking…');
      meta.textContent = [model, channel].filter(Boolean).join(' · ');
      code.textContent = '';
      el.title = short;
      button.setAttribute('aria-label', l10n.t('Copy {0}', what));
      el.setAttribute('class', 'icon icon-copy');
      el.setAttribute('aria-hidden', 'true');
      el.setAttribute('data-role', 'assistant message');
      const b = h(doc, 'button', { className: 'primary send', text: l10n.t('Send'), attrs: { 'data-kind': 'send now', role: 'button' } }, [icon('send'), label]);
    `,
    );
    assert.deepEqual(found, []);
  });

  it('reads the keys of l10n.t calls, and flags a non-literal one', () => {
    const found = l10nCalls(
      '/r',
      ['/r/src/x.ts'],
      () => `vscode.l10n.t('A {0}', x); l10n.t({ message: 'B', args: [], comment: 'c' }); vscode.l10n.t(someVar);`,
    );
    assert.deepEqual(
      found.map((c) => c.key),
      ['A {0}', 'B', undefined],
    );
  });
});
