// Where in the file a block goes (src/workspaceEdits/apply/blockRegions.ts): the whole file, or the region of
// the construct it replaces, found from the text or from document symbols.
import * as assert from 'node:assert/strict';
import {
  declaredName,
  findRegionBySymbols,
  findRegionByText,
  isSingleConstruct,
  isWholeFile,
  placeBlock,
  reindent,
  replaceRegion,
} from '../../../../src/workspaceEdits/apply/blockRegions';
import { assertLinear, LINEAR_TEST_TIMEOUT_MS, repeatTo } from '../../linearGrowth';

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
    it("a block with the file's first and last lines is the whole file; an empty file takes anything", () => {
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
      const file =
        'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function mul(a: number, b: number): number {\n  return a * b;\n}\n';
      assert.equal(isWholeFile(file, block), true, 'the line test alone would say whole file');
      assert.deepEqual(placeBlock(file, block), { start: 0, end: 3 });
    });
    it("several constructs with the file's first and last lines: the whole file; otherwise ask", () => {
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
    it("a block with a doc comment replaces the file's doc comment too; one without keeps it", () => {
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
    it("the symbol named like the block's declaration", () => {
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
    it("replaceRegion keeps the other lines and the file's line ends", () => {
      assert.equal(replaceRegion('a\nb\nc\n', { start: 1, end: 2 }, 'B1\nB2\n'), 'a\nB1\nB2\nc\n');
      assert.equal(replaceRegion('a\r\nb\r\nc', { start: 0, end: 1 }, 'A'), 'A\r\nb\r\nc');
    });
    it('reindent moves a method to the indentation of the region it replaces', () => {
      assert.equal(reindent('push() {\n  x();\n}', '  '), '  push() {\n    x();\n  }');
      assert.equal(reindent('  a\n  b', '  '), '  a\n  b');
    });
  });
});

describe('apply: placing a block with hostile lines grows linearly', function () {
  this.timeout(LINEAR_TEST_TIMEOUT_MS);
  for (const unit of ['\\"', '"', "\\'", '`\\', '/*', '//', '{', '(', 'a ', '@a(', 'public ', '"a', "'a\\"]) {
    it(`a first line of 8K to 128K of ${JSON.stringify(unit)}`, () => {
      assertLinear(
        'placeBlock',
        (code) => placeBlock(TS_FILE, code),
        (n) => `${repeatTo(unit, n)}\nfunction add() {\n}`,
      );
      assertLinear('isSingleConstruct', isSingleConstruct, (n) => repeatTo(unit, n));
      assertLinear('declaredName', declaredName, (n) => repeatTo(unit, n));
      assertLinear(
        'findRegionByText',
        (code) => findRegionByText(`${TS_FILE}${code}\n`, code),
        (n) => repeatTo(unit, n),
      );
    });
  }

  it('strings and comments are still set aside when braces are counted', () => {
    assert.equal(isSingleConstruct('function f() {\n  const s = "}\\"}";\n  /* } */ return 1; // }\n}'), true);
  });
});
