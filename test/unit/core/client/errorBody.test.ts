// The error-body parser and the HTML summary on hostile bodies: linear in the body.
import * as assert from 'node:assert/strict';
import { parseErrorBody, summarizeHtml } from '../../../../src/core/client/errorBody';
import { assertLinear, LINEAR_TEST_TIMEOUT_MS, repeatTo } from '../../linearGrowth';

describe('core/errorBody on hostile bodies', () => {
  it('summarises pages as before: the title, else the visible text without script, style and head', () => {
    assert.equal(summarizeHtml('<html><head><TITLE>502 Bad Gateway</Title></head><body>x</body></html>'), '502 Bad Gateway');
    assert.equal(
      summarizeHtml('<html><head><style>p{}</style></head><body><script>var a = "<b>";</script><h1>Upstream &amp; proxy</h1><p>down'),
      'Upstream & proxy down',
    );
    assert.equal(summarizeHtml('<title></title><p>Only <b>text</b> here</p><a href="x'), 'Only text here');
    assert.equal(summarizeHtml(`<p>${'<a'.repeat(300_000)}`), '');
  });

  for (const unit of ['<', '<a', '</', '<title', '<script', '<script>', '<!--', 'a<', '&a', '&#1']) {
    it(`summarizeHtml and parseErrorBody grow linearly on 8K to 128K of ${JSON.stringify(unit)}`, function () {
      this.timeout(LINEAR_TEST_TIMEOUT_MS);
      assertLinear('summarizeHtml', summarizeHtml, (n) => repeatTo(unit, n));
      assertLinear(
        'parseErrorBody',
        (s) => parseErrorBody(s, 'text/html'),
        (n) => repeatTo(unit, n),
      );
      assertLinear(
        'parseErrorBody (no type)',
        (s) => parseErrorBody(s, null),
        (n) => `<html>${repeatTo(unit, n)}`,
      );
    });
  }
});
