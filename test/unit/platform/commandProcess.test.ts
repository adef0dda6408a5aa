// run_command's process (src/platform/commandProcess.ts): a child process whose output and exit
// code come back, whose Stop ends what it started, and whose allowed words run without a shell.
import * as assert from 'node:assert/strict';
import { startProcess } from '../../../src/platform/commandProcess';
import { OutputCollector, stripTerminalCodes } from '../../../src/agentTools/commandOutput';

describe('command process (run_command)', function () {
  this.timeout(30_000);

  it('returns the output of stdout and stderr and the exit code', async () => {
    let out = '';
    const run = startProcess(`node -e "console.log('MG_OUT'); console.error('MG_ERR'); process.exit(4)"`, process.cwd(), (s) => (out += s));
    assert.deepEqual(await run.exited, { exitCode: 4 });
    assert.match(out, /MG_OUT/);
    assert.match(out, /MG_ERR/);
  });

  it('allowed words run without a shell: nothing in them is expanded, and control characters stay characters', async function () {
    if (process.platform === 'win32') this.skip();
    let out = '';
    const argv = ['node', '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$HOME', '*', '~', 'a\u007fb\u0015c'];
    const run = startProcess({ argv }, process.cwd(), (s) => (out += s));
    assert.deepEqual(await run.exited, { exitCode: 0 });
    assert.deepEqual(JSON.parse(out), ['$HOME', '*', '~', 'a\u007fb\u0015c']);
  });

  it('an approved line goes to the shell with -c, where control characters are not key presses', async function () {
    if (process.platform === 'win32') this.skip();
    let out = '';
    // typed into a terminal, Ctrl-U would erase "echo kept" and run only what follows it
    const run = startProcess({ shellLine: "echo kept\u0015 'after'" }, process.cwd(), (s) => (out += s));
    assert.deepEqual(await run.exited, { exitCode: 0 });
    assert.equal(out, 'kept\u0015 after\n');
  });

  it('a line that cannot start (a NUL character) reports why and exits with no code', async () => {
    let out = '';
    const run = startProcess({ argv: ['echo', 'a\u0000b'] }, process.cwd(), (s) => (out += s));
    assert.deepEqual(await run.exited, { exitCode: undefined });
    assert.match(out, /null bytes|NUL|\\0/i);
  });

  it('Stop ends the command and the processes it started', async () => {
    let out = '';
    const run = startProcess(`node -e "console.log('up'); setTimeout(() => {}, 60000)" | cat`, process.cwd(), (s) => (out += s));
    while (!out.includes('up')) await new Promise((r) => setTimeout(r, 20));
    run.stop(500);
    const r = await run.exited;
    assert.equal(r.exitCode === 0, false, 'not a normal exit');
  });

  it('output is capped, keeping its start and end, without escape codes', () => {
    const c = new OutputCollector(16 * 1024);
    c.add('\u001b[32mSTART\u001b[0m\n');
    for (let i = 0; i < 5000; i++) c.add(`line ${i}\n`);
    c.add('END\n');
    const text = c.text();
    assert.ok(text.startsWith('START\n'));
    assert.ok(text.endsWith('END\n'));
    assert.match(text, /characters of output left out/);
    assert.ok(text.length < 17 * 1024);
    assert.equal(stripTerminalCodes('a\u001b]633;C\u0007b\n 10%\r 100%\r\nc'), 'ab\n 100%\nc');
  });
});
