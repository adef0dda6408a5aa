// modelgate.consoleUrl: https only unless loopback, and every rejection says what is wrong.
import * as assert from 'node:assert/strict';
import { checkConsoleUrl } from '../../../../src/core/spend/consoleUrl';

describe('checkConsoleUrl', () => {
  it('treats empty or missing as unset', () => {
    assert.deepEqual(checkConsoleUrl(undefined), { kind: 'unset' });
    assert.deepEqual(checkConsoleUrl('   '), { kind: 'unset' });
  });
  it('accepts https and loopback http', () => {
    assert.deepEqual(checkConsoleUrl(' https://console.example.com/billing '), { kind: 'ok', url: 'https://console.example.com/billing' });
    assert.equal(checkConsoleUrl('http://127.0.0.1:8080/top-up').kind, 'ok');
    assert.equal(checkConsoleUrl('http://localhost/').kind, 'ok');
  });
  it('rejects plain http to another machine, other schemes, junk and credentials, naming the problem', () => {
    const http = checkConsoleUrl('http://console.example.com');
    assert.equal(http.kind, 'invalid');
    assert.match((http as { message: string }).message, /plain http to console\.example\.com/);
    const js = checkConsoleUrl('javascript:alert(1)');
    assert.match((js as { message: string }).message, /must use https \(got javascript\)/);
    const file = checkConsoleUrl('file:///etc/passwd');
    assert.match((file as { message: string }).message, /got file/);
    const junk = checkConsoleUrl('not a url');
    assert.match((junk as { message: string }).message, /"not a url" is not a valid URL.*modelgate\.consoleUrl/);
    const creds = checkConsoleUrl('https://me:pw@console.example.com');
    assert.match((creds as { message: string }).message, /user name or password/);
    assert.equal(checkConsoleUrl(42).kind, 'invalid');
  });
});
