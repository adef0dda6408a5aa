// Pure parts of the workspace tools: argument schemas, text slicing and caps, binary sniffing,
// glob strings and the regex timeout guard.
import * as assert from 'node:assert/strict';
import { isEditToolName, parseToolArgs, TOOL_DEFINITIONS } from '../../../src/agentTools/schemas';
import { LIMITS } from '../../../src/agentTools/limits';
import {
  capResult,
  clipToBytes,
  decodeText,
  formatFileSlice,
  hasBinaryExtension,
  looksBinary,
  previewLine,
  sliceLines,
  splitLines,
} from '../../../src/agentTools/text';
import { checkRelativeGlob, escapeGlob, excludeGlob, expandBraces } from '../../../src/agentTools/globs';
import {
  compileRegex,
  forgetSlowScans,
  limitedScan,
  literalTester,
  MAX_RUNNING_SCANS,
  regexTester,
  scanText,
  ScanTimeout,
  SLOW_SCAN_MEMORY_MS,
} from '../../../src/agentTools/textScan';
import * as fs from 'node:fs';
import { createRegexScanner, endIdleScanWorkers, endScanHost, idleScanWorkers, scanHostPid } from '../../../src/agentTools/regexScan';

describe('tool schemas', () => {
  it('defines the five read-only tools, the three edit tools and run_command with closed JSON schemas and descriptions', () => {
    const names = TOOL_DEFINITIONS.map((d) => d.function.name);
    // the edit tools are offered only with the edits under review, run_command only with the
    // panel's approval and a Node host (src/agentTools/index.ts)
    assert.deepEqual(names, [
      'read_file',
      'list_files',
      'search_text',
      'get_selection',
      'get_diagnostics',
      'edit_file',
      'create_file',
      'delete_file',
      'run_command',
    ]);
    assert.deepEqual(
      names.filter((n) => isEditToolName(n)),
      ['edit_file', 'create_file', 'delete_file'],
    );
    for (const d of TOOL_DEFINITIONS) {
      const p = d.function.parameters as {
        type: string;
        additionalProperties: boolean;
        properties: Record<string, { description?: string }>;
        $schema?: string;
      };
      assert.equal(d.type, 'function');
      assert.equal(p.type, 'object');
      assert.equal(p.additionalProperties, false, d.function.name);
      assert.equal(p.$schema, undefined);
      assert.ok(d.function.description && d.function.description.length > 20);
      for (const [k, v] of Object.entries(p.properties ?? {})) assert.ok(v.description, `${d.function.name}.${k} has a description`);
    }
    const read = TOOL_DEFINITIONS[0]!.function.parameters as { required: string[] };
    assert.deepEqual(read.required, ['path']);
  });

  it('parses valid arguments and treats null as absent', () => {
    const r = parseToolArgs('read_file', '{"path":"src/a.ts","startLine":3,"endLine":null}');
    assert.deepEqual(r, { ok: true, args: { path: 'src/a.ts', startLine: 3 } });
    assert.deepEqual(parseToolArgs('get_selection', ''), { ok: true, args: {} });
  });

  it('explains bad JSON, wrong types, unknown keys and missing fields', () => {
    const bad = parseToolArgs('read_file', '{"path": "a.ts",');
    assert.equal(bad.ok, false);
    assert.match((bad as { message: string }).message, /not valid JSON/);
    const wrong = parseToolArgs('read_file', '{"path": 3, "startLine": "10", "colour": 1}');
    assert.equal(wrong.ok, false);
    const m = (wrong as { message: string }).message;
    assert.match(m, /path/);
    assert.match(m, /startLine/);
    assert.match(m, /colour/);
    assert.match(m, /Allowed parameters: path, startLine, endLine/);
    assert.equal(parseToolArgs('search_text', '{}').ok, false);
    assert.equal(parseToolArgs('list_files', '[]').ok, false);
    assert.equal(parseToolArgs('list_files', `{"maxResults": ${LIMITS.listMaxResultsCap + 1}}`).ok, false);
    assert.equal(parseToolArgs('read_file', '{"path":"a","startLine":0}').ok, false);
  });
});

describe('tool text helpers', () => {
  it('splits lines without a phantom last line, for LF, CRLF and CR', () => {
    assert.deepEqual(splitLines('a\nb\n'), ['a', 'b']);
    assert.deepEqual(splitLines('a\r\nb\rc'), ['a', 'b', 'c']);
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('\n'), ['']);
  });

  it('slices a range, clamps the end, and rejects a start past the end', () => {
    const lines = ['1', '2', '3', '4', '5'];
    const s = sliceLines(lines, 2, 3);
    assert.ok(s.ok);
    assert.equal(s.text, '2\n3');
    assert.equal(formatFileSlice('x.ts', s), 'x.ts (lines 2-3 of 5)\n2\n3');
    const clamped = sliceLines(lines, 4, 99);
    assert.ok(clamped.ok && clamped.last === 5 && !clamped.truncated);
    const past = sliceLines(lines, 6, undefined);
    assert.equal(past.ok, false);
    assert.match((past as { message: string }).message, /past the end.*5 lines/);
    assert.equal(sliceLines(lines, 3, 2).ok, false);
  });

  it('caps by lines and bytes and says where to continue', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`);
    const s = sliceLines(lines, undefined, undefined);
    assert.ok(s.ok);
    assert.equal(s.last, LIMITS.readMaxLines);
    assert.equal(s.truncated, true);
    const text = formatFileSlice('big.txt', s);
    assert.match(text, /^big.txt \(lines 1-2000 of 5000\)/);
    assert.match(text, /call read_file with startLine 2001/);

    const wide = Array.from({ length: 100 }, () => 'x'.repeat(10_000));
    const b = sliceLines(wide, undefined, undefined);
    assert.ok(b.ok && b.truncated);
    assert.ok(Buffer.byteLength(b.text) <= LIMITS.readMaxBytes);
    assert.equal(b.last, 26); // 26 lines of 10,001 bytes fit in 256 KB
  });

  it('cuts a single line longer than the byte cap', () => {
    const s = sliceLines(['y'.repeat(LIMITS.readMaxBytes * 2), 'next'], undefined, undefined);
    assert.ok(s.ok && s.lineCut && s.last === 1);
    assert.equal(s.text.length, LIMITS.readMaxBytes);
    assert.match(formatFileSlice('min.js', s), /line 1 is longer than 256 KB.*startLine 2/);
  });

  it('clips to bytes without splitting a character', () => {
    assert.equal(clipToBytes('ééé', 3), 'é');
    assert.equal(clipToBytes('abc', 10), 'abc');
  });

  it('detects binary content by NUL bytes and by extension, not UTF-16 text', () => {
    assert.equal(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01])), true);
    assert.equal(looksBinary(new TextEncoder().encode('plain text\n')), false);
    const late = new Uint8Array(LIMITS.binarySniffBytes + 10).fill(0x41);
    late[LIMITS.binarySniffBytes + 5] = 0;
    assert.equal(looksBinary(late), false); // only the first 8 KB are sniffed
    const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    assert.equal(looksBinary(utf16), false);
    assert.equal(decodeText(utf16), 'hi');
    assert.equal(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), 'a');
    assert.equal(hasBinaryExtension('img/logo.PNG'), true);
    assert.equal(hasBinaryExtension('src/a.ts'), false);
    assert.equal(hasBinaryExtension('.png'), false); // a dotfile named ".png"
  });

  it('previews long lines around the match', () => {
    const line = `${'a'.repeat(500)}NEEDLE${'b'.repeat(500)}`;
    const p = previewLine(line, 500, 6, 100);
    assert.ok(p.includes('NEEDLE'));
    assert.ok(p.startsWith('…') && p.endsWith('…'));
    assert.ok(p.length <= 102);
    assert.equal(previewLine('    short', 4, 5), 'short');
  });

  it('caps any result', () => {
    const t = capResult('z'.repeat(LIMITS.resultMaxChars + 5));
    assert.ok(t.length < LIMITS.resultMaxChars + 100);
    assert.match(t, /Result cut/);
  });
});

describe('tool globs', () => {
  it('escapes every metacharacter of a literal path', () => {
    assert.equal(escapeGlob('src/a.ts'), 'src/a.ts');
    assert.equal(escapeGlob('app/[id]/page.tsx'), 'app/[[]id[]]/page.tsx');
    assert.equal(escapeGlob('a{b,c}*?.ts'), 'a[{]b,c[}][*][?].ts');
  });

  it('expands braces, nested ones too, and leaves classes alone', () => {
    assert.deepEqual(expandBraces('**/*.{js,{ts,tsx}}'), ['**/*.js', '**/*.ts', '**/*.tsx']);
    assert.deepEqual(expandBraces('{a,b}/{c,d}'), ['a/c', 'a/d', 'b/c', 'b/d']);
    assert.deepEqual(expandBraces('x[{,]y'), ['x[{,]y']);
    assert.equal(expandBraces('a{b'), undefined);
    assert.equal(expandBraces('a}b'), undefined);
  });

  it('builds one exclude union: .git and node_modules always, enabled patterns without when-clauses', () => {
    assert.equal(excludeGlob(), '{**/.git/**,**/node_modules/**}');
    const g = excludeGlob({ '**/dist': true, '**/*.{map,min.js}': true, 'off/**': false, '**/*.js': { when: '$(basename).ts' } });
    assert.equal(g, '{**/.git/**,**/node_modules/**,**/dist,**/dist/**,**/*.map,**/*.map/**,**/*.min.js,**/*.min.js/**}');
  });

  it('refuses absolute globs and `..` segments', () => {
    assert.equal(checkRelativeGlob('src/**/*.ts'), undefined);
    assert.ok(checkRelativeGlob('/etc/**'));
    assert.ok(checkRelativeGlob('C:\\x\\**'));
    assert.ok(checkRelativeGlob('../**/*'));
    assert.ok(checkRelativeGlob('src/../../x'));
  });
});

describe('tool text scan', () => {
  beforeEach(() => forgetSlowScans());

  it('a scan just like one that ran out of time answers at once: twenty identical scans at once run the limit four times, not twenty', async () => {
    let runs = 0;
    let clock = 0;
    const slow = () => {
      runs++;
      return new Promise<never>((_, reject) => setTimeout(() => reject(new ScanTimeout('timed out')), 20));
    };
    const re = compileRegex('(a+)+$');
    const texts = [`${'a'.repeat(40)}!\n`];
    const all = await Promise.allSettled(Array.from({ length: 20 }, () => limitedScan(texts, re, slow, () => clock)));
    assert.ok(
      all.every((r) => r.status === 'rejected' && r.reason instanceof ScanTimeout),
      'every one answers "too slow"',
    );
    assert.equal(runs, MAX_RUNNING_SCANS, 'only the scans that started before the first ran out of time ran');
    // other texts, or another expression: they run
    await assert.rejects(
      limitedScan([`${'a'.repeat(41)}!\n`], re, slow, () => clock),
      ScanTimeout,
    );
    await assert.rejects(
      limitedScan(texts, compileRegex('(a*)+$'), slow, () => clock),
      ScanTimeout,
    );
    assert.equal(runs, MAX_RUNNING_SCANS + 2);
    // remembered for a while only
    clock += SLOW_SCAN_MEMORY_MS;
    await assert.rejects(
      limitedScan(texts, re, slow, () => clock),
      ScanTimeout,
    );
    assert.equal(runs, MAX_RUNNING_SCANS + 3);
    // a scan that answered is not remembered
    assert.deepEqual(
      await limitedScan(
        ['x'],
        re,
        () => Promise.resolve('hits'),
        () => clock,
      ),
      'hits',
    );
  });

  it('matches literally with smart case', () => {
    const text = 'const Foo = 1;\nfoo();\nbar\n';
    assert.deepEqual(
      scanText(text, literalTester('foo'), 10).map((m) => m.line),
      [1, 2],
    );
    assert.deepEqual(
      scanText(text, literalTester('Foo'), 10).map((m) => m.line),
      [1],
    );
    assert.deepEqual(
      scanText(text, literalTester('foo'), 1).map((m) => m.line),
      [1],
    );
    assert.deepEqual(
      scanText('a.b\naxb', literalTester('a.b'), 10).map((m) => m.line),
      [1],
    ); // not a regex
  });

  it('matches regular expressions; escapes like \\W do not switch case sensitivity on', () => {
    assert.deepEqual(
      scanText('x = 12\ny = z\n', regexTester(compileRegex('\\d+')), 10).map((m) => m.line),
      [1],
    );
    assert.equal(compileRegex('\\Wfoo').flags, 'i');
    assert.equal(compileRegex('Foo').flags, '');
    assert.throws(() => compileRegex('(unclosed'), SyntaxError);
  });

  it('stops a catastrophically backtracking regex in a worker thread, while this thread keeps running', async () => {
    const re = compileRegex('(a+)+$');
    const text = `${'a'.repeat(40)}!\n`;
    const scanner = createRegexScanner();
    try {
      // the host's thread is free meanwhile: a 10 ms timer keeps firing (the old guard ran on it)
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      await assert.rejects(scanner.scan([text], re, 10, 300), ScanTimeout);
      clearInterval(ticker);
      assert.ok(ticks >= 1, `the timer fired ${ticks} times during the scan`);
      // the same scanner (its worker was terminated) lets a normal scan through
      assert.deepEqual(
        (await scanner.scan(['aaa\n', 'b\naaa'], re, 10, 5000)).map((hits) => hits.map((m) => [m.line, m.preview])),
        [[[1, 'aaa']], [[2, 'aaa']]],
      );
    } finally {
      scanner.dispose();
    }
  });

  it('runs at most MAX_RUNNING_SCANS regex scans at once; the others wait, and their time limit starts when they run', async () => {
    const slow = compileRegex('(a+)+$');
    const text = `${'a'.repeat(40)}!\n`;
    const scanners = Array.from({ length: MAX_RUNNING_SCANS + 2 }, () => createRegexScanner());
    try {
      let firstStop = Infinity;
      const answeredAt: number[] = [];
      const hung = scanners.slice(0, MAX_RUNNING_SCANS).map((s) =>
        s.scan([text], slow, 10, 400).catch((e: unknown) => {
          firstStop = Math.min(firstStop, Date.now());
          throw e;
        }),
      );
      // queued behind the hung ones: would time out if its limit started at once
      const queued = scanners.slice(MAX_RUNNING_SCANS).map((s) => s.scan(['aaa\n'], slow, 10, 300).then((r) => (answeredAt.push(Date.now()), r)));
      await Promise.all(hung.map((h) => assert.rejects(h, ScanTimeout)));
      assert.deepEqual(
        (await Promise.all(queued)).map((r) => r[0]!.length),
        [1, 1],
      );
      assert.ok(Math.min(...answeredAt) >= firstStop, 'the queued scans ran only once a hung one was stopped');
    } finally {
      for (const s of scanners) s.dispose();
    }
  });

  it('keeps a worker whose scan answered for the next scan, never one stopped at the limit', async () => {
    await endIdleScanWorkers();
    const re = compileRegex('a+');
    await createRegexScanner().scan(['aaa\n'], re, 10, 5000);
    assert.equal(await idleScanWorkers(), 1, 'the worker is kept');
    assert.equal((await createRegexScanner().scan(['b\naaa'], re, 10, 5000))[0]![0]!.line, 2);
    assert.equal(await idleScanWorkers(), 1, 'the next scan took it and gave it back (a new worker would make two)');
    await assert.rejects(createRegexScanner().scan([`${'a'.repeat(40)}!\n`], compileRegex('(a+)+$'), 10, 300), ScanTimeout);
    assert.equal(await idleScanWorkers(), 0, 'the stopped worker is not kept');
    await endIdleScanWorkers();
  });

  it('scans in a helper process of its own, in a session of its own on Linux, never on or beside the host thread', async function () {
    await createRegexScanner().scan(['aaa\n'], compileRegex('a+'), 10, 5000);
    const pid = scanHostPid();
    assert.ok(pid !== undefined && pid !== process.pid, `a separate process (${pid})`);
    if (process.platform === 'linux') {
      // /proc/<pid>/stat field 6 is the session id: the helper leads a session of its own (setsid)
      const sessionOf = (p: number) => Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[3]);
      assert.equal(sessionOf(pid), pid, 'the scan process leads its own session');
      assert.notEqual(sessionOf(process.pid), pid);
    }
    // a scan process that is gone (killed from outside) is started again by the next scan
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 200 && scanHostPid() !== undefined; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(scanHostPid(), undefined, 'its end was seen');
    assert.equal((await createRegexScanner().scan(['x\naaa'], compileRegex('a+'), 10, 5000))[0]![0]!.line, 2);
    assert.ok(scanHostPid() !== undefined && scanHostPid() !== pid, 'a new scan process');
    endScanHost();
  });
});
