// The one HTML shell of the webviews (chat panel, spending page): nonce, CSP, escaping, page.
import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import {
  checkCspSource,
  checkNonce,
  contentSecurityPolicy,
  escapeHtml,
  makeNonce,
  renderWebviewShell,
  type ShellOptions,
} from '../../../src/core/webviewShell';

const cspSource = "'self' https://*.vscode-cdn.net";
const nonce = 'r4nd0mN0nceVALUE1234567890abcdef';
const linked: ShellOptions = {
  cspSource,
  nonce,
  title: 'T',
  style: { href: 'https://x.vscode-cdn.net/a.css' },
  script: { src: 'https://x.vscode-cdn.net/a.js' },
};
const inline: ShellOptions = { cspSource, nonce, title: 'T', style: { inline: 'body { color: red; }' }, script: { inline: 'window.x = 1;' } };

function parse(html: string): Document {
  return new JSDOM(html).window.document as unknown as Document;
}

function policyOf(doc: Document): string {
  const metas = doc.querySelectorAll('meta[http-equiv="Content-Security-Policy"]');
  assert.equal(metas.length, 1);
  assert.ok(doc.head.contains(metas[0]!), 'the policy is in <head>');
  return metas[0]!.getAttribute('content')!;
}

describe('webviewShell', () => {
  describe('makeNonce', () => {
    it('makes 128 random bits in base64, fresh each time, accepted by checkNonce', () => {
      const seen = new Set<string>();
      for (let i = 0; i < 50; i++) {
        const n = makeNonce();
        assert.match(n, /^[A-Za-z0-9+/]{22}==$/);
        assert.equal(checkNonce(n), n);
        seen.add(n);
      }
      assert.equal(seen.size, 50);
    });
  });

  describe('checkNonce and checkCspSource', () => {
    it('refuse a nonce that could rewrite the policy', () => {
      for (const bad of ["abc' 'unsafe-inline' 'x", 'short', 'abcdefghijklmnop q', 'abcdefghijklmnop;', 'abcdefghijklmnop"', '']) {
        assert.throws(() => checkNonce(bad), /nonce/, bad);
      }
      assert.equal(checkNonce('abcdefghijklmnop1234'), 'abcdefghijklmnop1234');
    });

    it("accept 'self' and host sources, never another keyword or directive", () => {
      for (const bad of [
        "x; script-src 'unsafe-eval'",
        "'self' 'unsafe-eval'",
        "'unsafe-inline'",
        "'self'\nscript-src *",
        "'none'",
        '',
        '   ',
        'https://a"b',
      ]) {
        assert.throws(() => checkCspSource(bad), /cspSource/, JSON.stringify(bad));
      }
      for (const good of [cspSource, 'https://*.vscode-cdn.net', 'vscode-resource:', "'self'"]) assert.equal(checkCspSource(good), good);
    });
  });

  describe('contentSecurityPolicy', () => {
    it("builds the chat panel's and the spending page's policies exactly", () => {
      assert.equal(
        contentSecurityPolicy({ cspSource, nonce, styles: 'cspSource', images: 'cspSource+data' }),
        `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; script-src 'nonce-${nonce}'; font-src ${cspSource};`,
      );
      assert.equal(
        contentSecurityPolicy({ cspSource, nonce, styles: 'nonce' }),
        `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src ${cspSource};`,
      );
      assert.equal(
        contentSecurityPolicy({ cspSource, nonce, styles: 'nonce', images: 'cspSource' }),
        `default-src 'none'; img-src ${cspSource}; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src ${cspSource};`,
      );
    });

    it('has no unsafe-eval, no unsafe-inline and no remote host beyond cspSource, whatever the options', () => {
      for (const styles of ['cspSource', 'nonce'] as const) {
        for (const images of ['none', 'cspSource', 'cspSource+data'] as const) {
          const csp = contentSecurityPolicy({ cspSource, nonce, styles, images });
          assert.match(csp, /^default-src 'none'; /);
          assert.doesNotMatch(csp, /unsafe-|https?:\/\/(?!\*\.vscode-cdn\.net)|\*(?!\.vscode-cdn)/, csp);
          assert.match(csp, new RegExp(`script-src 'nonce-${nonce}';`));
        }
      }
    });

    it('refuses a hostile nonce or cspSource', () => {
      assert.throws(() => contentSecurityPolicy({ cspSource, nonce: "abc' 'unsafe-inline' 'abcdefgh", styles: 'nonce' }), /nonce/);
      assert.throws(() => contentSecurityPolicy({ cspSource: "'self'; script-src *", nonce, styles: 'nonce' }), /cspSource/);
    });
  });

  describe('escapeHtml', () => {
    it('escapes the five characters that can leave text or a quoted attribute', () => {
      assert.equal(escapeHtml(`"><script>alert('x')</script>&`), '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;');
      assert.equal(escapeHtml('plain text · 1'), 'plain text · 1');
      assert.equal(escapeHtml('&amp;'), '&amp;amp;');
    });
  });

  describe('renderWebviewShell', () => {
    it('links a stylesheet and loads a script by src, both under the nonce; no inline code', () => {
      const doc = parse(renderWebviewShell(linked));
      assert.equal(policyOf(doc), `default-src 'none'; style-src ${cspSource}; script-src 'nonce-${nonce}'; font-src ${cspSource};`);
      assert.equal(doc.documentElement.getAttribute('lang'), 'en');
      assert.equal(doc.querySelector('meta[charset]')?.getAttribute('charset'), 'UTF-8');
      assert.ok(doc.querySelector('meta[name="viewport"]'));
      assert.equal(doc.title, 'T');
      assert.equal(doc.querySelector('link[rel="stylesheet"]')?.getAttribute('href'), 'https://x.vscode-cdn.net/a.css');
      const scripts = Array.from(doc.querySelectorAll('script'));
      assert.equal(scripts.length, 1);
      assert.equal(scripts[0]!.getAttribute('nonce'), nonce);
      assert.equal(scripts[0]!.getAttribute('src'), 'https://x.vscode-cdn.net/a.js');
      assert.equal(scripts[0]!.textContent, '');
      assert.equal(doc.querySelectorAll('style, [style]').length, 0);
    });

    it('puts an inline style and script under the nonce, and the body before the script', () => {
      const doc = parse(renderWebviewShell({ ...inline, body: '<h1 id="h">Hi</h1>' }));
      assert.equal(policyOf(doc), `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src ${cspSource};`);
      assert.equal(doc.querySelectorAll('link').length, 0);
      const style = doc.querySelectorAll('style');
      assert.equal(style.length, 1);
      assert.equal(style[0]!.getAttribute('nonce'), nonce);
      assert.match(style[0]!.textContent!, /color: red/);
      const script = doc.querySelectorAll('script');
      assert.equal(script.length, 1);
      assert.equal(script[0]!.getAttribute('nonce'), nonce);
      assert.equal(script[0]!.getAttribute('src'), null);
      assert.match(script[0]!.textContent!, /window\.x = 1;/);
      assert.equal(doc.body.firstElementChild?.id, 'h');
      assert.equal(doc.body.lastElementChild, script[0]);
    });

    it('escapes the title, the lang, the URIs and the data- attributes; drops undefined data', () => {
      const hostile = '</script><script>alert(1)</script>"\'&';
      const html = renderWebviewShell({
        ...linked,
        title: hostile,
        lang: 'en" onload="x',
        style: { href: `x" onload="alert(1)` },
        script: { src: `y"></script><script>alert(2)</script>` },
        bodyData: { state: JSON.stringify({ t: hostile }), gone: undefined },
      });
      const doc = parse(html);
      assert.equal(doc.querySelectorAll('script').length, 1, 'no script was injected');
      assert.equal(doc.title, hostile);
      assert.equal(doc.documentElement.getAttribute('lang'), 'en" onload="x');
      assert.equal(doc.querySelector('link')?.getAttribute('href'), 'x" onload="alert(1)');
      assert.equal(doc.querySelector('[onload]'), null);
      assert.deepEqual(JSON.parse(doc.body.getAttribute('data-state')!), { t: hostile });
      assert.equal(doc.body.hasAttribute('data-gone'), false);
    });

    it('refuses a hostile nonce, cspSource, data- name or inline code that closes its element', () => {
      assert.throws(() => renderWebviewShell({ ...linked, nonce: 'x" onload="alert(1)" y="abcdefgh' }), /nonce/);
      assert.throws(() => renderWebviewShell({ ...inline, nonce: 'short' }), /nonce/);
      assert.throws(() => renderWebviewShell({ ...linked, cspSource: "'self' 'unsafe-eval'" }), /cspSource/);
      assert.throws(() => renderWebviewShell({ ...linked, cspSource: "x; script-src 'unsafe-inline'" }), /cspSource/);
      assert.throws(() => renderWebviewShell({ ...linked, bodyData: { 'x onload': '1' } }), /data-/);
      assert.throws(() => renderWebviewShell({ ...linked, bodyData: { 'a="b"': '1' } }), /data-/);
      assert.throws(() => renderWebviewShell({ ...inline, script: { inline: 'a</SCRIPT><script>alert(1)' } }), /inline script/);
      assert.throws(() => renderWebviewShell({ ...inline, style: { inline: 'a</style><script>alert(1)</script>' } }), /inline style/);
      assert.throws(() => renderWebviewShell({ ...inline, script: { inline: '<!-- <script>' } }), /inline script/);
    });
  });
});
