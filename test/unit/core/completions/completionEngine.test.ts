// The completion engine: one request per pause, aborted at once by a keystroke, a newer ask or
// the editor's cancellation; a completion typed through is reused without a request; errors are
// shown once and back off; money and secrets can stop a request before it goes out. First with a
// scripted stream and a manual clock, then against the simulator over HTTP with the real client.
import * as assert from 'node:assert/strict';
import { CompletionEngine, answerComplete, CANCEL_GRACE_MS, COMPLETION_DEADLINE_MS } from '../../../../src/core/completions/completionEngine';
import type { CompletionAsk, EngineDeps, RequestReport } from '../../../../src/core/completions/completionContract';
import { linesOf } from '../../../../src/core/completions/documentWindow';
import { fimRequest } from '../../../../src/core/completions/fimPrompt';
import type { TroubleState } from '../../../../src/core/completions/completionTrouble';
import { createGatewayClient, GatewayError, type ChatRequest, type ChatStreamEvent } from '../../../../src/core';
import { startGateway, type RunningGateway } from '../../../gateway/index';

/** A manual clock: timers run when the test advances time. */
class Clock {
  now = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private next = 0;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.next;
    this.timers.push({ at: this.now + ms, fn, id });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.timers = this.timers.filter((t) => t.id !== id);
  };
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      await flush();
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.now = due.at;
      this.timers = this.timers.filter((t) => t !== due);
      due.fn();
    }
    this.now = end;
    await flush();
  }
}
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** A stream the test answers by hand. */
class ScriptedGateway {
  calls: { request: ChatRequest; signal: AbortSignal; push(e: ChatStreamEvent): void; end(): void; fail(e: Error): void }[] = [];
  stream = (request: ChatRequest, options: { signal: AbortSignal; onSend: () => void }): AsyncIterable<ChatStreamEvent> => {
    options.onSend();
    const queue: ChatStreamEvent[] = [];
    let wake: (() => void) | undefined;
    let ended = false;
    let error: Error | undefined;
    const kick = () => {
      wake?.();
      wake = undefined;
    };
    this.calls.push({
      request,
      signal: options.signal,
      push: (e) => (queue.push(e), kick()),
      end: () => ((ended = true), kick()),
      fail: (e) => ((error = e), kick()),
    });
    options.signal.addEventListener('abort', () => ((error = new GatewayError('aborted', 'cancelled')), kick()));
    return (async function* () {
      for (;;) {
        if (queue.length) {
          yield queue.shift()!;
          continue;
        }
        if (error) throw error;
        if (ended) return;
        await new Promise<void>((r) => (wake = r));
      }
    })();
  };
  /** answers the last call with `text` and usage */
  answer(text: string): void {
    const c = this.calls[this.calls.length - 1]!;
    c.push({ type: 'text', text });
    c.push({ type: 'usage', usage: { promptTokens: 100, completionTokens: 5, cachedTokens: 0 } });
    c.push({ type: 'done', finishReason: 'stop' });
    c.end();
  }
}

const FILE = 'export function mean(xs: number[]): number {\n  return \n}\n';

function setup(over: Partial<EngineDeps> = {}) {
  const clock = new Clock();
  const gw = new ScriptedGateway();
  const reports: RequestReport[] = [];
  const troubles: (TroubleState | undefined)[] = [];
  const engine = new CompletionEngine({
    now: () => clock.now,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    stream: gw.stream,
    prepare: (prompt) => ({ request: fimRequest(prompt, { model: 'flagship-text', channel: 'economical' }) }),
    onReport: (r) => reports.push(r),
    onTrouble: (t) => troubles.push(t),
    ...over,
  });
  let text = FILE;
  const ask = (line = 1, character = 9, extra: Partial<CompletionAsk> = {}): CompletionAsk => {
    const lines = linesOf(text);
    return {
      doc: { docKey: 'file:///a.ts', path: 'src/a.ts', languageId: 'typescript', lines },
      cursor: { line, character },
      textBetween: (from, to) => {
        const all = text.split('\n');
        if (from.line === to.line) return all[from.line]!.slice(from.character, to.character);
        return [all[from.line]!.slice(from.character), ...all.slice(from.line + 1, to.line), all[to.line]!.slice(0, to.character)].join('\n');
      },
      ...extra,
    };
  };
  /** types `s` at line 1 after "  return " and tells the engine */
  const typeAt = (s: string) => {
    text = text.replace(/^( {2}return [^\n]*)/m, `$1${s}`);
    engine.noteChange('file:///a.ts');
  };
  return { clock, gw, reports, troubles, engine, ask, typeAt, delay: () => engine.typing.delayMs() };
}

const token = () => {
  const listeners: (() => void)[] = [];
  const t = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => (listeners.push(l), { dispose: () => undefined }),
    cancel: () => {
      t.isCancellationRequested = true;
      for (const l of listeners) l();
    },
  };
  return t;
};

describe('CompletionEngine', () => {
  it('waits for a pause, then sends one request and shows the cleaned answer', async () => {
    const s = setup();
    const result = s.engine.complete(s.ask());
    await s.clock.advance(s.delay() - 1);
    assert.equal(s.gw.calls.length, 0, 'nothing before the pause is long enough');
    await s.clock.advance(1);
    assert.equal(s.gw.calls.length, 1);
    const req = s.gw.calls[0]!.request;
    assert.deepEqual(req.provider, { channel: 'economical' });
    assert.ok(req.max_tokens! <= 200);
    // the stop sequence ends the answer before its closing tag
    s.gw.answer('<COMPLETION>xs.reduce((a, b) => a + b, 0) / xs.length;');
    const r = await result;
    assert.deepEqual(r, { text: 'xs.reduce((a, b) => a + b, 0) / xs.length;', reused: false, offerId: 1 });
    assert.equal(s.reports.length, 1);
    assert.deepEqual(s.reports[0]!.usage, { promptTokens: 100, completionTokens: 5, cachedTokens: 0 });
    assert.equal(s.reports[0]!.aborted, undefined);
    assert.equal(s.reports[0]!.times.firedAt - s.reports[0]!.times.keyAt, s.delay());
  });

  it('sends nothing when a keystroke comes before the pause is over', async () => {
    const s = setup();
    const first = s.engine.complete(s.ask());
    await s.clock.advance(s.delay() / 2);
    s.typeAt('x');
    assert.equal(await first, undefined);
    assert.equal(s.gw.calls.length, 0);
  });

  it('aborts the request in flight at the keystroke that makes it stale: the stream is closed', async () => {
    const s = setup();
    const result = s.engine.complete(s.ask());
    await s.clock.advance(s.delay());
    const call = s.gw.calls[0]!;
    assert.equal(call.signal.aborted, false);
    s.typeAt('x');
    assert.equal(call.signal.aborted, true, 'aborted synchronously, in the keystroke');
    assert.equal(await result, undefined);
    assert.equal(s.reports[0]!.aborted, 'typing');
    assert.equal(s.engine.stats.aborted, 1);
  });

  it("aborts on the editor's cancellation and when a newer ask for another place supersedes it", async () => {
    const s = setup();
    const t = token();
    const a = s.engine.complete(s.ask(), t);
    await s.clock.advance(s.delay());
    t.cancel();
    await s.clock.advance(CANCEL_GRACE_MS);
    assert.equal(s.gw.calls[0]!.signal.aborted, true, 'closed once no ask joined within the grace');
    assert.equal(await a, undefined);
    assert.equal(s.reports[0]!.aborted, 'cancelled');

    const b = s.engine.complete(s.ask());
    await s.clock.advance(s.delay());
    const c = s.engine.complete(s.ask(0, 0));
    assert.equal(s.gw.calls[1]!.signal.aborted, true);
    assert.equal(await b, undefined);
    assert.equal(s.reports[1]!.aborted, 'superseded');
    await s.clock.advance(s.delay());
    s.gw.answer('<COMPLETION>// mean of xs\n</COMPLETION>');
    assert.equal((await c)?.text, '// mean of xs\n'.trimEnd());
  });

  it('keeps the request when the editor cancels an ask and asks again for the same place at once', async () => {
    const s = setup();
    const t1 = token();
    const a = s.engine.complete(s.ask(), t1);
    await s.clock.advance(s.delay());
    assert.equal(s.gw.calls.length, 1);
    t1.cancel();
    const t2 = token();
    const b = s.engine.complete(s.ask(), t2);
    await s.clock.advance(CANCEL_GRACE_MS * 2);
    assert.equal(s.gw.calls[0]!.signal.aborted, false, 'the same request goes on for the new ask');
    s.gw.answer('<COMPLETION>0;</COMPLETION>');
    assert.equal((await b)?.text, '0;');
    assert.equal((await a)?.text, '0;');
    assert.equal(s.gw.calls.length, 1, 'no second request');
    assert.notEqual(s.reports[0]!.aborted, 'cancelled');
  });

  it('joins the request in flight when the editor asks again for the same place', async () => {
    const s = setup();
    const a = s.engine.complete(s.ask());
    await s.clock.advance(s.delay());
    const b = s.engine.complete(s.ask());
    s.gw.answer('<COMPLETION>0;</COMPLETION>');
    assert.deepEqual(await a, await b);
    assert.equal(s.gw.calls.length, 1);
  });

  it('reuses a completion the user types through, without a request, until they leave it', async () => {
    const s = setup();
    const a = s.engine.complete(s.ask());
    await s.clock.advance(s.delay());
    s.gw.answer('<COMPLETION>xs.length;</COMPLETION>');
    assert.equal((await a)?.text, 'xs.length;');
    s.typeAt('xs.');
    const reused = await s.engine.complete(s.ask(1, 12));
    assert.deepEqual(reused, { text: 'length;', reused: true, offerId: 1 });
    assert.equal(s.gw.calls.length, 1);
    s.typeAt('size');
    const left = s.engine.complete(s.ask(1, 16));
    await s.clock.advance(s.delay());
    assert.equal(s.gw.calls.length, 2, 'typed past it: a new request');
    s.gw.answer('<COMPLETION>;</COMPLETION>');
    await left;
  });

  it('counts an accepted offer and waits less after a run of accepted completions', async () => {
    const s = setup();
    const before = s.delay();
    for (let i = 0; i < 12; i++) {
      const r = s.engine.complete(s.ask());
      await s.clock.advance(s.delay());
      s.gw.answer(`<COMPLETION>x${i};</COMPLETION>`);
      const offer = await r;
      s.engine.accepted(offer!.offerId);
      s.engine.accepted(offer!.offerId); // a second call for the same offer counts once
    }
    assert.equal(s.engine.stats.accepted, 12);
    assert.ok(s.delay() < before, `${s.delay()} < ${before}`);
  });

  it('shows an error once, backs off without sending, and clears the trouble after a success', async () => {
    const s = setup();
    const fail = async () => {
      const r = s.engine.complete(s.ask());
      await s.clock.advance(s.delay());
      s.gw.calls[s.gw.calls.length - 1]!.fail(new GatewayError('server', 'The gateway answered 503.', { status: 503 }));
      return r;
    };
    assert.equal(await fail(), undefined);
    assert.equal(s.troubles.length, 1);
    assert.equal(s.troubles[0]!.kind, 'server');
    // backing off: asks send nothing
    assert.equal(await s.engine.complete(s.ask()), undefined);
    assert.equal(s.gw.calls.length, 1);
    await s.clock.advance(15_000);
    assert.equal(await fail(), undefined);
    assert.equal(s.troubles.length, 1, 'the same trouble is not shown again');
    await s.clock.advance(30_000);
    const ok = s.engine.complete(s.ask());
    await s.clock.advance(s.delay());
    s.gw.answer('<COMPLETION>1;</COMPLETION>');
    assert.equal((await ok)?.text, '1;');
    assert.deepEqual(s.troubles, [s.troubles[0], undefined], 'cleared');
  });

  it('sends nothing when the caller refuses (a budget), or when what would be sent holds a secret', async () => {
    const refusing = setup({ prepare: () => undefined });
    const r = refusing.engine.complete(refusing.ask());
    await refusing.clock.advance(refusing.delay());
    assert.equal(await r, undefined);
    assert.equal(refusing.gw.calls.length, 0);

    const s = setup();
    s.typeAt('`\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk');
    const q = s.engine.complete(s.ask(3, 15));
    await s.clock.advance(s.delay());
    assert.equal(await q, undefined);
    assert.equal(s.gw.calls.length, 0);
  });

  it('a cursor moved elsewhere (a click, an arrow key) makes what waits or is in flight for the old place stale', async () => {
    const s = setup();
    const waiting = s.engine.complete(s.ask());
    s.engine.noteCursor('file:///a.ts', 1, 9); // the same place: nothing changes
    s.engine.noteCursor('file:///other.ts', 0, 0); // another document: nothing changes
    await s.clock.advance(s.delay());
    assert.equal(s.gw.calls.length, 1);
    s.engine.noteCursor('file:///a.ts', 0, 3);
    assert.equal(s.gw.calls[0]!.signal.aborted, true);
    assert.equal(await waiting, undefined);
    assert.equal(s.reports[0]!.aborted, 'moved');
    assert.equal(s.reports[0]!.sent, true);

    const next = s.engine.complete(s.ask());
    await s.clock.advance(s.delay() / 2);
    s.engine.noteCursor('file:///a.ts', 2, 0);
    assert.equal(await next, undefined);
    assert.equal(s.gw.calls.length, 1, 'nothing sent for a pause the cursor left');
  });

  it('reads related snippets only when a request goes out, sends them without secrets, and drops an ask that went stale meanwhile', async () => {
    const s = setup();
    let reads = 0;
    const related = async () => {
      reads++;
      await Promise.resolve();
      return [
        { path: 'src/b.ts', text: 'export const B = 2;' },
        { path: 'src/keys.ts', text: '-----BEGIN RSA PRIVATE KEY-----\nMIIE' },
      ];
    };
    const typedOver = s.engine.complete(s.ask(1, 9, { related }));
    s.typeAt('x');
    assert.equal(await typedOver, undefined);
    assert.equal(reads, 0, 'no pause, no snippets read');
    const r = s.engine.complete(s.ask(1, 10, { related }));
    await s.clock.advance(s.delay());
    assert.equal(reads, 1);
    const user = s.gw.calls[0]!.request.messages[1]!.content as string;
    assert.ok(user.includes('<SNIPPET path="src/b.ts">'));
    assert.ok(!user.includes('PRIVATE KEY'), 'a snippet with a secret inside is left out');
    s.gw.answer('<COMPLETION>1;');
    await r;
    // the document changes while the snippets are read: the ask is stale, nothing goes out
    let release!: () => void;
    const slow = () => new Promise<[]>((done) => (release = () => done([])));
    s.typeAt('z'); // leaves the completion shown, so the next ask is a fresh one
    const stale = s.engine.complete(s.ask(1, 11, { related: slow }));
    await s.clock.advance(s.delay());
    s.typeAt('y');
    release();
    assert.equal(await stale, undefined);
    assert.equal(s.gw.calls.length, 1);
  });

  it('sends nothing when the last check before sending says no (a secret inside the file)', async () => {
    const s = setup();
    const r = s.engine.complete(s.ask(1, 9, { mayGo: () => false }));
    await s.clock.advance(s.delay());
    assert.equal(await r, undefined);
    assert.equal(s.gw.calls.length, 0);
  });

  it('gives up a request that takes too long, and closes the stream once one line is complete', async () => {
    const s = setup();
    const slow = s.engine.complete(s.ask());
    await s.clock.advance(s.delay() + COMPLETION_DEADLINE_MS);
    assert.equal(await slow, undefined);
    assert.equal(s.reports[0]!.aborted, 'deadline');

    assert.ok(answerComplete('<COMPLETION>a, b\nmore', 'line'));
    assert.ok(!answerComplete('<COMPLETION>```ts\n', 'line'));
    assert.ok(!answerComplete('<COMPLETION>a, b\nmore', 'block'));
    assert.ok(answerComplete('<COMPLETION>x</COMPLETION>', 'block'));
  });
});

describe('CompletionEngine against the simulator', () => {
  let gw: RunningGateway;
  before(async () => {
    gw = await startGateway({ channels: { economical: { firstTokenMs: 50, perChunkMs: 2 } } });
  });
  after(() => gw.close());
  beforeEach(() => gw.reset());

  function engineOn(gateway: RunningGateway) {
    const client = createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
    const reports: RequestReport[] = [];
    const engine = new CompletionEngine({
      now: () => performance.now(),
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
      stream: (request, options) => client.streamChat(request, options),
      prepare: (prompt) => ({ request: fimRequest(prompt, { model: 'flagship-text', channel: 'economical' }) }),
      onReport: (r) => reports.push(r),
    });
    return { engine, reports };
  }

  const mathAsk = (text: string): CompletionAsk => {
    const lines = linesOf(text);
    const last = lines.lineCount - 1;
    return {
      doc: { docKey: 'file:///math.ts', path: 'src/math.ts', languageId: 'typescript', lines },
      cursor: { line: last, character: lines.lineAt(last).length },
      textBetween: () => '',
    };
  };

  it('shows what the model completes for the sample workspace', async () => {
    const { engine, reports } = engineOn(gw);
    const r = await engine.complete(mathAsk('export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function med'));
    assert.ok(r?.text.startsWith('ian(xs: number[]): number {\n  const sorted = [...xs].sort((a, b) => a - b);'), r?.text);
    assert.equal(reports[0]!.usage?.promptTokens, gw.streams()[0]!.promptTokens);
    assert.deepEqual(gw.closedStreams(), []);
  });

  it('a keystroke while the answer is awaited closes the stream: the simulator sees it end early and bills no output', async () => {
    // a first token slow enough that the keystroke surely comes while it is awaited, on a busy machine too
    gw.setChannel('economical', { firstTokenMs: 5000 });
    const { engine } = engineOn(gw);
    const balance = gw.balance('sk-test');
    const r = engine.complete(mathAsk('export function med'));
    for (let i = 0; i < 100 && gw.streams().length === 0; i++) await new Promise((done) => setTimeout(done, 20));
    assert.equal(gw.streams().length, 1, 'the request reached the simulator');
    engine.noteChange('file:///math.ts');
    assert.equal(await r, undefined);
    for (let i = 0; i < 100 && gw.closedStreams().length === 0; i++) await new Promise((done) => setTimeout(done, 20));
    const closed = gw.closedStreams();
    assert.equal(closed.length, 1);
    assert.equal(closed[0]!.closedEarly, 'waiting');
    assert.equal(closed[0]!.sentTokens, 0);
    const charged = balance - gw.balance('sk-test');
    assert.ok(Math.abs(charged - closed[0]!.charged) < 1e-12);
    assert.ok(closed[0]!.charged > 0 && closed[0]!.charged < (closed[0]!.promptTokens * 1.2) / 1e6 + 1e-12, 'the prompt only');
  });
});
