// `npm start` puts the sample workspace back as shipped (an accepted fix from an earlier run would
// make the scripted answer propose the same fix again), copying a changed file aside first.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetSample } from '../../demo/sampleReset';

describe('demo: the sample workspace as shipped on every start', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-sample-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('puts back a file an earlier run changed (the accepted fix), keeps the changed copy aside, leaves the user’s own files', () => {
    const ws = join(dir, 'workspace');
    const backup = join(dir, 'backup');
    const sample = { 'src/math.ts': 'export const mean = (xs: number[]) => xs.reduce((a, b) => a + b) / (xs.length - 1);\n', 'README.md': '# sample\n' };
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src/math.ts'), 'export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;\n');
    writeFileSync(join(ws, 'notes.md'), 'mine\n');
    const result = resetSample(ws, sample, backup);
    assert.deepEqual(result, { changed: ['src/math.ts'], missing: ['README.md'] });
    assert.equal(readFileSync(join(ws, 'src/math.ts'), 'utf8'), sample['src/math.ts'], 'the bug is back for the demo to fix');
    assert.match(readFileSync(join(backup, 'src/math.ts'), 'utf8'), /, 0\) \/ xs\.length/, 'the accepted fix is kept aside');
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'mine\n', 'a file the user added stays');
    // as shipped: nothing to do
    assert.deepEqual(resetSample(ws, sample, join(dir, 'backup2')), { changed: [], missing: [] });
    assert.equal(existsSync(join(dir, 'backup2')), false);
  });
});
