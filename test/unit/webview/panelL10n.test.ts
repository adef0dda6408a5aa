// The chat webview's strings: the host passes its loaded translation (vscode.l10n.bundle) into
// the page as data-l10n; src/webview/panelL10n.ts reads it, and falls back to English on anything odd.
import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { buildChatHtml } from '../../../src/chat/view/chatHtml';
import { l10n, readL10nBundle, setL10nBundle } from '../../../src/webview/panelL10n';

const page = (bundle?: Record<string, unknown>) =>
  new JSDOM(
    buildChatHtml({
      cspSource: "'self' https://x.vscode-cdn.net",
      nonce: 'abcdefghijklmnop0123',
      scriptUri: 'https://x/webview.js',
      styleUri: 'https://x/chat.css',
      l10nBundle: bundle,
    }),
  ).window.document;

describe('l10n: the webview bundle passed in by the host', () => {
  afterEach(() => setL10nBundle(undefined));

  it('round-trips through the page (quotes and angle brackets escaped)', () => {
    const bundle = { Copy: 'Kopieren', '{0} prompt ({1} cached)': '{0} Prompt ({1} aus dem Cache)', 'x"><script>': '<b>"' };
    const doc = page(bundle);
    assert.equal(doc.querySelectorAll('script').length, 1);
    assert.deepEqual({ ...readL10nBundle(doc) }, bundle);
  });

  it('no bundle (English), bad JSON, an array or non-string values give English', () => {
    assert.deepEqual({ ...readL10nBundle(page()) }, {});
    const doc = page();
    doc.body.setAttribute('data-l10n', '{not json');
    assert.deepEqual({ ...readL10nBundle(doc) }, {});
    doc.body.setAttribute('data-l10n', '["a"]');
    assert.deepEqual({ ...readL10nBundle(doc) }, {});
    doc.body.setAttribute('data-l10n', '{"a": 1, "b": {"message": "B!", "comment": ["c"]}, "__proto__": "p"}');
    assert.deepEqual(Object.entries(readL10nBundle(doc)).sort(), [
      ['__proto__', 'p'],
      ['b', 'B!'],
    ]);
  });

  it('l10n.t translates and fills placeholders; unknown messages and inherited names stay English', () => {
    setL10nBundle({ '{0} prompt ({1} cached)': '{0} Prompt ({1} aus dem Cache)' });
    assert.equal(l10n.t('{0} prompt ({1} cached)', '1,200', 300), '1,200 Prompt (300 aus dem Cache)');
    assert.equal(l10n.t('{0} completion', 5), '5 completion');
    assert.equal(l10n.t('toString'), 'toString');
    assert.equal(l10n.t('constructor'), 'constructor');
  });
});
