// The workspace tools inside a real VS Code extension host, against the real file system, real
// settings (files.exclude / search.exclude at Workspace level), real editors and diagnostics.
// Fixtures live under <workspace>/mg-tools-fixture and a sibling temp folder outside the workspace
// that symlinks point to; both are removed afterwards.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createWorkspaceTools, type ToolResult, type WorkspaceTools } from '../../src/agentTools';
import { until } from './helpers';

const FIX = 'mg-tools-fixture';
const NEEDLE = 'ZEBRA_NEEDLE_4711';
const OUTSIDE_MARKER = 'OUTSIDE_SECRET_MARKER_93';
const HIDDEN_MARKER = 'HIDDEN_BY_FILES_EXCLUDE_77';
const GIT_MARKER = 'GIT_CONFIG_MARKER_55';

let nextId = 0;
const callOf = (name: string, args: unknown) => ({ id: `call_${++nextId}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

/** name -> size:mtime of every file under `dir` (no symlink following), to prove nothing was written. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = fs.lstatSync(p);
      out.set(path.relative(dir, p), `${st.size}:${st.mtimeMs}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

describe('workspace tools (real VS Code)', function () {
  this.timeout(60_000);
  let tools: WorkspaceTools;
  let folder: vscode.WorkspaceFolder;
  let ws: string; // workspace folder path on disk
  let outside: string; // temp folder outside the workspace
  let cts: vscode.CancellationTokenSource;
  let diagnostics: vscode.DiagnosticCollection;
  let baseline: Map<string, string>;

  const run = (name: string, args: unknown = {}): Promise<ToolResult> => tools.run(callOf(name, args), cts.token);
  const ok = async (name: string, args: unknown = {}): Promise<string> => {
    const r = await run(name, args);
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} failed: ${r.content}`);
    return r.content;
  };
  const refused = async (name: string, args: unknown, pattern: RegExp, mustNotContain: string[] = []): Promise<string> => {
    const r = await run(name, args);
    assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} should fail but returned: ${r.content.slice(0, 300)}`);
    assert.match(r.content, pattern);
    for (const s of mustNotContain) assert.ok(!r.content.includes(s), `result leaks ${s}: ${r.content.slice(0, 300)}`);
    return r.content;
  };

  const write = async (rel: string, content: string | Uint8Array) => {
    const uri = vscode.Uri.joinPath(folder.uri, rel);
    await vscode.workspace.fs.writeFile(uri, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  };

  before(async function () {
    assert.equal(vscode.workspace.isTrusted, true, 'this suite needs a trusted workspace');
    const f = vscode.workspace.workspaceFolders?.[0];
    assert.ok(f, 'a workspace folder is open');
    assert.equal(f.uri.scheme, 'file');
    folder = f;
    ws = f.uri.fsPath;

    await write(`${FIX}/needle.ts`, `// fixture\nexport const found = '${NEEDLE}';\n`);
    await write(`${FIX}/dirty.ts`, 'export const saved = 1;\n');
    await write(`${FIX}/big.txt`, Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    await write(`${FIX}/wide.txt`, Array.from({ length: 40 }, (_, i) => `${i + 1}:${'w'.repeat(10_000)}`).join('\n'));
    await write(`${FIX}/blob.txt`, new Uint8Array([0x47, 0x49, 0x46, 0x00, 0x01, 0x02, 0x00, 0x41]));
    await write(`${FIX}/redos.txt`, `${'a'.repeat(48)}!\n`); // (a+)+$ backtracks for ages on this
    await write(`${FIX}/image.png`, 'not really a png, but the extension says binary');
    await write(`${FIX}/hidden/secret.txt`, `${HIDDEN_MARKER} ${NEEDLE}\n`);
    await write(`${FIX}/searchskip/skipped.ts`, `// ${NEEDLE} in a folder hidden by search.exclude only\n`);
    await write(`${FIX}/node_modules/pkg/index.js`, `module.exports = '${NEEDLE}';\n`);
    await write(`${FIX}/.git/config`, `[remote "origin"]\n  url = https://user:${GIT_MARKER}@example.invalid/x.git\n`);

    // Outside the workspace: a secret and two symlinks from inside pointing at it.
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), `${OUTSIDE_MARKER} ${NEEDLE}\n`);
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, FIX, 'out-link.txt'));
    fs.symlinkSync(outside, path.join(ws, FIX, 'out-dir'));
    // An inside symlink to an excluded file: judged by where it leads.
    fs.symlinkSync(path.join(ws, FIX, 'hidden', 'secret.txt'), path.join(ws, FIX, 'innocent-name.txt'));

    const files = vscode.workspace.getConfiguration('files', folder.uri);
    await files.update('exclude', { [`**/${FIX}/hidden`]: true }, vscode.ConfigurationTarget.Workspace);
    // An edited buffer must stay unsaved until the test reverts it (code-server may auto-save).
    await vscode.workspace.getConfiguration('files', folder.uri).update('autoSave', 'off', vscode.ConfigurationTarget.Workspace);
    const search = vscode.workspace.getConfiguration('search', folder.uri);
    await search.update('exclude', { [`**/${FIX}/searchskip`]: true }, vscode.ConfigurationTarget.Workspace);
    // The search service picks the settings up asynchronously.
    await until(async () => {
      const hits = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, `${FIX}/hidden/**`), undefined, 1);
      return hits.length === 0;
    }, 'files.exclude applied by the file search');

    tools = createWorkspaceTools();
    cts = new vscode.CancellationTokenSource();
    diagnostics = vscode.languages.createDiagnosticCollection('mg-tools-test');
    baseline = snapshot(ws);
  });

  after(async () => {
    tools?.dispose();
    diagnostics?.dispose();
    cts?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('files', folder.uri).update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('files', folder.uri).update('autoSave', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('search', folder.uri).update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    fs.rmSync(path.join(ws, FIX), { recursive: true, force: true }); // removes the links, not their targets
    fs.rmSync(outside, { recursive: true, force: true });
  });

  describe('definitions', () => {
    it('offers the five read-only tools in a trusted workspace with a folder', () => {
      const defs = tools.definitions();
      assert.deepEqual(
        defs.map((d) => d.function.name),
        ['read_file', 'list_files', 'search_text', 'get_selection', 'get_diagnostics'],
      );
      for (const d of defs) assert.equal((d.function.parameters as { additionalProperties?: boolean }).additionalProperties, false);
    });
  });

  describe('happy paths', () => {
    it('read_file returns the text with a header naming the lines', async () => {
      const onDisk = fs.readFileSync(path.join(ws, 'README.md'), 'utf8');
      const n = onDisk.split('\n').length - (onDisk.endsWith('\n') ? 1 : 0);
      const text = await ok('read_file', { path: 'README.md' });
      assert.equal(text, `README.md (lines 1-${n} of ${n})\n${onDisk.replace(/\n$/, '')}`);
    });

    it('read_file reads a range, and takes an absolute path inside the workspace', async () => {
      assert.equal(await ok('read_file', { path: 'src/a.ts', startLine: 2, endLine: 2 }), 'src/a.ts (lines 2-2 of 3)\n  return a + b;');
      const abs = await ok('read_file', { path: path.join(ws, 'src', 'a.ts') });
      assert.match(abs, /^src\/a\.ts \(lines 1-3 of 3\)\nexport function add/);
    });

    it('list_files lists workspace files and skips .git, node_modules, excluded and outside-linked files', async () => {
      const text = await ok('list_files', {});
      const lines = text.split('\n');
      for (const p of ['README.md', 'src/a.ts', `${FIX}/needle.ts`, `${FIX}/searchskip/skipped.ts`]) assert.ok(lines.includes(p), `lists ${p}:\n${text}`);
      for (const bad of ['node_modules', '.git/', `${FIX}/hidden`, 'out-dir/', 'out-link.txt', 'innocent-name.txt']) {
        assert.ok(!text.includes(bad), `does not list ${bad}:\n${text}`);
      }
    });

    it('list_files narrows by folder and glob', async () => {
      const src = await ok('list_files', { path: 'src' });
      const expected = fs
        .readdirSync(path.join(ws, 'src'))
        .map((n) => `src/${n}`)
        .sort();
      assert.equal(src, `${expected.length} file${expected.length === 1 ? '' : 's'} in src:\n${expected.join('\n')}`);
      const ts = await ok('list_files', { glob: '**/*.ts' });
      assert.ok(ts.includes('src/a.ts') && ts.includes(`${FIX}/needle.ts`));
      assert.ok(!ts.includes('README.md'));
      const capped = await ok('list_files', { maxResults: 2 });
      assert.match(capped, /^2\+ files in the workspace:/);
      assert.match(capped, /there are more/);
    });

    it('search_text finds text with path and line, and skips excluded, binary, node_modules and outside-linked files', async () => {
      const text = await ok('search_text', { query: NEEDLE });
      assert.match(text, new RegExp(`^1 match for "${NEEDLE}" in 1 file:\\n${FIX}/needle\\.ts:2: export const found = '${NEEDLE}';\\n`));
      assert.match(text, /\[Skipped files: 2 binary\.\]$/); // blob.txt (NUL bytes) and image.png (extension)
      for (const leak of [OUTSIDE_MARKER, HIDDEN_MARKER, 'node_modules', 'searchskip']) assert.ok(!text.includes(leak), `leaks ${leak}`);
    });

    it('search_text supports regular expressions, globs and smart case', async () => {
      assert.match(await ok('search_text', { query: 'return\\s+a\\s*\\+\\s*b', isRegex: true }), /src\/a\.ts:2: return a \+ b;/);
      assert.match(await ok('search_text', { query: 'zebra_needle', glob: `${FIX}/**/*.ts` }), /needle\.ts:2:/);
      assert.match(await ok('search_text', { query: 'Zebra_Needle' }), /^No matches/);
      assert.match(await ok('search_text', { query: NEEDLE, glob: 'src/**' }), /^No matches/);
      await refused('search_text', { query: '(unclosed', isRegex: true }, /Invalid regular expression/);
    });

    it('read_file shows unsaved editor contents, which is what the user sees', async () => {
      const uri = vscode.Uri.joinPath(folder.uri, `${FIX}/dirty.ts`);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, new vscode.Position(0, 0), '// UNSAVED_EDIT\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.equal(doc.isDirty, true);
      const text = await ok('read_file', { path: `${FIX}/dirty.ts` });
      assert.equal(text, `${FIX}/dirty.ts (lines 1-2 of 2) (unsaved editor contents)\n// UNSAVED_EDIT\nexport const saved = 1;`);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      assert.equal(doc.isDirty, false);
      assert.equal(await ok('read_file', { path: `${FIX}/dirty.ts` }), `${FIX}/dirty.ts (lines 1-1 of 1)\nexport const saved = 1;`);
    });

    it('get_selection returns the selected text with path and line numbers, or the visible lines', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'src/a.ts'));
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(1, 2, 1, 15);
      assert.equal(await ok('get_selection'), 'src/a.ts (selection: lines 2-2 of 3, typescript)\nreturn a + b;');
      editor.selection = new vscode.Selection(0, 0, 0, 0);
      await until(() => editor.visibleRanges.length > 0, 'the editor reports its visible range');
      const visible = await ok('get_selection');
      assert.match(visible, /^src\/a\.ts \(nothing selected; visible lines, cursor on line 1: lines 1-3 of 3, typescript\)\nexport function add/);
    });

    it('get_diagnostics reports errors and warnings of workspace files only', async () => {
      const a = vscode.Uri.joinPath(folder.uri, 'src/a.ts');
      const err = new vscode.Diagnostic(new vscode.Range(1, 9, 1, 10), 'Fixture error for the tools test', vscode.DiagnosticSeverity.Error);
      err.source = 'mg-test';
      err.code = 1234;
      const info = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'Only a hint', vscode.DiagnosticSeverity.Hint);
      diagnostics.set(a, [err, info]);
      diagnostics.set(vscode.Uri.file(path.join(outside, 'secret.txt')), [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), `${OUTSIDE_MARKER} diag`, vscode.DiagnosticSeverity.Error),
      ]);
      diagnostics.set(vscode.Uri.joinPath(folder.uri, `${FIX}/hidden/secret.txt`), [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), `${HIDDEN_MARKER} diag`, vscode.DiagnosticSeverity.Error),
      ]);

      const one = await ok('get_diagnostics', { path: 'src/a.ts' });
      assert.match(one, /src\/a\.ts\n {2}2:10 error \[mg-test 1234\]: Fixture error for the tools test/);
      assert.ok(!one.includes('Only a hint'));
      const all = await ok('get_diagnostics', {});
      assert.match(all, /Fixture error for the tools test/);
      assert.ok(!all.includes(OUTSIDE_MARKER), 'no diagnostics of files outside the workspace');
      assert.ok(!all.includes(HIDDEN_MARKER), 'no diagnostics of excluded files');
      diagnostics.clear();
      assert.equal(await ok('get_diagnostics', { path: 'README.md' }), 'No errors or warnings in README.md.');
    });
  });

  describe('parallel calls', () => {
    it('runAll runs calls concurrently and returns the results in call order', async () => {
      const results = await tools.runAll(
        [
          callOf('search_text', { query: NEEDLE }),
          callOf('read_file', { path: 'src/a.ts' }),
          callOf('read_file', { path: '../escape.txt' }),
          callOf('list_files', { path: 'src' }),
          callOf('read_file', { path: 'README.md', startLine: 1, endLine: 1 }),
        ],
        cts.token,
      );
      assert.equal(results.length, 5);
      assert.match(results[0]!.content, /needle\.ts:2:/);
      assert.match(results[1]!.content, /^src\/a\.ts \(lines 1-3 of 3\)/);
      assert.equal(results[2]!.isError, true);
      assert.match(results[3]!.content, /^\d+ files? in src:\n(src\/.*\n)*src\/a\.ts/);
      assert.match(results[4]!.content, /^README\.md \(lines 1-1 of/);
      assert.deepEqual(
        results.map((r) => r.isError),
        [false, false, true, false, false],
      );
    });
  });

  describe('never outside the workspace', () => {
    it('refuses `..` escapes', async () => {
      await refused('read_file', { path: '../outside.txt' }, /outside the workspace/);
      await refused('read_file', { path: `src/../../${path.basename(outside)}/secret.txt` }, /outside the workspace/, [OUTSIDE_MARKER]);
      await refused('list_files', { path: '..' }, /outside the workspace/);
      await refused('list_files', { glob: '../**' }, /may not contain ".."/);
      await refused('get_diagnostics', { path: '../x.ts' }, /outside the workspace/);
    });

    it('refuses absolute paths outside the workspace', async () => {
      await refused('read_file', { path: path.join(outside, 'secret.txt') }, /outside the workspace/, [OUTSIDE_MARKER]);
      await refused('read_file', { path: '/etc/passwd' }, /outside the workspace/, ['root:']);
      await refused('list_files', { path: outside }, /outside the workspace/, ['secret.txt']);
      await refused('search_text', { query: NEEDLE, glob: `${outside}/**` }, /absolute/);
    });

    it('refuses symlinks that lead outside (file and folder)', async () => {
      await refused('read_file', { path: `${FIX}/out-link.txt` }, /symbolic link to a location outside the workspace/, [OUTSIDE_MARKER]);
      await refused('read_file', { path: `${FIX}/out-dir/secret.txt` }, /outside the workspace/, [OUTSIDE_MARKER]);
      await refused('list_files', { path: `${FIX}/out-dir` }, /outside the workspace/, ['secret.txt']);
      await refused('get_diagnostics', { path: `${FIX}/out-link.txt` }, /outside the workspace/);
      const listed = await ok('list_files', { path: FIX });
      assert.ok(!listed.includes('out-dir/') && !listed.includes('out-link.txt'), listed);
    });

    it('get_selection refuses an editor that shows a file outside the workspace', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(outside, 'secret.txt')));
      const editor = await vscode.window.showTextDocument(doc);
      editor.selection = new vscode.Selection(0, 0, 0, 20);
      await refused('get_selection', {}, /outside the workspace/, [OUTSIDE_MARKER]);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    });
  });

  describe('exclusions and limits', () => {
    it('respects files.exclude, also through a symlink with an innocent name, and never reads .git', async () => {
      await refused('read_file', { path: `${FIX}/hidden/secret.txt` }, /files\.exclude/, [HIDDEN_MARKER]);
      await refused('read_file', { path: `${FIX}/innocent-name.txt` }, /files\.exclude/, [HIDDEN_MARKER]);
      await refused('read_file', { path: `${FIX}/.git/config` }, /\.git/, [GIT_MARKER]);
      const searched = await ok('search_text', { query: HIDDEN_MARKER });
      assert.match(searched, /^No matches/);
      const listed = await ok('list_files', { path: FIX });
      assert.ok(!listed.includes('hidden/'), listed);
    });

    it('search.exclude hides files from search_text only', async () => {
      const s = await ok('search_text', { query: 'search.exclude only' });
      assert.match(s, /^No matches/);
      assert.match(await ok('list_files', { path: `${FIX}/searchskip` }), /skipped\.ts/);
      assert.match(await ok('read_file', { path: `${FIX}/searchskip/skipped.ts` }), /search\.exclude only/);
    });

    it('stops a catastrophically backtracking regular expression instead of freezing the extension host', async () => {
      await refused('search_text', { query: '(a+)+$', isRegex: true, glob: `${FIX}/redos.txt` }, /too slow/);
      // the host is still responsive and the same search without the trap works
      assert.match(await ok('search_text', { query: 'a+!$', isRegex: true, glob: `${FIX}/redos.txt` }), /redos\.txt:1:/);
    });

    it('refuses binary files (by content and by extension)', async () => {
      await refused('read_file', { path: `${FIX}/blob.txt` }, /binary file/);
      await refused('read_file', { path: `${FIX}/image.png` }, /binary file/);
    });

    it('truncates a large file and says how to read the next part', async () => {
      const first = await ok('read_file', { path: `${FIX}/big.txt` });
      assert.match(first, new RegExp(`^${FIX}/big\\.txt \\(lines 1-2000 of 5000\\)\\nline 1\\n`));
      assert.match(first, /line 2000\n\[Truncated: .*call read_file with startLine 2001\.\]$/);
      assert.ok(!first.includes('line 2001'));
      const next = await ok('read_file', { path: `${FIX}/big.txt`, startLine: 2001 });
      assert.match(next, /^mg-tools-fixture\/big\.txt \(lines 2001-4000 of 5000\)\nline 2001\n/);
      const wide = await ok('read_file', { path: `${FIX}/wide.txt` });
      assert.ok(Buffer.byteLength(wide) < 256 * 1024 + 1024, `result is capped: ${Buffer.byteLength(wide)} bytes`);
      assert.match(wide, /\(lines 1-26 of 40\)/);
      await refused('read_file', { path: `${FIX}/big.txt`, startLine: 6000 }, /past the end of the file, which has 5000 lines/);
    });

    it('reports a missing file and a folder given to read_file', async () => {
      await refused('read_file', { path: 'src/nope.ts' }, /does not exist/);
      await refused('read_file', { path: 'src' }, /is a folder/);
    });
  });

  describe('bad calls', () => {
    it('explains bad JSON, bad arguments and unknown tools so the model can retry', async () => {
      await refused('read_file', '{"path": "README.md"', /not valid JSON/);
      await refused('read_file', {}, /path/);
      await refused('read_file', { path: 'README.md', colour: 'red' }, /colour/);
      await refused('read_file', { path: 'README.md', startLine: 'one' }, /startLine/);
      await refused('search_text', { query: '' }, /query/);
      await refused('write_file', { path: 'x' }, /Unknown tool "write_file"/);
      await refused('read_file', { path: 'README.md\0.png' }, /NUL/);
    });
  });

  describe('cancellation', () => {
    it('a cancelled token stops a call before it reads, and a call cancelled mid-way', async () => {
      const cancelled = new vscode.CancellationTokenSource();
      cancelled.cancel();
      const r = await tools.run(callOf('read_file', { path: 'README.md' }), cancelled.token);
      assert.equal(r.isError, true);
      assert.match(r.content, /^Cancelled/);
      assert.ok(!r.content.includes('Sample'));

      const midway = new vscode.CancellationTokenSource();
      const pending = tools.runAll([callOf('search_text', { query: NEEDLE }), callOf('list_files', {})], midway.token);
      midway.cancel();
      const results = await pending;
      assert.deepEqual(
        results.map((x) => [x.isError, x.content.slice(0, 9)]),
        [
          [true, 'Cancelled'],
          [true, 'Cancelled'],
        ],
      );
      cancelled.dispose();
      midway.dispose();
    });
  });

  describe('read-only', () => {
    it('no tool wrote anything to the workspace', async () => {
      const now = snapshot(ws);
      const changed = [...new Set([...baseline.keys(), ...now.keys()])].filter((k) => baseline.get(k) !== now.get(k));
      assert.deepEqual(changed, []);
    });
  });
});
