// A label made from a conversation's or a model's text (src/core/plainLabel.ts): nothing in it can
// hide, reorder or draw, and ordinary text stays as it is.
import * as assert from 'node:assert/strict';
import { plainLabel } from '../../../src/core/plainLabel';

describe('core: plain labels', () => {
  it('keeps ordinary text, emoji and non-Latin scripts as they are', () => {
    assert.equal(plainLabel('  Grüße — 日本語 🙂 עברית\tok '), 'Grüße — 日本語 🙂 עברית ok');
    assert.equal(plainLabel('cost $5 (approx)'), 'cost $5 (approx)');
  });

  it('drops control characters and bidi overrides, and breaks the icon syntax', () => {
    assert.equal(plainLabel('a\u202Egnp.exe\u202C\u0000 $(alert) b'), 'agnp.exe $\u200b(alert) b');
  });
});
