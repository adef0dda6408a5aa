// Images a tool saved, shown inline in the answer (src/webview/imageGallery.ts) through the real
// app: placeholders from the snapshot's images part, thumbnails once the host posts their webview
// resource URLs, text for a missing or unloadable one, a click that posts the host's openId (never a
// path), and nothing loaded from a URL that is not the webview's own resource origin.
import * as assert from 'node:assert/strict';
import type { HostMessage, MessageView, ShownImage } from '../../../src/chat/protocol';
import { byRole, chatSnapshot, startTestChatApp } from './jsdomEnv';

const PATH = 'images/a-blue-bird-1.png';
const SRC = 'https://vscode-remote%2B127-002e0-002e0-002e1-003a4000.vscode-resource.vscode-cdn.net/ws/images/a-blue-bird-1.png';

const answer = (parts: Extract<MessageView, { role: 'assistant' }>['parts']): MessageView => ({
  id: 'a1',
  role: 'assistant',
  parts,
  status: 'done',
  model: 'm',
  channel: 'stable',
  createdAt: 1,
});

const snapshot = (messages: MessageView[]): HostMessage => chatSnapshot(messages);

const images = (list: ShownImage[], partId = 'call_1-images'): HostMessage => ({ type: 'images', messageId: 'a1', partId, images: list });

function setup(messages: MessageView[]) {
  const { win, posted, host } = startTestChatApp();
  host(snapshot(messages));
  const gallery = () => win.document.querySelector('article[data-message-id="a1"] .image-gallery');
  return { win, doc: win.document, host, posted, gallery };
}

describe('generated images in an answer (webview)', function () {
  this.timeout(30_000);

  it('a stored images part shows a placeholder until the host posts the URL, then a thumbnail that opens the file by id', () => {
    const t = setup([
      answer([
        { kind: 'text', text: 'Here it is.' },
        { kind: 'images', id: 'call_1-images', paths: [PATH] },
      ]),
    ]);
    assert.equal(t.gallery()?.querySelector('img'), null, 'nothing loads before the host resolved it');
    assert.match(t.gallery()!.textContent!, /Loading image/);
    t.host(images([{ state: 'shown', path: PATH, src: SRC, openId: 'image-1' }]));
    const img = t.gallery()!.querySelector('img')!;
    assert.equal(img.getAttribute('src'), SRC);
    assert.equal(img.getAttribute('alt'), PATH);
    const open = byRole(t.doc, 'button', `Open ${PATH}`)[0]!;
    img.dispatchEvent(new t.win.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(
      t.posted.filter((m) => m.type === 'openImage'),
      [{ type: 'openImage', openId: 'image-1' }],
    );
    assert.ok(open.contains(img));
  });

  it('an answer being written gets the images at its end; a missing or unloadable one is text', () => {
    const t = setup([answer([{ kind: 'text', text: 'Drawing.' }])]);
    t.host(images([{ state: 'missing', path: PATH }]));
    assert.equal(t.gallery()?.querySelector('img'), null);
    assert.match(t.gallery()!.textContent!, /Image not found: images\/a-blue-bird-1\.png/);
    t.host(images([{ state: 'shown', path: PATH, src: SRC, openId: 'image-1' }]));
    const img = t.gallery()!.querySelector('img')!;
    img.dispatchEvent(new t.win.Event('error'));
    assert.equal(t.gallery()?.querySelector('img'), null, 'a broken image is not left on screen');
    assert.match(t.gallery()!.textContent!, /could not be loaded/);
  });

  it('never loads a URL that is not the webview resource origin (data:, another host, a file URL)', () => {
    const t = setup([answer([{ kind: 'images', id: 'call_1-images', paths: [PATH] }])]);
    for (const src of [
      'data:image/png;base64,iVBORw0KGgo=',
      'https://attacker.example/?q=secret',
      'file:///etc/passwd.png',
      'https://evil.example/.vscode-resource.vscode-cdn.net/x.png',
      `${SRC}" onerror="x`,
    ]) {
      t.host(images([{ state: 'shown', path: PATH, src, openId: 'image-1' }]));
      assert.equal(t.doc.querySelector('img'), null, src);
    }
    // a message that is not the host's shape is ignored as a whole
    t.host({ type: 'images', messageId: 'a1', partId: 'call_1-images', images: [] });
    t.host({ type: 'images', messageId: 'a1', partId: 'call_1-images', images: Array.from({ length: 11 }, () => ({ state: 'missing', path: PATH })) });
    assert.match(t.gallery()!.textContent!, /Loading image/);
  });
});
