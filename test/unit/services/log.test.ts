// The Modelgate output channel gets every line capped, whatever a caller hands it: a tool's 10 MB
// error went into the log whole, as one line, and rotated the log away.
import * as assert from 'node:assert/strict';
import { LOG_LINE_CHARS } from '../../../src/core/logText';
import { installVscodeStub, stubState } from '../vscodeStub';

describe('services/log: the output channel', () => {
  it('writes the start and the length of a long line, at every level', async () => {
    installVscodeStub();
    const { createLog } = await import('../../../src/services/log');
    const log = createLog();
    stubState.logLines.length = 0;
    const huge = 'x'.repeat(10 * 1024 * 1024);
    log.error(`Chat: a tool failed: ${huge}`);
    log.warn(huge);
    log.info(huge);
    log.debug(huge);
    log.info('a short line');
    assert.deepEqual(
      stubState.logLines.map((l) => l.level),
      ['error', 'warn', 'info', 'debug', 'info'],
    );
    for (const l of stubState.logLines.slice(0, 4)) {
      assert.ok(l.text.length < LOG_LINE_CHARS + 40, `${l.level}: ${l.text.length} characters`);
      assert.match(l.text, /… \(1048\d{4} characters\)$/);
    }
    assert.equal(stubState.logLines[4]!.text, 'a short line');
    log.dispose();
  });
});
