// The environment the process started with: what decides Modelgate's test mode.
import * as assert from 'node:assert/strict';
import { parseEnvironBlock, startupEnvironmentValue } from '../../../src/platform/startupEnvironment';
import * as web from '../../../src/platform/startupEnvironment.web';

describe('platform seam: startupEnvironment', () => {
  it('parses an environ block (NUL-separated, values may hold "=")', () => {
    const vars = parseEnvironBlock('A=1\0B=x=y\0\0EMPTY=\0noequals\0');
    assert.equal(vars.get('A'), '1');
    assert.equal(vars.get('B'), 'x=y');
    assert.equal(vars.get('EMPTY'), '');
    assert.equal(vars.has('noequals'), false);
  });

  it('sees a variable the process started with', () => {
    assert.ok(startupEnvironmentValue('PATH'), 'PATH is set at start-up');
  });

  it('on Linux, does not see a variable set later in the process (another extension in the same host)', function () {
    if (process.platform !== 'linux') this.skip();
    const name = `MODELGATE_STARTUP_PROBE_${process.pid}`;
    process.env[name] = '/tmp/entry.js';
    try {
      assert.equal(startupEnvironmentValue(name), undefined);
    } finally {
      delete process.env[name];
    }
  });

  it('the web build has no environment', () => {
    assert.equal(web.startupEnvironmentValue('PATH'), undefined);
  });
});
