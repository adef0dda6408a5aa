// A log line holds at most the first few hundred characters of any text and its length: a tool's
// error or a server's words can be megabytes, and one such line rotates the whole log away.
import * as assert from 'node:assert/strict';
import { clipForLog, LOG_LINE_CHARS, LOG_PIECE_CHARS, logLine } from '../../../src/core/logText';

describe('core/logText: log lines are capped', () => {
  it('keeps a short text as it is', () => {
    assert.equal(clipForLog('kaput'), 'kaput');
    assert.equal(clipForLog('x'.repeat(LOG_PIECE_CHARS)), 'x'.repeat(LOG_PIECE_CHARS));
    assert.equal(logLine('Chat answer done: m (direct), 1 request(s), 5 ms'), 'Chat answer done: m (direct), 1 request(s), 5 ms');
  });

  it('keeps the start and the length of a long text', () => {
    const huge = 'E'.repeat(10 * 1024 * 1024);
    const piece = clipForLog(huge);
    assert.equal(piece, `${'E'.repeat(LOG_PIECE_CHARS)}… (10485760 characters)`);
    const line = logLine(`Chat: VS Code tool t failed: ${huge}`);
    assert.ok(line.length < LOG_LINE_CHARS + 40, `${line.length} characters`);
    assert.ok(line.startsWith('Chat: VS Code tool t failed: EEE'));
    assert.ok(line.endsWith(`… (${huge.length + 29} characters)`));
  });

  it('never cuts a character in half', () => {
    const text = 'a' + '😀'.repeat(400); // the 300th code unit is a high surrogate
    const piece = clipForLog(text);
    assert.equal(piece, `a${'😀'.repeat(149)}… (801 characters)`);
    assert.doesNotMatch(piece, /[\ud800-\udbff](?![\udc00-\udfff])/, 'no lone high surrogate');
  });
});
