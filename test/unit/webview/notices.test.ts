// Set-up notices ("No gateway base URL", "No API key") leave the panel once the condition behind
// them is fixed (a key is stored for a valid base URL), other notices stay.
import * as assert from 'node:assert/strict';
import { Notices } from '../../../src/webview/notices';
import { newWindow } from './jsdomEnv';

describe('webview notices: set-up notices clear themselves', () => {
  it('removes the base URL and key notices when the key becomes available, keeps the others', () => {
    const win = newWindow();
    const notices = new Notices(win.document, () => undefined);
    win.document.body.appendChild(notices.element);
    notices.setHasKey(false);
    notices.show('error', 'No gateway base URL is configured.', ['openSettings']);
    notices.show('error', 'The gateway rejected the API key.', ['setKey']);
    notices.show('warning', 'Image input is not supported by flagship-text.', ['pickModel']);
    const texts = () => Array.from(win.document.querySelectorAll('.notice:not([hidden]) .notice-text')).map((n) => n.textContent);
    assert.equal(texts().length, 4); // the key banner and three notices
    notices.setHasKey(true);
    assert.deepEqual(texts(), ['Image input is not supported by flagship-text.']);
  });

  it('keeps set-up notices while there is still no key', () => {
    const win = newWindow();
    const notices = new Notices(win.document, () => undefined);
    notices.show('error', 'No gateway base URL is configured.', ['openSettings']);
    notices.setHasKey(false);
    assert.equal(notices.element.querySelectorAll('.notice[data-setup]').length, 1);
  });
});
