// The shared folders' Node side (the chat history, the spend ledger on a desktop or remote host):
// a replaced file is whole for every reader at every moment, two windows replacing the same file
// at once both succeed, and what a missing folder or file reads as.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directFolder } from '../../../src/platform/sharedFolder';

describe('shared folder with Node fs', () => {
  const folder = directFolder!;
  let root: string;
  let dir: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mg-shared-folder-'));
    dir = join(root, 'globalStorage', 'chat');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads a missing folder as empty and a missing file as undefined; removing a missing file is no error', async () => {
    assert.deepEqual(await folder.list(dir), []);
    assert.equal(await folder.read(join(dir, 'index.json')), undefined);
    assert.equal(await folder.mtime(dir), undefined);
    await folder.remove(join(dir, 'index.json'));
  });

  it('makes the folder on the first replace, lists regular files only, and leaves no temporary file', async () => {
    await folder.replace(dir, 'index.json', '{"version":1}');
    mkdirSync(join(dir, 'a-folder'));
    assert.equal(await folder.read(join(dir, 'index.json')), '{"version":1}');
    assert.deepEqual(await folder.list(dir), ['index.json']);
    await folder.replace(dir, 'index.json', '{"version":2}');
    assert.equal(await folder.read(join(dir, 'index.json')), '{"version":2}');
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
    await folder.remove(join(dir, 'index.json'));
    assert.deepEqual(await folder.list(dir), []);
  });

  it('a reader never finds the file missing or cut while it is replaced 300 times', async () => {
    // vscode.workspace.fs renames over a file as "delete, then rename": a reader could find no
    // file for a moment. A rename is one step: the old content or the new, always there.
    const name = 'conversation-a.json';
    const text = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(1000 + ((i * 7919) % 50_000)) });
    await folder.replace(dir, name, text(0));
    let done = false;
    let reads = 0;
    const reader = (async () => {
      while (!done) {
        const got = await folder.read(join(dir, name));
        assert.ok(got !== undefined, `the file was missing after ${reads} reads`);
        assert.doesNotThrow(() => JSON.parse(got), `read ${reads} was cut (${got.length} characters)`);
        reads++;
      }
    })();
    for (let i = 1; i <= 300; i++) await folder.replace(dir, name, text(i));
    done = true;
    await reader;
    assert.ok(reads > 10, `the reader ran beside the writes (${reads} reads)`);
    assert.equal((JSON.parse((await folder.read(join(dir, name)))!) as { i: number }).i, 300);
  });

  it('20 replaces of one file at once (two windows saving together) all succeed; the file holds one of them whole', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => JSON.stringify({ window: i % 2, i }));
    await Promise.all(texts.map((t) => folder.replace(dir, 'index.json', t)));
    assert.ok(texts.includes((await folder.read(join(dir, 'index.json')))!));
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  it('changes the folder’s modification time on a create, a replace and a delete (how other windows hear of it)', async () => {
    await folder.replace(dir, 'a.json', '1');
    const seen = [await folder.mtime(dir)];
    const next = async (change: () => Promise<void>) => {
      // Linux stamps files from a clock that moves in ticks of up to 10 ms: one tick apart
      await new Promise((r) => setTimeout(r, 15));
      await change();
      seen.push(await folder.mtime(dir));
      assert.notEqual(seen[seen.length - 1], seen[seen.length - 2], `change ${seen.length - 1} moved the folder's time`);
    };
    await next(() => folder.replace(dir, 'b.json', '2'));
    await next(() => folder.replace(dir, 'a.json', '3'));
    await next(() => folder.remove(join(dir, 'b.json')));
  });

  it('a replace that cannot rename (a folder at the name) fails, removes its temporary file and changes nothing else', async () => {
    await folder.replace(dir, 'index.json', 'old');
    writeFileSync(join(dir, 'other.txt'), 'x');
    mkdirSync(join(dir, 'taken.json'));
    await assert.rejects(folder.replace(dir, 'taken.json', 'new'));
    assert.equal(await folder.read(join(dir, 'index.json')), 'old');
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });
});
