// What the model reads of a command's output: escape codes and carriage-return redraws removed,
// in time that grows linearly with the output, whatever its shape (a command can print one
// 48 KB line without a newline, and the cleaning runs on the extension host).
import * as assert from 'node:assert/strict';
import { OutputCollector, stripTerminalCodes } from '../../../src/agentTools/commandOutput';
import { assertLinear, LINEAR_TEST_TIMEOUT_MS, repeatTo } from '../linearGrowth';

describe('agentTools/commandOutput: cleaning a command output', function () {
  it('removes colours, cursor moves, OSC marks and two-character escapes', () => {
    assert.equal(stripTerminalCodes('\u001b[1;32mok\u001b[0m \u001b[2K\u001b[1Gdone'), 'ok done');
    assert.equal(stripTerminalCodes('a\u001b]633;C\u0007b\u001b]0;title\u001b\\c'), 'abc');
    assert.equal(stripTerminalCodes('x\u001b=y\u001b>z'), 'xyz');
  });

  it('keeps what a line redrawn with carriage returns ended as, and turns CRLF into LF', () => {
    assert.equal(stripTerminalCodes('a\u001b]633;C\u0007b\n 10%\r 100%\r\nc'), 'ab\n 100%\nc');
    assert.equal(stripTerminalCodes('one\r\ntwo\r\n'), 'one\ntwo\n');
    assert.equal(stripTerminalCodes('1/3\r2/3\r3/3\nnext\rlast'), '3/3\nlast');
    // carriage returns just before the line's end are its end, not a redraw of nothing
    assert.equal(stripTerminalCodes('done\r\r\nend\r'), 'done\nend');
  });

  it('leaves an unterminated sequence without its escape, and plain text as it is', () => {
    assert.equal(stripTerminalCodes('a\u001b]no end'), 'ano end');
    assert.equal(stripTerminalCodes('plain text\n\twith tabs'), 'plain text\n\twith tabs');
    assert.equal(stripTerminalCodes(''), '');
  });

  it('grows linearly on one long line, long redraws and long escape sequences', function () {
    this.timeout(LINEAR_TEST_TIMEOUT_MS);
    const shapes: Array<[string, (n: number) => string]> = [
      ['one line without a newline', (n) => 'a'.repeat(n)],
      ['one redraw per character', (n) => repeatTo('a\r', n)],
      ['a carriage return at the end of one long line', (n) => 'a'.repeat(n - 1) + '\r'],
      ['colour codes without text', (n) => repeatTo('\u001b[1;32m', n)],
      ['an unterminated CSI', (n) => '\u001b[' + repeatTo('0;', n - 2)],
      ['unterminated OSC marks', (n) => repeatTo('\u001b]633;', n)],
      ['one OSC mark without its end', (n) => '\u001b]' + 'a'.repeat(n - 2)],
      ['escapes without a sequence', (n) => repeatTo('\u001b', n)],
    ];
    for (const [name, input] of shapes) assertLinear(name, stripTerminalCodes, input);
  });

  it('the collector hands the model a long single line in time that grows linearly', function () {
    this.timeout(LINEAR_TEST_TIMEOUT_MS);
    assertLinear(
      'collector',
      (s) => {
        const c = new OutputCollector(256 * 1024);
        for (let i = 0; i < s.length; i += 4096) c.add(s.slice(i, i + 4096));
        return c.text();
      },
      (n) => 'a'.repeat(n),
    );
  });
});
