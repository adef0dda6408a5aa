// Path escapes (docs/reliability.md, category 6) for the model's tools and for image saving, in the real
// extension host on a real disk: `..`, absolute paths, symbolic links out (a file, a parent
// folder, one planted at the very name an image is about to get), case and separator tricks,
// encoded forms and NUL. Nothing is read from or written to outside the workspace, and no
// existing file is overwritten. Two image runs saving the same name at once give two files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createWorkspaceTools, type WorkspaceTools } from '../../src/agentTools';
import { saveAllOrNothing, type PreparedImage } from '../../src/images/imageSaver';
import { targetForPath } from '../../src/images/imageTarget';

const FIX = 'mg-escape-fixture';
const SECRET = 'OUTSIDE-SECRET-5b7e1c';
const PNG = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));

describe('path escapes: tools and image saving (real VS Code, real disk)', function () {
  this.timeout(60_000);
  let ws: string;
  let folder: vscode.WorkspaceFolder;
  let outside: string;
  let tools: WorkspaceTools;
  let n = 0;
  const cts = new vscode.CancellationTokenSource();
  const outsideSnapshot = () =>
    fs
      .readdirSync(outside)
      .map((f) => `${f}:${fs.readFileSync(path.join(outside, f), 'utf8')}`)
      .join('|');

  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
    folder = vscode.workspace.workspaceFolders![0]!;
    ws = folder.uri.fsPath;
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-escape-out-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), SECRET);
    fs.mkdirSync(path.join(ws, FIX, 'img'), { recursive: true });
    fs.writeFileSync(path.join(ws, FIX, 'inside.txt'), 'inside');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, FIX, 'link-file.txt'));
    fs.symlinkSync(outside, path.join(ws, FIX, 'link-dir'));
    tools = createWorkspaceTools();
  });
  after(() => {
    tools?.dispose?.();
    if (ws) fs.rmSync(path.join(ws, FIX), { recursive: true, force: true });
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
  });

  describe('tools never read outside the workspace', () => {
    const rel = () => path.relative(ws, outside);
    const cases: [string, () => string][] = [
      ['..', () => '../secret.txt'],
      ['.. through a subfolder', () => `${FIX}/../../${path.basename(outside)}/secret.txt`],
      ['.. to the outside folder', () => `${rel()}/secret.txt`],
      ['absolute outside', () => path.join(outside, 'secret.txt')],
      ['symlinked file', () => `${FIX}/link-file.txt`],
      ['symlinked parent folder', () => `${FIX}/link-dir/secret.txt`],
      ['backslash separators', () => `${FIX}\\..\\..\\${path.basename(outside)}\\secret.txt`],
      ['mixed separators', () => `${FIX}/..\\../${rel()}/secret.txt`],
      ['URL-encoded ..', () => `%2e%2e/%2e%2e/${rel()}/secret.txt`],
      ['URL-encoded slash', () => `..%2f..%2f${rel()}%2fsecret.txt`],
      ['NUL byte', () => `${FIX}/inside.txt\u0000/../../${rel()}/secret.txt`],
      ['file: URI', () => vscode.Uri.file(path.join(outside, 'secret.txt')).toString()],
      ['case-changed link name', () => `${FIX}/LINK-DIR/secret.txt`],
      ['doubled slashes', () => `${FIX}//..//..//${rel()}//secret.txt`],
      ['trailing dot segments', () => `${FIX}/link-dir/./secret.txt`],
    ];
    for (const [name, p] of cases) {
      for (const tool of ['read_file', 'list_files', 'get_diagnostics'] as const) {
        it(`${tool}: ${name}`, async () => {
          const target = p();
          const args = tool === 'list_files' ? { path: path.dirname(target) } : { path: target };
          const r = await tools.run({ id: `c${++n}`, name: tool, arguments: JSON.stringify(args) }, cts.token);
          assert.ok(!r.content.includes(SECRET), `${tool} leaked the outside file: ${r.content.slice(0, 200)}`);
          if (tool === 'read_file') assert.equal(r.isError, true, r.content.slice(0, 200));
          if (tool === 'list_files' && !r.isError) assert.ok(!r.content.includes('secret.txt'), r.content.slice(0, 300));
        });
      }
    }
  });

  describe('image folders never lead outside', () => {
    const cases: [string, () => string][] = [
      ['..', () => '..'],
      ['../x', () => '../x'],
      ['a/../../x', () => `${FIX}/../../x`],
      ['absolute outside', () => outside],
      ['backslash ..', () => '..\\x'],
      ['symlinked folder', () => `${FIX}/link-dir`],
      ['below a symlinked folder', () => `${FIX}/link-dir/sub`],
      ['case-changed symlink', () => `${FIX}/LINK-DIR`],
      ['encoded ..', () => '%2e%2e/x'],
      ['NUL', () => `${FIX}/img\u0000/../../..`],
      ['a file as the folder', () => `${FIX}/inside.txt`],
    ];
    for (const [name, p] of cases) {
      it(`image folder: ${name}`, async () => {
        let target: Awaited<ReturnType<typeof targetForPath>> | undefined;
        try {
          target = await targetForPath(p(), folder);
        } catch {
          return; // refused
        }
        // accepted: then it is really inside the workspace (a literal folder name such as "%2e%2e")
        const real = fs.existsSync(target.folder.fsPath) ? fs.realpathSync(target.folder.fsPath) : target.folder.fsPath;
        assert.ok(real.startsWith(fs.realpathSync(ws) + path.sep), `accepted ${p()} -> ${real}`);
        assert.ok(!p().includes('\u0000') || !real.includes('\u0000'), 'NUL accepted');
      });
    }
  });

  describe('image saving at the target name', () => {
    const img = (baseName: string): PreparedImage => ({ baseName, ext: 'png', bytes: PNG });
    const dir = () => vscode.Uri.file(path.join(ws, FIX, 'img'));

    it('a symbolic link planted at the name (to an outside file) is not written through', async () => {
      const before = outsideSnapshot();
      fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, FIX, 'img', 'planted-1.png'));
      const [uri] = await saveAllOrNothing(dir(), [img('planted-1')]);
      assert.equal(path.basename(uri!.fsPath), 'planted-1-2.png');
      assert.equal(outsideSnapshot(), before, 'the outside file is unchanged');
      assert.ok(fs.lstatSync(path.join(ws, FIX, 'img', 'planted-1.png')).isSymbolicLink(), 'the link is left as it was');
    });

    it('a dangling link planted at the name (to an outside path that does not exist yet) is not followed', async () => {
      const before = outsideSnapshot();
      fs.symlinkSync(path.join(outside, 'created-through-link.png'), path.join(ws, FIX, 'img', 'dangling-1.png'));
      const [uri] = await saveAllOrNothing(dir(), [img('dangling-1')]);
      assert.equal(path.basename(uri!.fsPath), 'dangling-1-2.png');
      assert.equal(fs.existsSync(path.join(outside, 'created-through-link.png')), false);
      assert.equal(outsideSnapshot(), before);
    });

    it('a link to an outside folder planted at the name is not written into', async () => {
      fs.symlinkSync(outside, path.join(ws, FIX, 'img', 'dirlink-1.png'));
      const before = outsideSnapshot();
      await saveAllOrNothing(dir(), [img('dirlink-1')]);
      assert.equal(outsideSnapshot(), before);
    });

    it('an existing file at the name is never overwritten', async () => {
      fs.writeFileSync(path.join(ws, FIX, 'img', 'taken-1.png'), 'original');
      await saveAllOrNothing(dir(), [img('taken-1')]);
      assert.equal(fs.readFileSync(path.join(ws, FIX, 'img', 'taken-1.png'), 'utf8'), 'original');
    });

    it('two runs saving the same name at once write two files', async () => {
      const [a, b] = await Promise.all([saveAllOrNothing(dir(), [img('same-1')]), saveAllOrNothing(dir(), [img('same-1')])]);
      assert.notEqual(a![0]!.fsPath, b![0]!.fsPath);
      const names = fs.readdirSync(path.join(ws, FIX, 'img')).filter((f) => f.startsWith('same-1'));
      assert.deepEqual(names.sort(), ['same-1-2.png', 'same-1.png']);
    });

    it('two runs saving the same name at once write two files where the file system has no exclusive create (remote, virtual and web folders)', async () => {
      // vscode.workspace.fs as a remote or web folder's provider answers: each call a moment later
      const later = <T>(p: Thenable<T>) => new Promise<T>((resolve, reject) => setTimeout(() => void p.then(resolve, reject), 20));
      const slow = {
        stat: (u: vscode.Uri) => later(vscode.workspace.fs.stat(u)),
        createDirectory: (u: vscode.Uri) => later(vscode.workspace.fs.createDirectory(u)),
        writeFile: (u: vscode.Uri, b: Uint8Array) => later(vscode.workspace.fs.writeFile(u, b)),
        delete: (u: vscode.Uri, o?: { recursive?: boolean; useTrash?: boolean }) => later(vscode.workspace.fs.delete(u, o)),
        readDirectory: (u: vscode.Uri) => later(vscode.workspace.fs.readDirectory(u)),
      } as unknown as vscode.FileSystem;
      const [a, b] = await Promise.all([saveAllOrNothing(dir(), [img('slow-1')], { fs: slow }), saveAllOrNothing(dir(), [img('slow-1')], { fs: slow })]);
      assert.notEqual(a![0]!.fsPath, b![0]!.fsPath);
      const names = fs.readdirSync(path.join(ws, FIX, 'img')).filter((f) => f.startsWith('slow-1'));
      assert.deepEqual(names.sort(), ['slow-1-2.png', 'slow-1.png']);
    });

    it('eight runs of three images with the same names at once: 24 distinct complete files', async () => {
      const runs = await Promise.all(Array.from({ length: 8 }, () => saveAllOrNothing(dir(), [img('burst-1'), img('burst-2'), img('burst-3')])));
      const all = runs.flat().map((u) => u.fsPath);
      assert.equal(new Set(all).size, 24);
      for (const f of all) assert.deepEqual(new Uint8Array(fs.readFileSync(f)), PNG);
    });
  });
});
