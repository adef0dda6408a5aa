// The path guard against real folders and symlinks on disk (no mocks of the file system).
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { guardPath, isContained, locate, type GuardRoot, type GuardResult } from '../../../../src/core/workspace/pathGuard';

function okOf(r: GuardResult) {
  if (!r.ok) assert.fail(`expected ok, got ${r.reason}: ${r.message}`);
  return r;
}
function reasonOf(r: GuardResult): string {
  return r.ok ? `ok:${r.realPath}` : r.reason;
}

describe('pathGuard', () => {
  let base: string; // a temp dir holding the workspace, its evil sibling and an outside dir
  let ws: string;
  let roots: GuardRoot[];

  before(async () => {
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'mg-guard-')));
    ws = path.join(base, 'ws');
    await fsp.mkdir(path.join(ws, 'src', 'deep'), { recursive: true });
    await fsp.writeFile(path.join(ws, 'README.md'), '# hi\n');
    await fsp.writeFile(path.join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
    await fsp.writeFile(path.join(ws, '..weird-name.txt'), 'still inside\n');
    await fsp.mkdir(path.join(base, 'ws-evil'));
    await fsp.writeFile(path.join(base, 'ws-evil', 'secret.txt'), 'evil sibling\n');
    await fsp.mkdir(path.join(base, 'outside'));
    await fsp.writeFile(path.join(base, 'outside', 'secret.txt'), 'outside\n');
    // symlinks pointing outside: a file and a directory
    await fsp.symlink(path.join(base, 'outside', 'secret.txt'), path.join(ws, 'file-link.txt'));
    await fsp.symlink(path.join(base, 'outside'), path.join(ws, 'src', 'dir-link'));
    // symlinks that stay inside
    await fsp.symlink(path.join(ws, 'src', 'a.ts'), path.join(ws, 'inner-link.ts'));
    await fsp.symlink('..', path.join(ws, 'src', 'deep', 'up-link')); // -> ws/src
    // a dangling link to a path outside that does not exist (yet)
    await fsp.symlink(path.join(base, 'outside', 'later'), path.join(ws, 'dangling'));
    // a workspace root that is itself a symlink
    await fsp.symlink(ws, path.join(base, 'ws-link'));
    roots = [{ name: 'ws', path: ws }];
  });

  after(async () => {
    await fsp.rm(base, { recursive: true, force: true });
  });

  it('accepts a relative path inside the workspace and resolves it', async () => {
    const r = okOf(await guardPath('src/a.ts', roots));
    assert.equal(r.relative, 'src/a.ts');
    assert.equal(r.realPath, path.join(ws, 'src', 'a.ts'));
    assert.equal(r.exists, true);
  });

  it('accepts "." and "./x" and names that merely start with two dots', async () => {
    assert.equal(okOf(await guardPath('.', roots)).relative, '');
    assert.equal(okOf(await guardPath('./src/../README.md', roots)).relative, 'README.md');
    assert.equal(okOf(await guardPath('..weird-name.txt', roots)).relative, '..weird-name.txt');
  });

  it('rejects `..` escapes without touching the file system', async () => {
    let calls = 0;
    const realpath = async (p: string) => {
      calls++;
      return fsp.realpath(p);
    };
    for (const p of ['..', '../outside/secret.txt', 'src/../../outside/secret.txt', 'src/../..', './../ws-evil/secret.txt']) {
      assert.equal(locate(p, roots).ok, false, p);
      const r = await guardPath(p, roots, { realpath });
      assert.equal(reasonOf(r), 'outside', p);
    }
    // only the roots were resolved (one per call), never a target
    assert.equal(calls, 5);
  });

  it('rejects absolute paths elsewhere and accepts absolute paths inside', async () => {
    assert.equal(reasonOf(await guardPath(path.join(base, 'outside', 'secret.txt'), roots)), 'outside');
    assert.equal(reasonOf(await guardPath('/etc/passwd', roots)), 'outside');
    assert.equal(reasonOf(await guardPath(base, roots)), 'outside');
    const inside = okOf(await guardPath(path.join(ws, 'src', 'a.ts'), roots));
    assert.equal(inside.relative, 'src/a.ts');
  });

  it('does not treat a sibling folder with a shared prefix as inside (/ws vs /ws-evil)', async () => {
    assert.equal(isContained(ws, path.join(base, 'ws-evil', 'secret.txt')), false);
    assert.equal(isContained(ws, ws + '-evil'), false);
    assert.equal(isContained(ws, ws), true);
    assert.equal(reasonOf(await guardPath(path.join(base, 'ws-evil', 'secret.txt'), roots)), 'outside');
    assert.equal(reasonOf(await guardPath('../ws-evil/secret.txt', roots)), 'outside');
  });

  it('rejects a file symlink that points outside', async () => {
    assert.equal(locate('file-link.txt', roots).ok, true); // lexically it looks fine...
    const r = await guardPath('file-link.txt', roots);
    assert.equal(reasonOf(r), 'outside'); // ...but it resolves outside
  });

  it('rejects a path through a directory symlink that points outside, existing or not', async () => {
    assert.equal(reasonOf(await guardPath('src/dir-link/secret.txt', roots)), 'outside');
    assert.equal(reasonOf(await guardPath('src/dir-link', roots)), 'outside');
    assert.equal(reasonOf(await guardPath('src/dir-link/missing.txt', roots)), 'outside');
    assert.equal(reasonOf(await guardPath(path.join(ws, 'src', 'dir-link', 'secret.txt'), roots)), 'outside');
  });

  it('accepts symlinks that stay inside and reports the resolved path', async () => {
    const r = okOf(await guardPath('inner-link.ts', roots));
    assert.equal(r.relative, 'inner-link.ts');
    assert.equal(r.realRelative, 'src/a.ts');
    const up = okOf(await guardPath('src/deep/up-link/a.ts', roots));
    assert.equal(up.realPath, path.join(ws, 'src', 'a.ts'));
  });

  it('marks a missing target as not existing (and a dangling link is never followed)', async () => {
    const r = okOf(await guardPath('src/nope.ts', roots));
    assert.equal(r.exists, false);
    const d = okOf(await guardPath('dangling', roots));
    assert.equal(d.exists, false);
  });

  it('resolves a workspace root that is itself a symlink (realpath of the root)', async () => {
    const linkRoots: GuardRoot[] = [{ name: 'ws-link', path: path.join(base, 'ws-link') }];
    // inside files are accepted even though their real path is not under the link path
    const r = okOf(await guardPath('src/a.ts', linkRoots));
    assert.equal(r.realPath, path.join(ws, 'src', 'a.ts'));
    assert.equal(r.realRelative, 'src/a.ts');
    // the resolved absolute form of an inside path is accepted too
    assert.equal(okOf(await guardPath(path.join(ws, 'README.md'), linkRoots)).relative, 'README.md');
    // and escapes are still rejected
    assert.equal(reasonOf(await guardPath('file-link.txt', linkRoots)), 'outside');
    assert.equal(reasonOf(await guardPath('src/dir-link/secret.txt', linkRoots)), 'outside');
    assert.equal(reasonOf(await guardPath('../ws-evil/secret.txt', linkRoots)), 'outside');
  });

  it('rejects a NUL character, an empty path, and URIs', async () => {
    assert.equal(reasonOf(await guardPath('src/a.ts\0.png', roots)), 'invalid');
    assert.equal(reasonOf(await guardPath('', roots)), 'empty');
    assert.equal(reasonOf(await guardPath('   ', roots)), 'empty');
    assert.equal(reasonOf(await guardPath(undefined, roots)), 'empty');
    assert.equal(reasonOf(await guardPath('file:///etc/passwd', roots)), 'invalid');
  });

  it('reports no workspace when no folder is open', async () => {
    assert.equal(reasonOf(await guardPath('README.md', [])), 'no_workspace');
  });

  it('multi-root: folderName/path selects a folder, other paths go to the first folder', async () => {
    const two: GuardRoot[] = [
      { name: 'ws', path: ws },
      { name: 'evil', path: path.join(base, 'ws-evil') },
    ];
    const e = okOf(await guardPath('evil/secret.txt', two));
    assert.equal(e.rootIndex, 1);
    assert.equal(e.relative, 'secret.txt');
    const a = okOf(await guardPath('src/a.ts', two));
    assert.equal(a.rootIndex, 0);
    // escaping from the second folder is still an escape
    assert.equal(reasonOf(await guardPath('evil/../outside/secret.txt', two)), 'outside');
    // a symlink from one folder into another stays inside the workspace
    const outsideAsFolder: GuardRoot[] = [...two, { name: 'outside', path: path.join(base, 'outside') }];
    const cross = okOf(await guardPath('file-link.txt', outsideAsFolder));
    assert.equal(cross.realRootIndex, 2);
    assert.equal(cross.realRelative, 'secret.txt');
  });

  it('win32 flavour: case-insensitive containment, other drives and backslashes', () => {
    const w = path.win32;
    assert.equal(isContained('C:\\ws', 'c:\\WS\\src\\a.ts', w), true);
    assert.equal(isContained('C:\\ws', 'C:\\ws-evil\\a.ts', w), false);
    assert.equal(isContained('C:\\ws', 'D:\\ws\\a.ts', w), false);
    const r = locate('src\\..\\..\\x', [{ name: 'ws', path: 'C:\\ws' }], { fsPath: w });
    assert.equal(r.ok, false);
    const ok = locate('src\\a.ts', [{ name: 'ws', path: 'C:\\ws' }], { fsPath: w });
    assert.deepEqual(ok, { ok: true, rootIndex: 0, relative: 'src/a.ts' });
  });

  it('uri roots (virtual file systems) are checked lexically with posix paths', async () => {
    const v: GuardRoot[] = [{ name: 'v', path: '/repo', kind: 'uri' }];
    assert.equal(reasonOf(await guardPath('../x', v)), 'outside');
    assert.equal(reasonOf(await guardPath('/other/x', v)), 'outside');
    const r = okOf(await guardPath('a/b.ts', v));
    assert.equal(r.realPath, '/repo/a/b.ts');
  });
});
