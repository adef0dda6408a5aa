import * as assert from 'node:assert/strict';
import { applySearchReplace, changedRange, lineDelta } from '../../../../src/core/workspace/searchReplace';

describe('searchReplace (edit_file)', () => {
  it('applies pairs in order, each to the result of the ones before', () => {
    const r = applySearchReplace(
      'a\nb\nc\n',
      [
        { search: 'b\n', replace: 'B\nB2\n' },
        { search: 'B2', replace: 'x' },
      ],
      'f.ts',
    );
    assert.deepEqual(r, { ok: true, text: 'a\nB\nx\nc\n' });
  });

  it('refuses a search text that is not unique, naming the lines, and applies nothing', () => {
    const r = applySearchReplace(
      'x = 1;\ny\nx = 1;\n',
      [
        { search: 'y', replace: 'Y' },
        { search: 'x = 1;', replace: 'x = 2;' },
      ],
      'f.ts',
    );
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.forModel : '', /Edit 2 of 2 for "f\.ts": the search text is not unique: it occurs 2 times \(lines 1, 3\)/);
    assert.match(!r.ok ? r.forModel : '', /Nothing was changed/);
  });

  it('refuses a missing or empty search text', () => {
    const missing = applySearchReplace('abc', [{ search: 'zzz', replace: '' }], 'f.ts');
    assert.match(!missing.ok ? missing.forModel : '', /was not found/);
    const empty = applySearchReplace('abc', [{ search: '', replace: 'x' }], 'f.ts');
    assert.match(!empty.ok ? empty.forModel : '', /empty search text/);
  });

  it('matches LF search text in a CRLF file and keeps CRLF', () => {
    const r = applySearchReplace('one\r\ntwo\r\nthree\r\n', [{ search: 'one\ntwo\n', replace: 'ONE\nTWO\n' }], 'f.ts');
    assert.deepEqual(r, { ok: true, text: 'ONE\r\nTWO\r\nthree\r\n' });
  });

  it('counts added and removed lines; a new file is all added, a deleted one all removed', () => {
    assert.deepEqual(lineDelta('a\nb\nc\n', 'a\nB\nc\nd\n'), { added: 2, removed: 1 });
    assert.deepEqual(lineDelta(undefined, 'x\ny\n'), { added: 2, removed: 0 });
    assert.deepEqual(lineDelta('x\ny\n', undefined), { added: 0, removed: 2 });
    assert.deepEqual(lineDelta('same\n', 'same\n'), { added: 0, removed: 0 });
  });

  it('finds the smallest changed range, never splitting a CRLF or a surrogate pair', () => {
    const check = (before: string, after: string) => {
      const r = changedRange(before, after);
      assert.equal(before.slice(0, r.start) + r.text + before.slice(r.end), after, JSON.stringify([before, after]));
      return r;
    };
    assert.deepEqual(check('abcdef', 'abXdef'), { start: 2, end: 3, text: 'X' });
    const crlf = check('a\r\nb', 'a\nb');
    assert.ok(crlf.start <= 1);
    const emoji = check('x\u{1F600}y', 'x\u{1F601}y');
    assert.equal(emoji.start, 1);
    let seed = 20261126;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['a', 'b', '\r', '\n', '\u{1F600}'];
    for (let i = 0; i < 200; i++) {
      const rnd = (n: number) => Array.from({ length: n }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      check(rnd(i % 13), rnd((i * 7) % 11));
    }
  });
});
