import * as assert from 'node:assert/strict';
import { conversationFiles, type ConversationLike } from '../../../../src/chat/apply/answerFiles';
import { declaredName, findRegionBySymbols, findRegionByText, isSingleConstruct, isWholeFile, placeBlock, reindent, replaceRegion } from '../../../../src/chat/apply/blockRegions';
import { fencesOf, findFenceInfo, langFromInfoString, looksLikePath, pathFromInfo, pathFromLeadingComment, withoutLine } from '../../../../src/chat/apply/blockPaths';
import { languageIdOfFence, languageIdOfPath, languagesCompatible } from '../../../../src/chat/apply/blockLanguages';

const TS_FILE = [
  "import { x } from './x';",
  '',
  '/** Adds. */',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export class Calc {',
  '  total = 0;',
  '  push(n: number): void {',
  '    this.total += n;',
  '  }',
  '}',
  '',
  'export const LIMIT = 10;',
  '',
].join('\n');

describe('apply: where a block goes (pure)', () => {
  describe('paths in the info string', () => {
    const cases: [string, string | undefined][] = [
      ['ts src/a.ts', 'src/a.ts'],
      ['ts:src/a.ts', 'src/a.ts'],
      ['ts title=src/a.ts', 'src/a.ts'],
      ['ts title="src/a.ts"', 'src/a.ts'],
      ['go file=cmd/main.go {1,3}', 'cmd/main.go'],
      ['src/a.ts', 'src/a.ts'],
      ['python', undefined],
      ['ts', undefined],
      ['', undefined],
      ['ts showLineNumbers', undefined],
      ['ts {1,3}', undefined],
      ['ts https://example.com/a.ts', undefined],
      ['js node.js', 'node.js'],
      ['Dockerfile', undefined],
      ['dockerfile build/Dockerfile', 'build/Dockerfile'],
    ];
    for (const [info, want] of cases) {
      it(`"${info}" -> ${want ?? 'none'}`, () => assert.equal(pathFromInfo(info), want));
    }
    it('the language of an info string', () => {
      assert.equal(langFromInfoString('ts src/a.ts'), 'ts');
      assert.equal(langFromInfoString('ts:src/a.ts'), 'ts');
      assert.equal(langFromInfoString('src/a.ts'), undefined);
      assert.equal(langFromInfoString(''), undefined);
    });
    it('looksLikePath refuses URLs, words and spaces', () => {
      assert.equal(looksLikePath('src/a.ts'), true);
      assert.equal(looksLikePath('.eslintrc.json'), true);
      assert.equal(looksLikePath('https://x.y/a.ts'), false);
      assert.equal(looksLikePath('hello'), false);
      assert.equal(looksLikePath('my file.ts'), false);
    });
  });

  describe('leading path comments', () => {
    it('reads // # /* */ <!-- --> forms, with or without "file:"', () => {
      assert.deepEqual(pathFromLeadingComment('// src/a.ts\nexport const a = 1;'), { path: 'src/a.ts', line: 0, explicit: false });
      assert.deepEqual(pathFromLeadingComment('\n# file: app/main.py\nprint(1)'), { path: 'app/main.py', line: 1, explicit: true });
      assert.deepEqual(pathFromLeadingComment('/* styles/site.css */\nbody {}'), { path: 'styles/site.css', line: 0, explicit: false });
      assert.deepEqual(pathFromLeadingComment('<!-- filepath: web/index.html -->\n<p>'), { path: 'web/index.html', line: 0, explicit: true });
    });
    it('ignores ordinary comments and shebangs', () => {
      assert.equal(pathFromLeadingComment('// adds two numbers\nfunction add() {}'), undefined);
      assert.equal(pathFromLeadingComment('#!/usr/bin/env node\nx'), undefined);
      assert.equal(pathFromLeadingComment('const a = 1; // a.ts'), undefined);
    });
    it('withoutLine drops the marker and the blank line after it', () => {
      assert.equal(withoutLine('// src/a.ts\n\nexport const a = 1;', 0), 'export const a = 1;');
    });
  });

  describe('the fence of a block in the transcript', () => {
    it('finds the info string of the newest fence with exactly that code', () => {
      const older = 'Here:\n```ts src/old.ts\nconst a = 1;\n```\n';
      const newer = 'Try:\n\n```ts src/new.ts\nconst a = 1;\n```\n\nand\n\n~~~go cmd/x.go\nfunc X() {}\n~~~';
      assert.equal(findFenceInfo([older, newer], 'const a = 1;'), 'ts src/new.ts');
      assert.equal(findFenceInfo([older, newer], 'func X() {}'), 'go cmd/x.go');
      assert.equal(findFenceInfo([older], 'nothing'), undefined);
    });
    it('handles fences indented in a list and longer closing fences', () => {
      const md = '1. Change it:\n\n   ```py app/a.py\n   def f():\n       return 1\n   ````\n';
      assert.deepEqual(fencesOf(md), [{ info: 'py app/a.py', content: 'def f():\n    return 1' }]);
    });
  });

  describe('languages', () => {
    it('maps fence names and extensions to VS Code ids', () => {
      assert.equal(languageIdOfFence('ts'), 'typescript');
      assert.equal(languageIdOfFence('golang'), 'go');
      assert.equal(languageIdOfFence('go'), 'go');
      assert.equal(languageIdOfPath('src/a.tsx'), 'typescriptreact');
      assert.equal(languageIdOfPath('main.go'), 'go');
      assert.equal(languageIdOfPath('README'), undefined);
    });
    it('a Go block into a TypeScript file is a mismatch; JS into TS, unknown or plain text are not', () => {
      assert.equal(languagesCompatible('go', 'typescript'), false);
      assert.equal(languagesCompatible('python', 'javascript'), false);
      assert.equal(languagesCompatible('javascript', 'typescript'), true);
      assert.equal(languagesCompatible('typescript', 'typescript'), true);
      assert.equal(languagesCompatible(undefined, 'typescript'), true);
      assert.equal(languagesCompatible('plaintext', 'go'), true);
      assert.equal(languagesCompatible('json', 'jsonc'), true);
    });
  });

  describe('declarations', () => {
    const cases: [string, string | undefined][] = [
      ['export function add(a: number) {', 'add'],
      ['export default async function main() {', 'main'],
      ['func (s *Server) Serve(l net.Listener) error {', 'Serve'],
      ['func Add(a, b int) int {', 'Add'],
      ['def handle(self, x):', 'handle'],
      ['async def fetch():', 'fetch'],
      ['pub async fn run(cfg: Config) -> Result<()> {', 'run'],
      ['export class Calc {', 'Calc'],
      ['interface Shape {', 'Shape'],
      ['export const LIMIT = 10;', 'LIMIT'],
      ['  push(n: number): void {', 'push'],
      ['  public async save(): Promise<void> {', 'save'],
      ['public static int Sum(int a, int b) {', 'Sum'],
      ['if (x) {', undefined],
      ['return add(a, b);', undefined],
      ['console.log(x);', undefined],
    ];
    for (const [line, want] of cases) it(`${JSON.stringify(line)} -> ${want ?? 'none'}`, () => assert.equal(declaredName(line), want));
  });

  describe('whole-file blocks', () => {
    it('a block with the file\'s first and last lines is the whole file; an empty file takes anything', () => {
      const whole = TS_FILE.replace('return a + b;', 'return b + a;');
      assert.equal(isWholeFile(TS_FILE, whole), true);
      assert.equal(isWholeFile(TS_FILE, 'export function add(a: number, b: number): number {\n  return 0;\n}'), false);
      assert.equal(isWholeFile('', 'anything'), true);
      assert.equal(isWholeFile('\n\n', 'anything'), true);
    });
  });

  describe('placeBlock: a region first for a single construct, the whole file for several', () => {
    it('a function that shares the file\'s first and last lines ("}") replaces only that function', () => {
      const block = 'export function add(a: number, b: number): number {\n  return b + a;\n}';
      const file = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function mul(a: number, b: number): number {\n  return a * b;\n}\n';
      assert.equal(isWholeFile(file, block), true, 'the line test alone would say whole file');
      assert.deepEqual(placeBlock(file, block), { start: 0, end: 3 });
    });
    it('several constructs with the file\'s first and last lines: the whole file; otherwise ask', () => {
      const whole = TS_FILE.replace('return a + b;', 'return b + a;');
      assert.equal(isSingleConstruct(whole), false);
      assert.equal(placeBlock(TS_FILE, whole), 'whole');
      assert.equal(placeBlock(TS_FILE, 'function x() {}\nfunction y() {}'), undefined);
      assert.equal(placeBlock('', 'anything'), 'whole');
    });
    it('isSingleConstruct', () => {
      assert.equal(isSingleConstruct('/** doc */\nfunction f() {\n  return 1;\n}\n'), true);
      assert.equal(isSingleConstruct('const a = 1;'), true);
      assert.equal(isSingleConstruct('const a = 1;\nconst b = 2;'), false);
      assert.equal(isSingleConstruct('def f():\n    return 1\n'), true);
    });
  });

  describe('regions found from the text', () => {
    it('a function with the same first line replaces that function (to its closing brace)', () => {
      const block = 'export function add(a: number, b: number): number {\n  return b + a;\n}';
      assert.deepEqual(findRegionByText(TS_FILE, block), { start: 3, end: 6 });
    });
    it('a changed signature is found by the declared name', () => {
      const block = 'export function add(a: number, b: number, c = 0): number {\n  return a + b + c;\n}';
      assert.deepEqual(findRegionByText(TS_FILE, block), { start: 3, end: 6 });
    });
    it('a block with a doc comment replaces the file\'s doc comment too; one without keeps it', () => {
      const block = '/** Adds, loudly. */\nexport function add(a: number, b: number): number {\n  return a + b;\n}';
      assert.deepEqual(findRegionByText(TS_FILE, block), { start: 2, end: 6 });
    });
    it('a method inside a class', () => {
      const block = 'push(n: number): void {\n  this.total += 2 * n;\n}';
      assert.deepEqual(findRegionByText(TS_FILE, block), { start: 9, end: 12 });
    });
    it('a one-line statement replaces its line', () => {
      assert.deepEqual(findRegionByText(TS_FILE, 'export const LIMIT = 20;'), { start: 14, end: 15 });
    });
    it('Python: an indented block', () => {
      const py = 'import os\n\ndef f(x):\n    y = x\n\n    return y\n\ndef g():\n    pass\n';
      assert.deepEqual(findRegionByText(py, 'def f(x):\n    return x * 2'), { start: 2, end: 6 });
    });
    it('Go: braces, and a receiver', () => {
      const go = 'package main\n\nfunc (c *Calc) Add(n int) {\n\tc.total += n\n}\n\nfunc main() {\n\tfmt.Println("}")\n}\n';
      assert.deepEqual(findRegionByText(go, 'func (c *Calc) Add(n int) {\n\tc.total += 2 * n\n}'), { start: 2, end: 5 });
      assert.deepEqual(findRegionByText(go, 'func main() {\n\tfmt.Println("hi")\n}'), { start: 6, end: 9 }, 'a brace inside a string does not end it');
    });
    it('no match, or two candidates: undefined (the user is asked)', () => {
      assert.equal(findRegionByText(TS_FILE, 'function other() {\n}'), undefined);
      assert.equal(findRegionByText('}\nfoo();\nfoo();\n', 'foo();'), undefined);
      assert.equal(findRegionByText(TS_FILE, '// just a comment'), undefined);
    });
  });

  describe('regions found from document symbols', () => {
    const symbols = [
      { name: 'add', startLine: 3, endLine: 5 },
      { name: 'Calc', startLine: 7, endLine: 12 },
      { name: 'push', startLine: 9, endLine: 11 },
      { name: 'LIMIT', startLine: 14, endLine: 14 },
    ];
    it('the symbol named like the block\'s declaration', () => {
      assert.deepEqual(findRegionBySymbols(TS_FILE, 'export class Calc {\n  total = 1;\n}', symbols), { start: 7, end: 13 });
      assert.deepEqual(findRegionBySymbols(TS_FILE, 'push(n: number): void {}', symbols), { start: 9, end: 12 });
    });
    it('two symbols of that name are told apart by the first line, else undefined', () => {
      const two = [...symbols, { name: 'push', startLine: 0, endLine: 0 }];
      assert.deepEqual(findRegionBySymbols(TS_FILE, '  push(n: number): void {\n  }', two), { start: 9, end: 12 });
      assert.equal(findRegionBySymbols(TS_FILE, 'push(x) {}', two), undefined);
      assert.equal(findRegionBySymbols(TS_FILE, 'function nope() {}', symbols), undefined);
    });
  });

  describe('edits', () => {
    it('replaceRegion keeps the other lines and the file\'s line ends', () => {
      assert.equal(replaceRegion('a\nb\nc\n', { start: 1, end: 2 }, 'B1\nB2\n'), 'a\nB1\nB2\nc\n');
      assert.equal(replaceRegion('a\r\nb\r\nc', { start: 0, end: 1 }, 'A'), 'A\r\nb\r\nc');
    });
    it('reindent moves a method to the indentation of the region it replaces', () => {
      assert.equal(reindent('push() {\n  x();\n}', '  '), '  push() {\n    x();\n  }');
      assert.equal(reindent('  a\n  b', '  '), '  a\n  b');
    });
  });

  describe('files the conversation names', () => {
    it('newest first: tool reads, attached selections and files, pinned files, the pending selection first', () => {
      const c: ConversationLike = {
        pinned: [{ path: 'src/pinned.ts' }],
        pending: [{ kind: 'selection', label: 'src/pending.ts:3-4' }, { kind: 'image', label: 'shot.png' }],
        messages: [
          { role: 'user', attachments: [{ kind: 'selection', label: 'src/sel.ts:10' }] },
          {
            role: 'assistant',
            parts: [
              { kind: 'tool', call: { name: 'read_file', arguments: '{"path":"src/read1.ts"}' } },
              { kind: 'tool', call: { name: 'list_files', arguments: '{"path":"src"}' } },
              { kind: 'tool', call: { name: 'read_file', arguments: '{"path":"src/read2.ts"}' } },
              { kind: 'tool', call: { name: 'read_file', arguments: '{broken' } },
              { kind: 'text', text: 'done' },
            ],
          },
        ],
      };
      assert.deepEqual(conversationFiles(c), ['src/pending.ts', 'src/read2.ts', 'src/read1.ts', 'src/sel.ts', 'src/pinned.ts']);
    });
  });
});
