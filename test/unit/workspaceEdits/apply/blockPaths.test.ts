// Where a code block says it goes (src/workspaceEdits/apply/blockPaths.ts): the path in its info string or
// first-line comment, and the fence of a block found again in the transcript.
import * as assert from 'node:assert/strict';
import {
  fencesOf,
  findFenceInfo,
  langFromInfoString,
  looksLikePath,
  pathFromInfo,
  pathFromLeadingComment,
  withoutLine,
} from '../../../../src/workspaceEdits/apply/blockPaths';
import { assertLinear, LINEAR_TEST_TIMEOUT_MS, repeatTo } from '../../linearGrowth';

describe('apply: the path of a block (pure)', () => {
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
});

describe('apply: block paths on hostile first lines grow linearly', function () {
  this.timeout(LINEAR_TEST_TIMEOUT_MS);
  const cases: [string, (n: number) => string][] = [
    ['/* and stars', (n) => `/*${'*'.repeat(n - 2)}`],
    ['/* stars, then text', (n) => `/*${'*'.repeat(n / 2)} a ${'*'.repeat(n / 2)}`],
    ['/** a.ts', (n) => `/**${' a.ts'.repeat(n / 5)}`],
    ['runs of #', (n) => repeatTo('### ', n)],
    ['#', (n) => repeatTo('#', n)],
    ['// and words', (n) => `// ${repeatTo('a ', n)}`],
    ['<!-- and dashes', (n) => `<!--${repeatTo('-', n)}`],
    ['a 4,001-character first line and more', (n) => `${repeatTo('a', 4001)}\n${repeatTo('x\n', n)}`],
  ];
  for (const [name, input] of cases) {
    it(`pathFromLeadingComment: ${name}`, () => {
      assertLinear('pathFromLeadingComment', pathFromLeadingComment, input);
    });
  }

  it('fencesOf, findFenceInfo, pathFromInfo and langFromInfoString', () => {
    for (const unit of ['`', '~', '> ', ' ', '```', '> ```', 'a ']) {
      assertLinear(`fencesOf ${JSON.stringify(unit)}`, fencesOf, (n) => repeatTo(unit, n));
      assertLinear(
        `findFenceInfo ${JSON.stringify(unit)}`,
        (s) => findFenceInfo([s], s),
        (n) => repeatTo(unit, n),
      );
      assertLinear(`pathFromInfo ${JSON.stringify(unit)}`, pathFromInfo, (n) => repeatTo(unit, n));
      assertLinear(`langFromInfoString ${JSON.stringify(unit)}`, langFromInfoString, (n) => repeatTo(unit, n));
    }
  });

  it('still reads the path comments it read before', () => {
    assert.deepEqual(pathFromLeadingComment('/** src/a.ts **/\nx'), { path: 'src/a.ts', explicit: false, line: 0 });
    assert.deepEqual(pathFromLeadingComment('\n  <!-- file: web/index.html -->\n<p>'), { path: 'web/index.html', explicit: true, line: 1 });
    assert.deepEqual(pathFromLeadingComment('### notes.md'), { path: 'notes.md', explicit: false, line: 0 });
    assert.equal(pathFromLeadingComment(`// ${'a'.repeat(4001)}.ts`), undefined);
  });
});
