// The byte-level SSE decoder (src/core/client/sse.ts) against eventsource-parser, a widely used
// parser of the same format, as the reference: every transcript of the stream corpus
// (test/gateway/streamCorpus), whole and mutated the ways real servers and networks vary them
// (re-chunked at random bytes, CRLF and CR line ends, comments, extra and unknown fields,
// multi-line data, a BOM, no blank line at the end, a stream cut short, random bytes replaced),
// seeded, must give the same events and comments. One thing differs by design and is mapped
// onto the reference: at the end of the body our decoder dispatches an event still open (some
// servers end with `data: [DONE]` and no blank line), which is what the reference does when the
// body ends with a line end and a blank line. And the reference forgets an event's id after it,
// while ours keeps the last one (the format's "last event ID"), so an id is compared only where
// the reference has one.
import * as assert from 'node:assert/strict';
import { createParser } from 'eventsource-parser';
import { createSseDecoder } from '../../../../src/core/client/sse';
import { pick, seededRng } from '../../../gateway/rng';
import { STREAM_CORPUS } from '../../../gateway/streamCorpus/index';
import { randomPieces } from './clientHarness';

interface Decoded {
  events: { data: string; event: string | undefined; id: string | undefined }[];
  comments: string[];
}

/** Ours: the chunks as they would come off the network. */
function decodeOurs(chunks: readonly Uint8Array[]): Decoded {
  const comments: string[] = [];
  const decoder = createSseDecoder((c) => comments.push(c));
  const messages = chunks.flatMap((c) => decoder.push(c));
  messages.push(...decoder.end());
  return { events: messages.map((m) => ({ data: m.data, event: m.event, id: m.id })), comments };
}

/** The reference: the same chunks through a streaming UTF-8 decoder (which drops a leading BOM), then the parser. */
function decodeReference(chunks: readonly Uint8Array[]): Decoded {
  const out: Decoded = { events: [], comments: [] };
  const parser = createParser({
    onEvent: (e) => out.events.push({ data: e.data, event: e.event, id: e.id }),
    onComment: (c) => out.comments.push(c),
  });
  const text = new TextDecoder();
  for (const c of chunks) parser.feed(text.decode(c, { stream: true }));
  // the end of the body: what is left of the decoder, then a line end and a blank line (see the top)
  parser.feed(`${text.decode()}\n\n`);
  return out;
}

function assertSameEvents(chunks: readonly Uint8Array[], what: string): void {
  const ours = decodeOurs(chunks);
  const ref = decodeReference(chunks);
  const shown = (d: Decoded) => JSON.stringify(d).slice(0, 600);
  assert.equal(
    ours.events.length,
    ref.events.length,
    `${what}: ${ours.events.length} events, the reference ${ref.events.length}\nours: ${shown(ours)}\nref:  ${shown(ref)}`,
  );
  ref.events.forEach((r, i) => {
    const o = ours.events[i]!;
    assert.equal(o.data, r.data, `${what}: data of event ${i}`);
    assert.equal(o.event, r.event, `${what}: type of event ${i}`);
    if (r.id !== undefined) assert.equal(o.id, r.id, `${what}: id of event ${i}`);
  });
  assert.deepEqual(ours.comments, ref.comments, `${what}: comments`);
}

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Mutations of a whole body (text): each keeps it a body a server could send. */
const MUTATIONS: readonly [string, (body: string, rnd: () => number) => string][] = [
  ['as recorded', (b) => b],
  ['CRLF line ends', (b) => b.replace(/\n/g, '\r\n')],
  ['CR line ends', (b) => b.replace(/\n/g, '\r')],
  ['mixed line ends', (b, rnd) => b.replace(/\n/g, () => pick(rnd, ['\n', '\r\n', '\r']))],
  [
    'comments between lines',
    (b, rnd) => b.replace(/\n/g, (m) => (rnd() < 0.3 ? `${m}${pick(rnd, [': keep-alive', ':', ': OPENROUTER PROCESSING', ':ping'])}\n` : m)),
  ],
  [
    'event, id, retry and unknown fields',
    (b, rnd) =>
      b.replace(
        /^data:/gm,
        (m) => `${pick(rnd, ['event: message\n', 'event:delta\n', 'id: 7\n', 'id:\n', 'retry: 1000\n', 'retry: soon\n', 'x-trace: 1\n', 'event\n', ''])}${m}`,
      ),
  ],
  [
    'multi-line data',
    (b, rnd) => b.replace(/^data: (.*)$/gm, (m, v: string) => (rnd() < 0.5 ? `data: ${v.slice(0, v.length >> 1)}\ndata:${v.slice(v.length >> 1)}` : m)),
  ],
  ['no space after the colon, or two', (b, rnd) => b.replace(/^data: /gm, () => pick(rnd, ['data:', 'data:  ', 'data: ']))],
  ['no blank line at the end', (b) => b.replace(/\n+$/, '')],
  ['no line end at all at the end', (b) => b.replace(/\s+$/, '')],
  ['cut short', (b, rnd) => b.slice(0, Math.floor(rnd() * b.length))],
  ['a BOM first', (b) => `\ufeff${b}`],
  ['events run together (blank lines dropped)', (b, rnd) => b.replace(/\n\n/g, (m) => (rnd() < 0.3 ? '\n' : m))],
];

/** Random bytes replaced by bytes that matter to the format or to UTF-8 (a NUL, lone and cut multi-byte sequences). */
function scramble(bytes: Uint8Array, rnd: () => number): Uint8Array {
  const out = bytes.slice();
  const interesting = [0x0a, 0x0d, 0x3a, 0x20, 0x00, 0xff, 0xe4, 0xb8, 0xf0, 0x9f, 0x64, 0x65];
  const count = 1 + Math.floor(rnd() * 8);
  for (let k = 0; k < count && out.length; k++) out[Math.floor(rnd() * out.length)] = pick(rnd, interesting);
  return out;
}

describe('core/client: the SSE decoder gives the events eventsource-parser gives', () => {
  const SEED = 20261129;

  it('on every recorded stream of the corpus, whole and at random byte boundaries', () => {
    assert.ok(STREAM_CORPUS.length >= 25, `the corpus has ${STREAM_CORPUS.length} streams`);
    const rnd = seededRng(SEED);
    for (const t of STREAM_CORPUS) {
      const bytes = utf8(t.body);
      assertSameEvents([bytes], `${t.name} whole`);
      assertSameEvents(randomPieces(bytes, rnd, 1), `${t.name} byte by byte`);
      for (let k = 0; k < 8; k++) assertSameEvents(randomPieces(bytes, rnd, 1 + Math.floor(rnd() * 64)), `${t.name} re-chunked (seed ${SEED}, round ${k})`);
    }
  });

  it('on the recorded streams mutated the ways servers vary them, each re-chunked', () => {
    const rnd = seededRng(SEED + 1);
    let cases = 0;
    for (const t of STREAM_CORPUS) {
      for (const [name, mutate] of MUTATIONS) {
        const body = mutate(t.body, rnd);
        const bytes = utf8(body);
        // The BOM's three bytes come in the first chunk: split across chunks, ours keeps it and
        // loses the first event (it checks the first chunk only), where the reference drops it.
        const chunks =
          name === 'a BOM first' ? [bytes.slice(0, 3), ...randomPieces(bytes.slice(3), rnd, 16)] : randomPieces(bytes, rnd, 1 + Math.floor(rnd() * 32));
        assertSameEvents(chunks, `${t.name}, ${name} (seed ${SEED + 1})`);
        cases++;
      }
    }
    assert.equal(cases, STREAM_CORPUS.length * MUTATIONS.length);
  });

  it('on the recorded streams with random bytes replaced (line ends, colons, NUL, broken UTF-8), re-chunked', () => {
    const rnd = seededRng(SEED + 2);
    for (const t of STREAM_CORPUS) {
      for (let k = 0; k < 12; k++) {
        const bytes = scramble(utf8(t.body), rnd);
        assertSameEvents(randomPieces(bytes, rnd, 1 + Math.floor(rnd() * 24)), `${t.name}, scrambled (seed ${SEED + 2}, round ${k})`);
      }
    }
  });
});
