// CSV cells that a spreadsheet would run as a formula even behind invisible characters.
import * as assert from 'node:assert/strict';
import { csvCell, csvNumber } from '../../../../src/core/spend/spendCsv';

describe('core/spend/spendCsv: formula cells behind control or invisible characters', () => {
  it('neutralises = + - @ after a NUL, other control characters, a BOM, blanks or zero-width characters', () => {
    const leads = ['\u0000', '\u0000\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\ufeff', ' ', '\u00a0', '\u200b', '\u2060', '\u3000', '\u0000 \u200b'];
    for (const lead of leads) {
      for (const op of ['=', '+', '-', '@', '\uff1d']) {
        const v = `${lead}${op}HYPERLINK("http://x")`;
        assert.ok(csvCell(v).startsWith(`"'`), JSON.stringify(v));
      }
    }
  });

  it('neutralises any cell that starts with a control character', () => {
    for (const v of ['\u0000', '\u0000cmd', '\u0007x', '\u009bx']) assert.ok(csvCell(v).startsWith(`"'`), JSON.stringify(v));
  });

  it('leaves ordinary text, inner signs and numbers alone', () => {
    assert.equal(csvCell('gpt-4o-mini'), 'gpt-4o-mini');
    assert.equal(csvCell('a=b'), 'a=b');
    assert.equal(csvCell(' text'), ' text');
    assert.equal(csvCell(-1), '-1');
  });

  it('writes costs without float noise and never in exponent form', () => {
    assert.equal(csvNumber(0.0024731999999999996), '0.0024732');
    assert.equal(csvNumber(0.1 + 0.2), '0.3');
    assert.equal(csvNumber(1e-7), '0.0000001');
    assert.equal(csvNumber(42), '42');
    assert.equal(csvCell(0.0024731999999999996), '0.0024732');
  });
});
