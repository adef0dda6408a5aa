import * as assert from 'node:assert/strict';
import { checkBaseUrl, isLoopbackHost } from '../../../../src/core/client/baseUrl';

describe('checkBaseUrl', () => {
  it('accepts https and strips trailing slashes', () => {
    const r = checkBaseUrl('https://gw.example.com/v1///');
    assert.deepEqual(r, { ok: true, url: 'https://gw.example.com/v1', origin: 'https://gw.example.com' });
  });
  it('accepts plain http only on loopback', () => {
    for (const u of ['http://127.0.0.1:8787/v1', 'http://localhost:1/v1', 'http://[::1]:9/v1', 'http://127.9.9.9/v1']) {
      assert.equal(checkBaseUrl(u).ok, true, u);
    }
    const r = checkBaseUrl('http://gw.example.com/v1');
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /unencrypted/);
  });
  it('does not treat look-alike hosts as loopback', () => {
    assert.equal(isLoopbackHost('127.0.0.1.evil.com'), false);
    assert.equal(isLoopbackHost('localhost.evil.com'), false);
    assert.equal(checkBaseUrl('http://127.0.0.1.evil.com/v1').ok, false);
  });
  it('rejects empty, invalid, other schemes, credentials, query and fragment with a hint', () => {
    for (const u of [
      '',
      '   ',
      'not a url',
      'ftp://gw.example.com/v1',
      'file:///etc/passwd',
      'https://user:pw@gw.example.com/v1',
      'https://gw.example.com/v1?x=1',
      'https://gw.example.com/v1#a',
      42,
    ]) {
      const r = checkBaseUrl(u);
      assert.equal(r.ok, false, String(u));
      assert.ok((r as { message: string }).message.length > 20);
    }
  });
});
