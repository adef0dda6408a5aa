// The two sides of the platform seam for bytes must agree: the web build (atob/btoa/TextEncoder)
// gives exactly what the Node build (Buffer) gives, on the inputs the extension meets.
import * as assert from 'node:assert/strict';
import * as nodeBytes from '../../../src/platform/bytes';
import * as webBytes from '../../../src/platform/bytes.web';
import { path as webPath } from '../../../src/platform/path.web';
import * as nodePath from 'node:path';

describe('platform seam: bytes (Node vs web build)', () => {
  const samples = [new Uint8Array([]), new Uint8Array([0]), new Uint8Array([255, 254, 253]), Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256)];

  it('encodes base64 identically', () => {
    for (const s of samples) assert.equal(webBytes.toBase64(s), nodeBytes.toBase64(s));
  });

  it('decodes base64 identically, padding missing or whitespace inside included', () => {
    const inputs = [...samples.map((s) => nodeBytes.toBase64(s)), 'aGVsbG8', 'aGVs\nbG8=', ' iVBORw0KGgo= ', 'YQ', 'YWI', 'YWJj'];
    for (const b64 of inputs) assert.deepEqual([...webBytes.fromBase64(b64)], [...nodeBytes.fromBase64(b64)], b64);
  });

  it('measures and encodes UTF-8 identically', () => {
    for (const s of ['', 'abc', 'é', '日本語', '🙂 x', 'a\uD800b']) {
      assert.equal(webBytes.utf8ByteLength(s), nodeBytes.utf8ByteLength(s), s);
      assert.deepEqual([...webBytes.utf8Encode(s)], [...nodeBytes.utf8Encode(s)], s);
    }
  });
});

describe('platform seam: path (web build = posix)', () => {
  it('matches node:path/posix on the operations the guard and tools use', () => {
    const cases: [string, string][] = [
      ['/ws', '/ws/a/../b'],
      ['/ws', '/ws-evil/x'],
      ['/ws/', '/ws'],
      ['/', '/a/b'],
    ];
    for (const [a, b] of cases) {
      assert.equal(webPath.relative(a, b), nodePath.posix.relative(a, b));
      assert.equal(webPath.posix.normalize(b), nodePath.posix.normalize(b));
      assert.equal(webPath.join(a, '..', b), nodePath.posix.join(a, '..', b));
      assert.equal(webPath.dirname(b), nodePath.posix.dirname(b));
    }
    assert.equal(webPath.win32.isAbsolute('C:\\x'), true);
    assert.equal(webPath.win32.isAbsolute('x\\y'), false);
  });
});
