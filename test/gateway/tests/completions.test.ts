// The simulator's completions mode: fill-in-the-middle prompts get the continuation of the code
// around the cursor (sensible for the demo's sample workspace), in the forms and stream shapes of
// real chat models; stop sequences end answers; a completion is billed as it streams; and the
// simulator keeps a record of the streams the client closed before their end.
import * as assert from 'node:assert/strict';
import { buildFimPrompt, fimRequest } from '../../../src/core/completions/fimPrompt';
import { linesOf } from '../../../src/core/completions/documentWindow';
import { fimAnswerText, fimMiddle, fimQuery, type FimQuery } from '../fim-answers';
import { SAMPLE_CORPUS } from '../fim-corpus';
import { chatCost } from '../prices';
import { chat, contentChunks, readStream, user, useGateway } from './helpers';

/** The request the extension sends with the cursor at the end of `text` (or at `cursor`). */
function fimBody(path: string, text: string, cursor?: { line: number; character: number }) {
  const lines = linesOf(text);
  const last = lines.lineCount - 1;
  const prompt = buildFimPrompt({ path, languageId: 'typescript', lines, cursor: cursor ?? { line: last, character: lines.lineAt(last).length } });
  return { ...fimRequest(prompt, { model: 'flagship-text', channel: 'economical' }), stream: true, stream_options: { include_usage: true } };
}

const query = (prefix: string, suffix = '', path = 'src/math.ts', lineOnly = false): FimQuery => ({ path, language: 'typescript', prefix, suffix, lineOnly });

describe('gateway simulator: completions mode', function () {
  this.timeout(30_000);
  const ctx = useGateway();
  beforeEach(() => ctx.gw.reset());

  it('reads the query of a fill-in-the-middle prompt, and leaves ordinary chat alone', () => {
    const body = fimBody('src/math.ts', 'export function med\n\nexport function x() {}', { line: 0, character: 19 });
    const q = fimQuery({ messages: body.messages as never });
    assert.equal(q?.path, 'src/math.ts');
    assert.equal(q?.prefix, 'export function med');
    assert.equal(q?.suffix, '\n\nexport function x() {}');
    assert.equal(q?.lineOnly, false);
    assert.equal(fimQuery({ messages: [user('What does {{FILL_HERE}} mean?')] as never }), undefined);
  });

  it('continues the code of the sample workspace: a function, the next line, the rest of a line', () => {
    assert.match(fimMiddle(query('export function med')), /^ian\(xs: number\[\]\): number \{\n {2}const sorted = /);
    assert.ok(fimMiddle(query('export function med')).endsWith('\n}'), 'a whole function, closed');
    // a blank line inside a function the user just opened
    assert.equal(fimMiddle(query('export function sum(xs: number[]): number {\n  ', '\n}')), 'return xs.reduce(add, 0);');
    // the rest of a line, before the text that follows the cursor
    assert.equal(fimMiddle(query('console.log(mean(', '));', 'src/main.ts', true)), '[1, 2, 3]');
    // the whole line typed: the next line follows
    assert.equal(fimMiddle(query('export function mean(xs: number[]): number {', '')), '\n  return xs.reduce(add, 0) / xs.length;\n}');
  });

  it('answers nothing where nothing is known, and does not guess from a short start without context', () => {
    assert.equal(fimMiddle(query('const unrelated = ')), '');
    assert.equal(fimMiddle(query('ex')), '');
    assert.equal(fimAnswerText(query('const unrelated = ')), '<COMPLETION></COMPLETION>');
  });

  it('stops where the text after the cursor resumes', () => {
    const middle = fimMiddle(query('export function median(xs: number[]): number {\n', '\n  const mid = Math.floor(sorted.length / 2);\n}'));
    assert.equal(middle, '  const sorted = [...xs].sort((a, b) => a - b);');
  });

  it('streams the completion in token-sized pieces, without the stop sequence, with usage', async () => {
    const res = await chat(ctx.gw, fimBody('src/math.ts', SAMPLE_CORPUS[0]!.text.split('export function median')[0] + 'export function med'));
    const s = await readStream(res);
    assert.ok(s.done);
    assert.ok(s.text.includes('ian(xs: number[]): number {'), s.text);
    assert.ok(!s.text.includes('</COMPLETION>'), 'the stop sequence is not sent');
    const pieces = contentChunks(s);
    assert.ok(pieces.length > 10 && pieces.every((p) => p.length <= 6), `${pieces.length} pieces`);
    const usage = s.chunks.find((c) => c.usage)?.usage;
    assert.equal(usage.completion_tokens, Math.ceil(s.text.length / 4));
    assert.equal(s.chunks.at(-1)?.choices.length, 0);
  });

  it('gives the answer forms of real chat models: as asked, fenced, the line again, the suffix again, trailing spaces', () => {
    const forms = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const text = fimAnswerText(query(`export function med`, `\n// ${i}`));
      if (text.startsWith('```')) forms.add('fenced');
      else if (text.startsWith('<COMPLETION>export function med')) forms.add('repeatsLine');
      else if (text.endsWith(`// ${i}</COMPLETION>`)) forms.add('repeatsSuffix');
      else if (text.includes('  \n</COMPLETION>')) forms.add('trailingSpace');
      else forms.add('asked');
    }
    assert.deepEqual([...forms].sort(), ['asked', 'fenced', 'repeatsLine', 'repeatsSuffix', 'trailingSpace']);
  });

  it('ends any answer at its first stop sequence', async () => {
    const res = await chat(ctx.gw, { messages: [user('[[echo]]one two STOP three')], stop: ['STOP', 'never'], stream: false });
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    assert.equal(body.choices[0]!.message.content, 'one two ');
  });

  it('bills a completion as it streams, and records a stream the client closed before its end', async () => {
    ctx.gw.setChannel('economical', { firstTokenMs: 10, perChunkMs: 40 });
    const before = ctx.gw.balance('sk-test');
    const controller = new AbortController();
    const res = await chat(ctx.gw, fimBody('src/math.ts', 'export function med'), { signal: controller.signal });
    const reader = res.body!.getReader();
    let got = '';
    while (!got.includes('"content":"') || got.split('"content":"').length < 4) got += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    for (let i = 0; i < 100 && ctx.gw.closedStreams().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const [closed] = ctx.gw.closedStreams();
    assert.ok(closed);
    assert.equal(closed.closedEarly, 'streaming');
    assert.ok(closed.fim);
    assert.ok(closed.sentChunks >= 3 && closed.sentChunks < closed.contentChunks, `${closed.sentChunks} of ${closed.contentChunks}`);
    assert.ok(closed.sentTokens > 0 && closed.sentTokens < closed.plannedTokens);
    const expected =
      chatCost('flagship-text', 'economical', { prompt_tokens: closed.promptTokens, completion_tokens: 0, prompt_tokens_details: { cached_tokens: 0 } }) +
      chatCost('flagship-text', 'economical', { prompt_tokens: 0, completion_tokens: closed.sentTokens, prompt_tokens_details: { cached_tokens: 0 } });
    assert.ok(Math.abs(closed.charged - expected) < 1e-12);
    assert.ok(Math.abs(before - ctx.gw.balance('sk-test') - expected) < 1e-12, 'the balance is charged the same');
  });

  it('records streams that ran to their end without the early-close mark, and serves the record over HTTP', async () => {
    await readStream(await chat(ctx.gw, fimBody('src/main.ts', 'console.log(me')));
    await readStream(await chat(ctx.gw, { messages: [user('hello')], stream: true }));
    const streams = ctx.gw.streams();
    assert.deepEqual(
      streams.map((r) => [r.fim, r.closedEarly, r.sentTokens === r.plannedTokens]),
      [
        [true, undefined, true],
        [false, undefined, true],
      ],
    );
    assert.ok(streams[0]!.arrivedAt > 0 && streams[0]!.endedAt! >= streams[0]!.arrivedAt);
    const served = (await (await fetch(ctx.gw.baseUrl.replace(/\/v1$/, '/__sim/streams'))).json()) as unknown[];
    assert.equal(served.length, 2);
    assert.deepEqual(ctx.gw.closedStreams(), []);
  });
});
