// nodeFs.writeExisting (src/platform/fs.ts), the write of an existing file that Apply's Accept, the
// edits' Keep and checkpoint restore go through (no write through a link): a link at
// the file's name or at any folder above it is refused with nothing written where it leads, and
// a file swapped for a link (or another file) between the checks and the open is refused too.
import * as assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFs } from '../../../src/platform/fs';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('nodeFs.writeExisting: an existing file written without following links', () => {
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mg-nofollow-')));
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'mg-nofollow-out-')));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('writes a regular file: the new bytes replace all of the old ones (longer and shorter)', async () => {
    const file = join(dir, 'a.ts');
    writeFileSync(file, 'export const a = 1; // a long first version\n');
    assert.deepEqual(await nodeFs!.writeExisting(file, bytes('short\n')), { ok: true });
    assert.equal(readFileSync(file, 'utf8'), 'short\n');
    assert.deepEqual(await nodeFs!.writeExisting(file, bytes('a much longer second version\n')), { ok: true });
    assert.equal(readFileSync(file, 'utf8'), 'a much longer second version\n');
  });

  it('refuses a link at the name: nothing is written at its target', async () => {
    const target = join(outside, 'settings.json');
    writeFileSync(target, '{}\n');
    symlinkSync(target, join(dir, 'innocent.json'));
    const r = await nodeFs!.writeExisting(join(dir, 'innocent.json'), bytes('{ "task.allowAutomaticTasks": "on" }\n'));
    assert.deepEqual(r, { ok: false, cause: 'link', at: join(dir, 'innocent.json') });
    assert.equal(readFileSync(target, 'utf8'), '{}\n');
  });

  it('refuses a link at a folder above: nothing is written where it leads', async () => {
    mkdirSync(join(outside, 'elsewhere'));
    writeFileSync(join(outside, 'elsewhere', 'x.ts'), 'old\n');
    symlinkSync(join(outside, 'elsewhere'), join(dir, 'later'));
    const r = await nodeFs!.writeExisting(join(dir, 'later', 'x.ts'), bytes('new\n'));
    assert.deepEqual(r, { ok: false, cause: 'link', at: join(dir, 'later') });
    assert.equal(readFileSync(join(outside, 'elsewhere', 'x.ts'), 'utf8'), 'old\n');
  });

  it('refuses a hard link (a second name of a file that may be outside): nothing is written to either name', async () => {
    const target = join(outside, 'shared.ts');
    writeFileSync(target, 'old\n');
    linkSync(target, join(dir, 'shared.ts'));
    const r = await nodeFs!.writeExisting(join(dir, 'shared.ts'), bytes('new\n'));
    assert.deepEqual(r, { ok: false, cause: 'hardLink', at: join(dir, 'shared.ts') });
    assert.equal(readFileSync(target, 'utf8'), 'old\n');
    assert.equal(await nodeFs!.hardLinks(join(dir, 'shared.ts')), 2);
    assert.equal(await nodeFs!.hardLinks(join(dir, 'none.ts')), 0);
  });

  it('readOwnFile reads a file of its own, never a symbolic or hard link to another file', async () => {
    const target = join(outside, 'secret.txt');
    writeFileSync(target, 'secret\n');
    writeFileSync(join(dir, 'own.txt'), 'own\n');
    symlinkSync(target, join(dir, 'sym.txt'));
    linkSync(target, join(dir, 'hard.txt'));
    const text = async (name: string) => {
      const b = await nodeFs!.readOwnFile(join(dir, name));
      return b && new TextDecoder().decode(b);
    };
    assert.equal(await text('own.txt'), 'own\n');
    assert.equal(await text('sym.txt'), undefined);
    assert.equal(await text('hard.txt'), undefined);
    assert.equal(await text('missing.txt'), undefined);
  });

  it('refuses a missing file, a folder, and a path through a file', async () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'plain'), 'x');
    assert.equal((await nodeFs!.writeExisting(join(dir, 'nothing.ts'), bytes('x'))).ok, false);
    assert.deepEqual(await nodeFs!.writeExisting(join(dir, 'sub'), bytes('x')), { ok: false, cause: 'notFile', at: join(dir, 'sub') });
    assert.deepEqual(await nodeFs!.writeExisting(join(dir, 'plain', 'x.ts'), bytes('x')), { ok: false, cause: 'notDirectory', at: join(dir, 'plain') });
  });

  it('a file swapped for a link between the checks and the open: refused, the link target untouched', async () => {
    const file = join(dir, 'swap.json');
    const target = join(outside, 'settings.json');
    writeFileSync(file, '{}\n');
    writeFileSync(target, '{}\n');
    const r = await nodeFs!.writeExisting(file, bytes('hostile\n'), {
      beforeOpen: () => {
        rmSync(file);
        symlinkSync(target, file);
      },
    });
    assert.deepEqual(r, { ok: false, cause: 'link', at: file });
    assert.equal(readFileSync(target, 'utf8'), '{}\n');
  });

  it('a file replaced by another file between the checks and the open: refused by the inode check', async () => {
    const file = join(dir, 'swap.ts');
    writeFileSync(file, 'old\n');
    writeFileSync(join(dir, 'other.ts'), 'other\n');
    const r = await nodeFs!.writeExisting(file, bytes('new\n'), { beforeOpen: () => renameSync(join(dir, 'other.ts'), file) });
    assert.deepEqual(r, { ok: false, cause: 'changed', at: file });
    assert.equal(readFileSync(file, 'utf8'), 'other\n', 'nothing written to the file swapped in');
  });

  it('a folder above swapped for a link between the checks and the open: refused, nothing written where it leads', async () => {
    mkdirSync(join(dir, 'later'));
    writeFileSync(join(dir, 'later', 'x.ts'), 'old\n');
    mkdirSync(join(outside, 'elsewhere'));
    writeFileSync(join(outside, 'elsewhere', 'x.ts'), 'old\n');
    const r = await nodeFs!.writeExisting(join(dir, 'later', 'x.ts'), bytes('new\n'), {
      beforeOpen: () => {
        rmSync(join(dir, 'later'), { recursive: true });
        symlinkSync(join(outside, 'elsewhere'), join(dir, 'later'));
      },
    });
    assert.equal(r.ok, false);
    assert.equal(readFileSync(join(outside, 'elsewhere', 'x.ts'), 'utf8'), 'old\n');
  });
});
