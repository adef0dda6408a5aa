import * as assert from 'node:assert/strict';
import { escapeHtmlAttribute, escapeMarkdownAlt, imageLinkText, linkLanguage, relativeLink, shortAlt } from '../../../src/images/imageLinks';

describe('images: links inserted into documents', () => {
  it('knows which languages get links', () => {
    assert.equal(linkLanguage('markdown'), 'markdown');
    assert.equal(linkLanguage('html'), 'html');
    assert.equal(linkLanguage('typescript'), undefined);
  });

  it('makes paths relative to the document folder', () => {
    assert.equal(relativeLink('/ws/docs/readme.md', '/ws/docs/a.png'), 'a.png');
    assert.equal(relativeLink('/ws/docs/readme.md', '/ws/docs/img/a.png'), 'img/a.png');
    assert.equal(relativeLink('/ws/docs/readme.md', '/ws/assets/a.png'), '../assets/a.png');
  });

  it('encodes spaces, parentheses and quotes in paths', () => {
    assert.equal(relativeLink('/ws/README.md', "/ws/my images/it's (new)/a b.png"), 'my%20images/it%27s%20%28new%29/a%20b.png');
    assert.equal(relativeLink('/ws/README.md', '/ws/ünï/a.png'), '%C3%BCn%C3%AF/a.png');
  });

  it('shortens the alt text to one line', () => {
    assert.equal(shortAlt('  a\n\nsunset\tover   mountains '), 'a sunset over mountains');
    const long = shortAlt('word '.repeat(40));
    assert.ok(long.length <= 81 && long.endsWith('…'), long);
  });

  it('escapes Markdown alt text', () => {
    assert.equal(escapeMarkdownAlt('a [link](x) *bold* `code` <b>'), 'a \\[link\\](x) \\*bold\\* \\`code\\` \\<b\\>');
  });

  it('escapes HTML attributes', () => {
    assert.equal(escapeHtmlAttribute(`"><script>alert('x')</script>&`), '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;');
  });

  it('builds Markdown links, one per line', () => {
    const text = imageLinkText('markdown', '/ws/docs/README.md', ['/ws/docs/img 1/a.png', '/ws/docs/img 1/b.png'], 'A [red] sunset');
    assert.equal(text, '![A \\[red\\] sunset](img%201/a.png)\n![A \\[red\\] sunset](img%201/b.png)');
  });

  it('builds HTML img tags with escaped attributes', () => {
    const text = imageLinkText('html', '/ws/site/index.html', ['/ws/site/x.png'], 'Cats & "dogs" <3');
    assert.equal(text, '<img src="x.png" alt="Cats &amp; &quot;dogs&quot; &lt;3">');
  });
});
