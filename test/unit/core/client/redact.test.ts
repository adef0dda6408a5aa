// Pieces of the key in every form an echoing proxy may send. Each case fails with an exact-match
// redaction.
import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../../src/core';
import { containsSecret, MIN_PIECE, redactSecret, secretForms } from '../../../../src/core/client/redact';
import { client, collectUntilError, startServer } from './clientHarness';

const SECRET = 'sk-live-Q7fZ2pLx9KwRt4VbN8mJ';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** every 8-character piece of every form of the key, in both cases */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (const form of [secret, encodeURIComponent(secret), b64(secret), b64(`user:${secret}`), b64(`:${secret}`), b64(`ab:${secret}`)]) {
    for (let i = 0; i + MIN_PIECE <= form.length; i++) out.push(form.slice(i, i + MIN_PIECE));
  }
  return out;
}
function assertClean(text: string, secret = SECRET) {
  for (const p of pieces(secret)) {
    // base64 pieces at the edge of an encoded text mix in the neighbours' bits: only inner ones must go
    for (const variant of [p, p.toLowerCase(), p.toUpperCase()]) {
      if (text.includes(variant) && secret.toLowerCase().includes(variant.toLowerCase())) assert.fail(`plain piece ${variant} left in: ${text}`);
    }
  }
  const lower = text.toLowerCase();
  for (let i = 0; i + MIN_PIECE <= SECRET.length; i++)
    assert.ok(!lower.includes(SECRET.slice(i, i + MIN_PIECE).toLowerCase()), `piece at ${i} left in: ${text}`);
}

describe('core/redact: every piece of the key, in every form', () => {
  it('the exact key and "Bearer <key>"', () => {
    assert.equal(redactSecret(`Invalid: Bearer ${SECRET}.`, SECRET), 'Invalid: Bearer [redacted].');
  });

  it('a key cut off by a length limit (any prefix or suffix of 8+ characters)', () => {
    for (let n = MIN_PIECE; n < SECRET.length; n++) {
      const head = `echo: ${SECRET.slice(0, n)}…`;
      assert.equal(redactSecret(head, SECRET), 'echo: [redacted]…', head);
      const tail = `…${SECRET.slice(SECRET.length - n)} end`;
      assert.equal(redactSecret(tail, SECRET), '…[redacted] end', tail);
    }
  });

  it('any 8-character piece from the middle', () => {
    for (let i = 0; i + MIN_PIECE <= SECRET.length; i++) {
      const text = `x ${SECRET.slice(i, i + MIN_PIECE)} y`;
      assert.equal(redactSecret(text, SECRET), 'x [redacted] y', text);
    }
  });

  it('case-changed echoes (upper, lower)', () => {
    assert.equal(redactSecret(`KEY=${SECRET.toUpperCase()}`, SECRET), 'KEY=[redacted]');
    assert.equal(redactSecret(`key=${SECRET.toLowerCase()}`, SECRET), 'key=[redacted]');
    assert.equal(redactSecret(`key=${SECRET.slice(3, 14).toUpperCase()}!`, SECRET), 'key=[redacted]!');
  });

  it('URL-encoded echoes (encodeURIComponent, every byte, only the punctuation, lower-case hex)', () => {
    const every = [...Buffer.from(SECRET)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    for (const form of [encodeURIComponent(`Bearer ${SECRET}`), every, every.toUpperCase(), SECRET.replace(/-/g, '%2D'), SECRET.replace(/-/g, '%2d')]) {
      const out = redactSecret(`?auth=${form}&x=1`, SECRET);
      assert.ok(!out.includes(SECRET.slice(8, 16)) && out.includes('[redacted]'), out);
      assert.ok(out.length < `?auth=${form}&x=1`.length - 10, out);
    }
  });

  it('base64 echoes at every alignment (a Basic header), and cut-off ones', () => {
    for (const prefix of ['', ':', 'u:', 'user:']) {
      const encoded = b64(`${prefix}${SECRET}`);
      const out = redactSecret(`Authorization: Basic ${encoded}`, SECRET);
      assert.ok(out.includes('[redacted]'), out);
      // at most the few characters that also hold the neighbours' bits survive on each side
      const left = out.replace('Authorization: Basic ', '').replace('[redacted]', '');
      assert.ok(left.length <= 12, `${encoded} -> ${out}`);
      const cut = redactSecret(`Basic ${encoded.slice(0, 20)}`, SECRET);
      assert.ok(cut.includes('[redacted]'), cut);
    }
    assert.ok(containsSecret(b64(SECRET).toLowerCase(), SECRET), 'lower-cased base64');
  });

  it('leaves text without the key alone, including 7-character coincidences', () => {
    const text = `A normal error about sk-live keys and ${SECRET.slice(0, MIN_PIECE - 1)} only.`;
    assert.equal(redactSecret(text, SECRET), text);
    assert.equal(redactSecret('', SECRET), '');
    assert.equal(redactSecret('abc', undefined), 'abc');
  });

  it('has a form for plain, URL-encoded and three base64 alignments', () => {
    assert.ok(secretForms(SECRET).length >= 5);
    assertClean(redactSecret(pieces(SECRET).join(' '), SECRET));
  });

  it('an echo cut to the length limit before it reached the message is redacted before the cut', async () => {
    // the server message limit is 300 characters: put the key so the cut falls inside it
    const server = await startServer((req, res) => {
      const auth = String(req.headers.authorization);
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `${'x'.repeat(280)} ${auth} ${encodeURIComponent(auth)} ${b64(auth)} ${auth.toUpperCase()}` } }));
    });
    const c = client(server.baseUrl, { maxRetries: 0, apiKey: SECRET });
    const { error } = await collectUntilError(c.streamChat({ model: 'm', messages: [] }));
    assert.ok(error instanceof GatewayError);
    const all = [error.message, error.stack, error.serverMessage].join('\n');
    assertClean(all);
    assert.ok(!containsSecret(all, SECRET), all);
  });
});

describe('core/redact: hex, \\u and \\x escapes and JSON escapes', () => {
  // a key with the characters JSON encoders escape
  const ODD = 'sk-or/v1+Q7fZ2pLx9Kw/Rt4VbN8mJ=';
  const hex = (s: string) => Buffer.from(s).toString('hex');
  const uEsc = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const xEsc = (s: string) => [...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  const echoes = (key: string): [string, string][] => [
    ['hex', hex(key)],
    ['HEX', hex(key).toUpperCase()],
    ['hex of a cut-off key', hex(key.slice(3, 3 + MIN_PIECE))],
    ['\\u of every character', uEsc(key)],
    ['\\u, upper-case digits', uEsc(key).toUpperCase().replace(/\\U/g, '\\u')],
    ['\\u of a cut-off key', uEsc(key.slice(-MIN_PIECE))],
    ['\\x of every byte', xEsc(key)],
    ['JSON \\/', key.replace(/\//g, '\\/')],
    ['JSON \\/ inside a body', JSON.stringify({ error: `bad key ${key}` }).replace(/\//g, '\\/')],
    ['\\u00XX for punctuation (Go)', key.replace(/[^A-Za-z0-9]/g, (c) => uEsc(c))],
  ];

  for (const key of [SECRET, ODD]) {
    for (const [name, echo] of echoes(key)) {
      it(`${name} (${key === SECRET ? 'plain key' : 'key with / + ='})`, () => {
        const text = `upstream said: ${echo} (end)`;
        const out = redactSecret(text, key);
        assert.notEqual(out, text, `not redacted: ${text}`);
        assert.ok(!out.includes(echo), out);
        assert.match(out, /^upstream said: .*\(end\)$/);
        assert.ok(containsSecret(text, key));
      });
    }
  }

  it('a word of the text that is also in the key stays; the key around it, or a long run of letters, does not', () => {
    const demo = 'sk-modelgate-demo';
    const card = 'Set a new key with “Modelgate: Set API Key”, or read modelgate.baseUrl and MODELGATE_KEY.';
    assert.equal(redactSecret(card, demo), card);
    assert.equal(redactSecret(`The key ${demo} was refused`, demo), 'The key [redacted] was refused');
    assert.equal(redactSecret('echo: modelgate-demo', demo), 'echo: [redacted]');
    assert.equal(redactSecret('echo: sk-modelgate', demo), 'echo: [redacted]');
    assert.equal(redactSecret('echo: Modelgatedemo', demo), 'echo: [redacted]demo', 'runs into other letters: not a word of its own');
    assert.equal(redactSecret('x1modelgate', demo), 'x1[redacted]', 'runs into other word characters');
    const letters = 'abcdefghijklmnopqrstuvwxyzabcdef';
    assert.equal(redactSecret(`key ${letters} end`, letters), 'key [redacted] end', 'a letters-only key echoed whole');
    assert.equal(redactSecret(`key ${letters.slice(0, 15)} end`, letters), `key ${letters.slice(0, 15)} end`, 'a 15-letter word-like piece stays');
    assert.equal(redactSecret(`key ${letters.slice(0, 16)} end`, letters), 'key [redacted] end', 'from 16 letters on it goes');
  });

  it('ordinary hex (ids, hashes) and escaped text without the key stay', () => {
    const text = `request 9f86d081884c7d659a2feaa0c55ad015 failed; text \\u0048\\u0069 and ${hex('hello world')} and a\\/b`;
    assert.equal(redactSecret(text, SECRET), text);
    assert.equal(redactSecret(text, ODD), text);
  });
});
