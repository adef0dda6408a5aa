// The measure behind the linear-growth tests must tell linear from quadratic, and must not
// read times below the CPU clock's resolution as a runaway (seen: 8K 0.000 ms, 64K 0.001 ms failed).
import * as assert from 'node:assert/strict';
import { assertLinear, LINEAR_TEST_TIMEOUT_MS } from './linearGrowth';

describe('linearGrowth: the measure of the linear-growth tests', function () {
  this.timeout(LINEAR_TEST_TIMEOUT_MS);

  it('passes a function too fast to time at every size', () => {
    assertLinear(
      'constant',
      (s) => s.length,
      (n) => 'a'.repeat(n),
    );
  });

  it('passes a linear scan', () => {
    assertLinear(
      'linear',
      (s) => s.split('').filter((c) => c === 'a').length,
      (n) => 'ab'.repeat(n / 2),
    );
  });

  it('fails a quadratic scan', () => {
    const quadratic = (s: string): number => {
      let hits = 0;
      for (let i = 0; i < s.length; i += 256) for (let j = 0; j < s.length; j++) if (s.charCodeAt(j) === s.charCodeAt(i)) hits++;
      return hits;
    };
    assert.throws(() => assertLinear('quadratic', quadratic, (n) => 'ab'.repeat(n / 2)), /quadratic: the time grew [\d.]+x a doubling of the input/);
  });

  it('passes a linear scan whose cost per character steps up once, as when the input outgrows a cache', () => {
    // 8 passes over the input from 16K on, one below: 16x from 8K to 16K, then 2x a doubling.
    const stepped = (s: string): number => {
      let hits = 0;
      for (let pass = s.length >= 16 * 1024 ? 8 : 1; pass > 0; pass--) for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 97) hits++;
      return hits;
    };
    assertLinear('stepped', stepped, (n) => 'ab'.repeat(n / 2));
  });
});
