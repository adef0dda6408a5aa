// The folders several windows share (the chat history, the spend ledger) in a real extension
// host, both ways a host can reach them: Node's fs (desktop and remote hosts, what this host
// picks for a `file` folder) and vscode.workspace.fs (the web host's only way). Each must read a
// missing folder and file the same, make the folder on the first write, keep trying after a
// first write that failed, and remove only the temporary files a killed write left behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SharedFolder, STALE_TEMP_MS } from '../../src/services/storageFiles';

describe('shared storage folders: Node fs and vscode.workspace.fs (real VS Code)', function () {
  this.timeout(30_000);
  let root: string;

  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-shared-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('this host reads and writes a file folder with Node’s fs unless told to go through VS Code', () => {
    assert.equal(new SharedFolder(vscode.Uri.file(root), 1000).direct, true);
    assert.equal(new SharedFolder(vscode.Uri.file(root), 1000, { throughVsCode: true }).direct, false);
    assert.equal(new SharedFolder(vscode.Uri.from({ scheme: 'untitled', path: '/x' }), 1000).direct, false, 'not a file folder: VS Code');
  });

  for (const throughVsCode of [false, true]) {
    const way = throughVsCode ? 'vscode.workspace.fs' : 'Node fs';
    const folderAt = (...parts: string[]) => new SharedFolder(vscode.Uri.file(path.join(root, ...parts)), 1000, { throughVsCode });

    it(`${way}: a missing folder lists nothing and a missing file reads undefined; the first write makes the folder`, async () => {
      const f = folderAt('storage', 'chat');
      assert.deepEqual(await f.list(), []);
      assert.equal(await f.read('index.json'), undefined);
      assert.equal(await f.mtime(), undefined);
      await f.remove('index.json');
      await f.write('index.json', '{"v":1}');
      await f.write('index.json', '{"v":2}');
      assert.equal(await f.read('index.json'), '{"v":2}');
      assert.deepEqual(await f.list(), ['index.json']);
      assert.ok((await f.mtime()) !== undefined);
      await f.remove('index.json');
      assert.deepEqual(await f.list(), []);
    });

    it(`${way}: a write that failed (a file where the folder goes) does not stop the next one once the way is clear`, async () => {
      const blocker = path.join(root, 'storage');
      fs.writeFileSync(blocker, 'not a folder');
      const f = folderAt('storage', 'spend');
      await assert.rejects(f.write('a.json', '1'));
      fs.rmSync(blocker);
      await f.write('a.json', '2');
      assert.equal(await f.read('a.json'), '2');
    });

    it(`${way}: the first write removes the temporary files of a write killed over a minute ago, and keeps a fresh one (another window's write)`, async () => {
      const dir = path.join(root, 'chat');
      fs.mkdirSync(dir);
      const stale = path.join(dir, 'index.json.0b6f3f6e-1d2a-4c3b-9e8f-7a6b5c4d3e2f.tmp');
      const fresh = path.join(dir, 'index.json.1c7e4a5f-2e3b-4d4c-8f9a-8b7c6d5e4f30.tmp');
      fs.writeFileSync(stale, '{"half');
      fs.writeFileSync(fresh, '{"being written');
      const old = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
      fs.utimesSync(stale, old, old);
      await folderAt('chat').write('index.json', '{}');
      assert.equal(fs.existsSync(stale), false, 'the stale temporary file is gone');
      assert.equal(fs.existsSync(fresh), true, 'the fresh one is kept');
    });
  }
});
