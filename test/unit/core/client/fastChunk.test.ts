// The content-template fast path (src/core/client/fastChunk.ts) and the SSE decoder's `plain` flag
// against the reference path (JSON.parse + zod, `fast: false`): the same events and the same
// errors on hand-made and seeded random streams of full OpenAI chunks, in random chunkings
// (UTF-8 sequences and \uXXXX escapes split across chunks). The fast path must also really be
// taken (counted), so these tests would notice it silently falling back everywhere.
import * as assert from 'node:assert/strict';
import { decodeStream as decode } from './clientHarness';
import { seededRng, type Rng } from '../../../gateway/rng';
import { FastChunks, findContentValue, jsonStringBody, LARGE_CHUNK, stringEnd } from '../../../../src/core/client/fastChunk';
import { createSseDecoder } from '../../../../src/core/client/sse';

function randomChunks(bytes: Uint8Array, rng: Rng): Uint8Array[] {
  const out: Uint8Array[] = [];
  const max = [1, 3, 7, 64, 1024, 16384][Math.floor(rng() * 6)]!;
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(rng() * max);
    // a copy at an odd offset of its own buffer, so the word scan sees unaligned views
    const copy = new Uint8Array(size + 1);
    copy.set(bytes.subarray(at, at + size), 1);
    out.push(copy.subarray(1, 1 + Math.min(size, bytes.length - at)));
    at += size;
  }
  return out;
}

/** Counts template hits and large-probe uses while `run` runs. */
async function counting<T>(run: () => Promise<T>): Promise<{ result: T; hits: number; large: number }> {
  const proto = FastChunks.prototype;
  const content = proto.content;
  const large = proto.large;
  let hits = 0;
  let larges = 0;
  proto.content = function (this: FastChunks, data: string, plain: boolean) {
    const out = content.call(this, data, plain);
    if (out !== undefined) hits++;
    return out;
  };
  proto.large = function (this: FastChunks, data: string, plain: boolean) {
    const out = large.call(this, data, plain);
    if (out !== undefined) larges++;
    return out;
  };
  try {
    return { result: await run(), hits, large: larges };
  } finally {
    proto.content = content;
    proto.large = large;
  }
}

const enc = new TextEncoder();
const stream = (datas: string[], eol = '\n') => enc.encode(datas.map((d) => `data: ${d}${eol}${eol}`).join(''));

/** A full OpenAI chunk as the service sends it, with `content` as raw JSON text. */
function chunkText(contentJson: string, extra = ''): string {
  return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1763900000,"model":"flagship-text","system_fingerprint":"fp_1"${extra},"choices":[{"index":0,"delta":{"content":${contentJson}},"logprobs":null,"finish_reason":null}]}`;
}
const text = (s: string, extra = '') => chunkText(JSON.stringify(s), extra);
const role =
  '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1763900000,"model":"flagship-text","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}';
const stop =
  '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1763900000,"model":"flagship-text","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}';
const usage =
  '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1763900000,"model":"flagship-text","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":2}}}';

/** Bodies of JSON strings (between the quotes), valid and not. */
const bodies: string[] = [
  '',
  'plain',
  'tok1 ',
  'a\\nb',
  'quote \\" and backslash \\\\ and slash \\/ and \\b\\f\\r\\t',
  '\\u00e9\\u4E16\\u00C9',
  '\\ud83d\\ude00 pair',
  '\\ud83d lone high',
  'lone low \\ude00',
  'Grüße 世界 😀',
  '\\u0000 nul escaped',
  'ends with escape \\n',
  '\\"',
  '\\\\',
  // invalid: JSON.parse refuses, so must the fast path
  'raw " quote',
  'trailing backslash \\',
  'bad escape \\x41',
  'short \\u12',
  'bad hex \\u12G4',
  'raw\ttab',
  'raw \u0001 control',
  'raw \u007f is fine',
  '\\',
  '"',
  '\\\\"',
];

describe('core: fast content path vs JSON.parse (same events, same errors)', function () {
  this.timeout(120_000);

  it('jsonStringBody unescapes exactly like JSON.parse, and refuses what it refuses', () => {
    const rng = seededRng(24);
    const pieces = ['a', 'é', '世', '😀', '\ud83d', '\\n', '\\"', '\\\\', '\\/', '\\u00e9', '\\uD83D', '\\uDE00', '\\u', '\\', '"', '\t', '\u0000', ' ', 'x'];
    const cases = [...bodies];
    for (let n = 0; n < 400; n++) {
      let s = '';
      const len = Math.floor(rng() * 8);
      for (let k = 0; k < len; k++) s += pieces[Math.floor(rng() * pieces.length)]!;
      cases.push(s);
    }
    let valid = 0;
    for (const body of cases) {
      let expected: string | undefined;
      try {
        expected = JSON.parse(`"${body}"`) as string;
      } catch {
        expected = undefined;
      }
      if (expected !== undefined) valid++;
      assert.equal(jsonStringBody(body, 0, body.length, false), expected, JSON.stringify(body));
      // inside a longer text, as the decoder sees it
      const around = `{"content":"${body}"}`;
      assert.equal(jsonStringBody(around, 12, around.length - 2, false), expected, JSON.stringify(body));
    }
    assert.ok(valid > 100 && valid < cases.length - 100, `valid ${valid} of ${cases.length}`);
  });

  it('finds the content value only where a key "content" has a string value', () => {
    const data = text('he said \\"content\\": \\"x\\"');
    const open = findContentValue(data);
    assert.equal(JSON.parse(data.slice(open, stringEnd(data, open) + 1)), 'he said \\"content\\": \\"x\\"');
    assert.equal(findContentValue('{"type":"content","x":1}'), -1);
    assert.equal(findContentValue('{"choices":[{"delta":{"content" : null}}]}'), -1);
    assert.equal(findContentValue('{"a\\"content":"v"}'), 14); // a key ending in \"content: found, the probes then refuse it
  });

  it('hand-made streams: escapes, unicode, split surrogates, tool calls, usage, unknown fields, reordered keys, whitespace, null content, errors', async () => {
    const cases: [string, string[]][] = [
      ['plain text', [role, text('Hello'), text(', '), text('world'), stop, usage, '[DONE]']],
      ['escapes', [role, text('line\nbreak'), text('"quoted" \\ back/slash'), text('\t\b\f\r'), text('\u0000\u001f'), stop, '[DONE]']],
      [
        'unicode and surrogate pairs',
        [role, text('Grüße 世界 😀👍🏽'), chunkText('"\\ud83d\\ude00 escaped pair"'), chunkText('"\\uD83D"'), chunkText('"\\uDE00"'), stop, '[DONE]'],
      ],
      ['null and empty content', [role, text('a'), chunkText('null'), text(''), text('b'), stop, '[DONE]']],
      [
        'unknown fields',
        [
          role,
          text('a', ',"service_tier":"default","extra":{"content":"not this"}'),
          text('b', ',"service_tier":"default","extra":{"content":"not this"}'),
          stop,
          '[DONE]',
        ],
      ],
      [
        'reordered keys',
        [
          role,
          '{"choices":[{"delta":{"content":"a"},"finish_reason":null,"index":0}],"model":"m","id":"x"}',
          '{"choices":[{"delta":{"content":"b"},"finish_reason":null,"index":0}],"model":"m","id":"x"}',
          stop,
          '[DONE]',
        ],
      ],
      [
        'whitespace',
        [
          role,
          '{ "id" : "x" , "choices" : [ { "index" : 0 , "delta" : { "content" : "a b" } } ] }',
          '{ "id" : "x" , "choices" : [ { "index" : 0 , "delta" : { "content" : "c\\"d" } } ] }',
          stop,
          '[DONE]',
        ],
      ],
      ['created changes every chunk', [role, ...[1, 2, 3, 4].map((n) => text(`t${n}`).replace('1763900000', String(1763900000 + n))), stop, '[DONE]']],
      [
        'tool calls between text',
        [
          role,
          text('Let me look. '),
          '{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":"}}]},"finish_reason":null}]}',
          '{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"function":{"arguments":"\\"a.ts\\"}"}}]},"finish_reason":null}]}',
          '{"id":"chatcmpl-1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
          usage,
          '[DONE]',
        ],
      ],
      ['text and finish in one chunk', [role, text('a'), text('b').replace('"finish_reason":null', '"finish_reason":"stop"'), '[DONE]']],
      ['text and usage in one chunk', [role, text('a'), text('b', ',"usage":{"prompt_tokens":1,"completion_tokens":2}'), stop, '[DONE]']],
      [
        'error object inside the stream',
        [role, text('a'), text('b'), '{"error":{"message":"The model is overloaded","type":"server_error","code":"overloaded"}}', text('c'), stop, '[DONE]'],
      ],
      [
        'error object shaped like the template',
        [role, text('a'), text('b'), text('c', ',"error":{"message":"quota exceeded","code":"insufficient_quota"}'), stop, '[DONE]'],
      ],
      [
        'duplicate content key (JSON.parse keeps the last)',
        [role, text('a'), chunkText('"first","content":"second"'), chunkText('"x","content":"y"'), stop, '[DONE]'],
      ],
      [
        'a key ending in \\"content',
        [
          role,
          '{"a\\"content":"decoy","choices":[{"index":0,"delta":{"content":"real"}}]}',
          '{"a\\"content":"decoy2","choices":[{"index":0,"delta":{"content":"real2"}}]}',
          stop,
          '[DONE]',
        ],
      ],
      // content equal to the first probe's sentinel: only the second probe shows the decoy is not content
      [
        'a decoy key when the content equals a sentinel',
        [
          role,
          '{"a\\"content":"v","choices":[{"index":0,"delta":{"content":"\\u0001a"}}]}',
          '{"a\\"content":"other","choices":[{"index":0,"delta":{"content":"\\u0001a"}}]}',
          stop,
          '[DONE]',
        ],
      ],
      ['invalid string after the template was learnt', [role, text('a'), text('b'), chunkText('"bad \\x escape"'), stop, '[DONE]']],
      ['raw quote after the template was learnt', [role, text('a'), text('b'), chunkText('"x"y"'), stop, '[DONE]']],
      ['raw tab after the template was learnt', [role, text('a'), text('b'), chunkText('"tab\there"'), stop, '[DONE]']],
      ['raw control byte after the template was learnt', [role, text('a'), text('b'), chunkText('"nul\u0001"'), stop, '[DONE]']],
      ['not JSON after the template was learnt', [role, text('a'), text('b'), chunkText('"b"').slice(0, -3), stop, '[DONE]']],
      ['wrong content type after the template was learnt', [role, text('a'), text('b'), chunkText('42'), stop, '[DONE]']],
      ['two choices', [role, text('a'), '{"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"}}]}', stop, '[DONE]']],
      ['no finish and no [DONE] (cut stream)', [role, text('a'), text('b')]],
    ];
    const rng = seededRng(2424);
    let hits = 0;
    for (const [name, datas] of cases) {
      for (const eol of ['\n', '\r\n']) {
        const bytes = stream(datas, eol);
        const reference = await decode([bytes], false);
        for (let round = 0; round < 6; round++) {
          const chunks = round === 0 ? [bytes] : randomChunks(bytes, rng);
          const got = await counting(() => decode(chunks, true));
          assert.deepEqual(got.result, reference, `${name} (round ${round})`);
          hits += got.hits;
        }
      }
    }
    assert.ok(hits > 100, `the template path was taken ${hits} times`);
  });

  it('an event: error line is never taken for text, even when its data matches the template', async () => {
    const bytes = enc.encode(
      [role, text('a'), text('b')].map((d) => `data: ${d}\n\n`).join('') + `event: error\ndata: ${text('c')}\n\n` + `data: ${stop}\n\ndata: [DONE]\n\n`,
    );
    const reference = await decode([bytes], false);
    assert.equal(reference.error?.kind !== undefined, true);
    assert.deepEqual(await decode([bytes], true), reference);
  });

  it('large events (over 32 KB): escapes, unicode, control bytes, content not the bulk, null', async () => {
    const big = 'A'.repeat(LARGE_CHUNK * 2);
    const cases: [string, string[], boolean][] = [
      ['base64-like', [text(big), stop, '[DONE]'], true],
      ['escapes and unicode', [text(`${big}\n"quoted"\\ 😀 Grüße ${big}`), stop, '[DONE]'], true],
      ['escaped pair split by chunking', [chunkText(`"${big}\\ud83d\\ude00${big}"`), stop, '[DONE]'], true],
      ['raw tab inside', [chunkText(`"${big}\t${big}"`), stop, '[DONE]'], false],
      ['raw control byte near the end', [chunkText(`"${big}${big}\u0002"`), stop, '[DONE]'], false],
      ['bad escape inside', [chunkText(`"${big}\\q"`), stop, '[DONE]'], false],
      ['content is not the bulk', [text('small', `,"extra":"${big}${big}${big}"`), stop, '[DONE]'], false],
      ['null content, big other field', [chunkText('null', `,"extra":"${big}"`), stop, '[DONE]'], false],
      ['big text with a finish', [text(big).replace('"finish_reason":null', '"finish_reason":"length"'), '[DONE]'], true],
      ['big text with usage', [text(big, ',"usage":{"prompt_tokens":1,"completion_tokens":2}'), stop, '[DONE]'], true],
      ['big error event', [`{"error":{"message":"${big}"}}`, '[DONE]'], false],
      ['big chunk with a duplicate content key', [chunkText(`"${big}","content":"last wins"`), stop, '[DONE]'], false],
      ['big chunk cut off', [text(big).slice(0, -10), stop, '[DONE]'], false],
    ];
    const rng = seededRng(8);
    for (const [name, datas, probed] of cases) {
      const bytes = stream(datas);
      const reference = await decode([bytes], false);
      for (let round = 0; round < 3; round++) {
        const chunks = round === 0 ? [bytes] : randomChunks(bytes, rng);
        const got = await counting(() => decode(chunks, true));
        assert.deepEqual(got.result, reference, `${name} (round ${round})`);
        assert.equal(got.large > 0, probed, `${name}: the large probe path ${probed ? 'was not' : 'was'} taken`);
      }
    }
  });

  it('the SSE decoder marks an event plain only when its data has no character below U+0020, in any chunking', () => {
    const rng = seededRng(77);
    const dirty = [
      'data: abc\n\n',
      'data: a\tb\n\n',
      'data: x\n\n',
      'data: one\ndata: two\n\n',
      'data: \u0001\n\n',
      ': comment \u0002\n\ndata: y\n\n',
      'data: z\r\n\r\n',
      'data: w\u0000\r\r',
    ];
    const clean = ['data: abc\n\n', 'data: Grüße 😀\r\n\r\n', 'data: x\r\r', 'id: 3\nevent: e\ndata: y\n\n', 'data: one\ndata: two\n\n'];
    // `plain` may be false when it could be true (a control byte elsewhere in the same network
    // chunk), never true when the data has one; a clean stream is plain throughout.
    for (const [lines, exact] of [
      [dirty, false],
      [clean, true],
    ] as const) {
      const bytes = enc.encode(lines.join(''));
      for (let round = 0; round < 40; round++) {
        const decoder = createSseDecoder();
        const messages = [];
        for (const chunk of round === 0 ? [bytes] : randomChunks(bytes, rng)) messages.push(...decoder.push(chunk));
        messages.push(...decoder.end());
        assert.equal(messages.length, lines.length);
        for (const m of messages) {
          const hasControl = /[\u0000-\u001f]/.test(m.data);
          if (hasControl) assert.equal(m.plain, false, `round ${round}: ${JSON.stringify(m.data)}`);
          else if (exact) assert.equal(m.plain, true, `round ${round}: ${JSON.stringify(m.data)}`);
        }
      }
    }
  });

  it('300 seeded random streams of mutated chunks: same events and errors as the reference path', async () => {
    const rng = seededRng(20261124);
    const pieces = ['tok', ' ', 'é', '世界', '😀', '\n', '"', '\\', '/', '\t', '\u0000', '\u2028', 'x'];
    const rawJunk = ['"', '\\', '\t', '\u0001', '\\u12', '\\x', '}', '\\ud83d'];
    let hits = 0;
    let errors = 0;
    for (let n = 0; n < 300; n++) {
      const datas: string[] = [role];
      const count = 2 + Math.floor(rng() * 10);
      for (let k = 0; k < count; k++) {
        let s = '';
        for (let p = Math.floor(rng() * 5); p > 0; p--) s += pieces[Math.floor(rng() * pieces.length)]!;
        let d = text(s);
        const r = rng();
        if (r < 0.05) d = chunkText(`"${s.replace(/["\\\n\t\u0000]/g, '')}${rawJunk[Math.floor(rng() * rawJunk.length)]}"`); // an invalid string
        else if (r < 0.1) d = d.replace('"created":1763900000', `"created":${Math.floor(rng() * 10)}`);
        else if (r < 0.13) d = d.replace('"finish_reason":null', '"finish_reason":"stop"');
        else if (r < 0.16) d = d.replace('"logprobs":null', '"logprobs":null,"usage":{"prompt_tokens":1,"completion_tokens":2}');
        else if (r < 0.18) d = chunkText('null');
        else if (r < 0.2) d = d.replace('{"content"', '{ "content"');
        else if (r < 0.21) d = '{"error":{"message":"stopped"}}';
        datas.push(d);
      }
      if (rng() < 0.8) datas.push(stop);
      if (rng() < 0.5) datas.push(usage);
      if (rng() < 0.9) datas.push('[DONE]');
      const bytes = stream(datas, rng() < 0.3 ? '\r\n' : '\n');
      const chunks = randomChunks(bytes, rng);
      const reference = await decode([bytes], false);
      if (reference.error) errors++;
      assert.deepEqual(await decode(chunks, false), reference, `stream ${n}: reference in chunks`);
      const got = await counting(() => decode(chunks, true));
      assert.deepEqual(got.result, reference, `stream ${n}: ${JSON.stringify(datas)}`);
      hits += got.hits;
    }
    assert.ok(hits > 500, `template hits ${hits}`);
    assert.ok(errors > 20 && errors < 250, `streams that end in an error: ${errors}`);
  });
});
