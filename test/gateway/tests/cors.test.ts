// The simulator answers a browser-hosted workbench's fetch (web extension): CORS headers for loopback
// origins, preflight for POST with Authorization, and none at all with `cors: false`.
import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { startGateway, type RunningGateway } from '..';

function call(url: string, method: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('simulator CORS (web extension)', () => {
  let gw: RunningGateway | undefined;
  afterEach(async () => {
    await gw?.close();
    gw = undefined;
  });

  it('answers a preflight and allows a loopback workbench origin', async () => {
    gw = await startGateway();
    const origin = 'http://127.0.0.1:41234';
    const pre = await call(`${gw.baseUrl}/chat/completions`, 'OPTIONS', {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization,content-type',
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], origin);
    assert.match(String(pre.headers['access-control-allow-headers']), /authorization/);
    const get = await call(`${gw.baseUrl}/models`, 'GET', { Origin: origin, Authorization: 'Bearer sk-test' });
    assert.equal(get.status, 200);
    assert.equal(get.headers['access-control-allow-origin'], origin);
  });

  it('allows no foreign origin, and nothing at all with cors: false', async () => {
    gw = await startGateway();
    const foreign = await call(`${gw.baseUrl}/models`, 'GET', { Origin: 'https://evil.example', Authorization: 'Bearer sk-test' });
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);
    await gw.close();
    gw = await startGateway({ cors: false });
    const off = await call(`${gw.baseUrl}/models`, 'GET', { Origin: 'http://127.0.0.1:41234', Authorization: 'Bearer sk-test' });
    assert.equal(off.status, 200);
    assert.equal(off.headers['access-control-allow-origin'], undefined);
  });
});
