import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { buildChatHtml } from '../../../../src/chat/view/chatHtml';

const base = {
  // the real shape of webview.cspSource in VS Code 1.139
  cspSource: "'self' https://*.vscode-cdn.net",
  nonce: 'r4nd0mN0nceVALUE1234567890abcdef',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/chat.css',
};

function parse(html: string): Document {
  return new JSDOM(html).window.document as unknown as Document;
}

describe('buildChatHtml', () => {
  it('has a CSP meta tag with the nonce and nothing looser', () => {
    const doc = parse(buildChatHtml(base));
    const metas = doc.querySelectorAll('meta[http-equiv="Content-Security-Policy"]');
    assert.equal(metas.length, 1);
    const csp = metas[0].getAttribute('content')!;
    assert.equal(
      csp,
      `default-src 'none'; img-src ${base.cspSource} data:; style-src ${base.cspSource}; script-src 'nonce-${base.nonce}'; font-src ${base.cspSource};`,
    );
    assert.doesNotMatch(csp, /unsafe-eval|unsafe-inline|https?:\/\/(?!\*\.vscode-cdn\.net)/);
    assert.ok(doc.head.contains(metas[0]), 'the policy is in <head>, before any script');
  });

  it('loads only the bundle, with the nonce, and no inline script or style', () => {
    const html = buildChatHtml(base);
    const doc = parse(html);
    const scripts = Array.from(doc.querySelectorAll('script'));
    assert.equal(scripts.length, 1);
    assert.equal(scripts[0].getAttribute('nonce'), base.nonce);
    assert.equal(scripts[0].getAttribute('src'), base.scriptUri);
    assert.equal(scripts[0].textContent, '');
    assert.equal(doc.querySelectorAll('style, [style]').length, 0);
    assert.equal(doc.querySelector('link[rel="stylesheet"]')?.getAttribute('href'), base.styleUri);
  });

  it('passes initial state through a data- attribute, escaped', () => {
    const hostile = '</script><script>alert(1)</script>"\'&';
    const initialState = {
      snapshot: {
        type: 'snapshot' as const,
        conversation: { id: 'c1', title: hostile, messages: [], draft: hostile },
        conversations: [],
        composer: { model: 'm', channel: 'stable', imageInput: false, attachments: [], contextTokens: 0, contextWindow: 1, hasKey: true },
        busy: false,
      },
    };
    const html = buildChatHtml({ ...base, initialState });
    const doc = parse(html);
    assert.equal(doc.querySelectorAll('script').length, 1, 'no script was injected');
    assert.deepEqual(JSON.parse(doc.body.getAttribute('data-initial-state')!), initialState);
  });

  it('refuses a nonce or source that could rewrite the policy', () => {
    assert.throws(() => buildChatHtml({ ...base, nonce: "abc' 'unsafe-inline" }));
    assert.throws(() => buildChatHtml({ ...base, nonce: 'short' }));
    assert.throws(() => buildChatHtml({ ...base, cspSource: "x; script-src 'unsafe-eval'" }));
    assert.throws(() => buildChatHtml({ ...base, cspSource: "'self' 'unsafe-eval'" }));
    assert.throws(() => buildChatHtml({ ...base, cspSource: "'unsafe-inline'" }));
    assert.throws(() => buildChatHtml({ ...base, cspSource: "'self'\nscript-src *" }));
    assert.throws(() => buildChatHtml({ ...base, cspSource: '' }));
    assert.doesNotThrow(() => buildChatHtml({ ...base, cspSource: 'https://*.vscode-cdn.net' }));
  });

  it("uses the nonce it is given (a fresh one per render is the host's job)", () => {
    const a = buildChatHtml({ ...base, nonce: 'AAAAAAAAAAAAAAAAAAAAAAAA' });
    const b = buildChatHtml({ ...base, nonce: 'BBBBBBBBBBBBBBBBBBBBBBBB' });
    assert.match(a, /nonce-AAAAAAAAAAAAAAAAAAAAAAAA/);
    assert.match(b, /nonce="BBBBBBBBBBBBBBBBBBBBBBBB"/);
  });
});
