// Opt-in failover between channels, against the gateway simulator with the
// real client: which failures move to the next channel, that nothing moves after content, and
// that each attempt is measured against the channel that made it.
import * as assert from 'node:assert/strict';
import { channelChain, failoverEligible, FailoverClient, parseFallbackChannels, switchNote } from '../../../../src/core/channels/channelFailover';
import type { HealthSample } from '../../../../src/core/channels/channelHealth';
import { createGatewayClient, GatewayError } from '../../../../src/core';
import type { ChatRequest, ChatStreamEvent, GatewayClient } from '../../../../src/core/client/types';
import { startGateway, type RunningGateway } from '../../../gateway/index';
import { AnswerChannels } from '../../../../src/chat/answers/answerChannelChoice';
import { newConversation, type AssistantRecord, type Conversation } from '../../../../src/chat/conversations/conversationTranscript';
import type { Services } from '../../../../src/services/serviceContainer';

const KEY = 'sk-failover-test-91c2';

describe('channel failover (core, against the simulator)', function () {
  this.timeout(30_000);
  let gw: RunningGateway;
  let client: GatewayClient;
  let samples: { model: string; channel: string; sample: HealthSample }[];

  before(async () => {
    gw = await startGateway({ keys: { [KEY]: { balance: 100 } } });
    client = createGatewayClient({ baseUrl: gw.baseUrl, apiKey: KEY, sleep: async () => undefined });
  });
  after(() => gw.close());
  beforeEach(() => {
    gw.reset();
    samples = [];
  });

  const failover = (fallbackChannels: ('direct' | 'stable' | 'economical')[]) =>
    new FailoverClient(client, { fallbackChannels, record: (model, channel, sample) => samples.push({ model, channel, sample }) });
  const request = (text: string, channel: 'direct' | 'stable' | 'economical' = 'direct'): ChatRequest => ({
    model: 'flagship-text',
    messages: [{ role: 'user', content: text }],
    provider: { channel },
  });
  async function collect(events: AsyncIterable<ChatStreamEvent>): Promise<{ text: string; error?: GatewayError }> {
    let text = '';
    try {
      for await (const e of events) if (e.type === 'text') text += e.text;
      return { text };
    } catch (err) {
      assert.ok(err instanceof GatewayError, String(err));
      return { text, error: err };
    }
  }
  const channelsAsked = () =>
    gw.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => (r.body as ChatRequest).provider?.channel ?? 'default');

  it('answers from the next channel when the first fails before content with 503, once, and counts every failed attempt', async () => {
    gw.setChannel('direct', { failureRate: 1, failureStatus: 503 });
    const alone = await collect(client.streamChat(request('[[echo]] one two three four five', 'stable')));
    gw.reset();
    gw.setChannel('direct', { failureRate: 1, failureStatus: 503 });
    const switched: string[] = [];
    const f = new FailoverClient(client, {
      fallbackChannels: ['stable'],
      record: (model, channel, sample) => samples.push({ model, channel, sample }),
      onSwitch: (s) => switched.push(`${s.from}->${s.to}`),
    });
    const got = await collect(f.streamChat(request('[[echo]] one two three four five')));
    assert.equal(got.error, undefined);
    assert.equal(got.text, alone.text, 'the answer once, as the stable channel gives it');
    assert.deepEqual(switched, ['direct->stable']);
    assert.equal(f.served, 'stable');
    assert.deepEqual(channelsAsked(), ['direct', 'direct', 'direct', 'stable'], 'the client retried direct twice, then stable answered');
    const direct = samples.filter((s) => s.channel === 'direct');
    assert.equal(direct.length, 3);
    assert.ok(direct.every((s) => !s.sample.ok && s.sample.error === 'server 503'));
    assert.equal(direct.length, gw.channelRecord().find((r) => r.channel === 'direct')!.failures, 'as many as the simulator failed');
    const stable = samples.filter((s) => s.channel === 'stable');
    assert.equal(stable.length, 1);
    assert.ok(stable[0]!.sample.ok && stable[0]!.sample.firstTokenMs !== undefined);
  });

  it('stays on the serving channel for the later requests of the same answer (tool rounds)', async () => {
    gw.setChannel('direct', { failureRate: 1 });
    const f = failover(['stable']);
    await collect(f.streamChat(request('[[words:3]]')));
    await collect(f.streamChat(request('[[words:4]]')));
    assert.deepEqual(channelsAsked(), ['direct', 'direct', 'direct', 'stable', 'stable']);
  });

  it('does not fail over without fallback channels', async () => {
    gw.setChannel('direct', { failureRate: 1 });
    const got = await collect(failover([]).streamChat(request('[[words:3]]')));
    assert.equal(got.error?.kind, 'server');
    assert.deepEqual(channelsAsked(), ['direct', 'direct', 'direct']);
    assert.doesNotMatch(got.error!.message, /Tried/);
  });

  it('never moves to another channel after the first token: a drop mid-answer is the user’s error, partial text kept', async () => {
    gw.injectFault({ kind: 'drop', afterChunks: 2 });
    const got = await collect(failover(['stable']).streamChat(request('[[words:30]]')));
    assert.ok(got.text.length > 0, 'text before the drop');
    assert.equal(got.error?.afterContent, true);
    assert.deepEqual(channelsAsked(), ['direct']);
    assert.equal(samples.length, 1);
    assert.equal(samples[0]!.sample.ok, false);
  });

  it('counts reasoning as delivered content: the first token is the first thinking, throughput spans the thinking', async () => {
    // A thinking model (DeepSeek's form) on the real client; a clock that ticks one second per event.
    let clock = 0;
    const at: { type: string; clock: number; usage?: number }[] = [];
    const ticking: Pick<GatewayClient, 'streamChat'> = {
      async *streamChat(r, o) {
        for await (const e of client.streamChat(r, o)) {
          clock += 1000;
          at.push({ type: e.type, clock, ...(e.type === 'usage' ? { usage: e.usage.completionTokens } : {}) });
          yield e;
        }
      },
    };
    const f = new FailoverClient(ticking, {
      fallbackChannels: [],
      record: (model, channel, sample) => samples.push({ model, channel, sample }),
      now: () => clock,
    });
    await collect(f.streamChat(request('[[reasoning:content]] [[words:12]]')));
    assert.equal(at[0]!.type, 'reasoning', 'the model thinks first');
    const content = at.filter((e) => e.type === 'reasoning' || e.type === 'text');
    const first = content[0]!.clock;
    const last = content[content.length - 1]!.clock;
    const tokens = at.find((e) => e.type === 'usage')!.usage!;
    assert.equal(samples.length, 1);
    const sample = samples[0]!.sample;
    assert.equal(sample.firstTokenMs, first, 'time to the first thinking, not to the first answer text');
    assert.equal(sample.tokensPerSecond, tokens / ((last - first) / 1000), 'completion tokens (reasoning included) over the time they took');
  });

  it('never moves to another channel once thinking was shown, whatever the client marks', async () => {
    // A client of the streamChat contract that fails mid-thinking without marking the error afterContent.
    const asked: string[] = [];
    const thinking: Pick<GatewayClient, 'streamChat'> = {
      async *streamChat(r) {
        asked.push(r.provider?.channel ?? 'default');
        yield { type: 'reasoning', text: 'Let me think about ', field: 'reasoning_content' };
        throw new GatewayError('server', 'The gateway had a problem (503).', { status: 503 });
      },
    };
    const f = new FailoverClient(thinking, { fallbackChannels: ['stable'] });
    const seen: ChatStreamEvent[] = [];
    await assert.rejects(async () => {
      for await (const e of f.streamChat(request('think'))) seen.push(e);
    }, GatewayError);
    assert.deepEqual(asked, ['direct'], 'not replayed on stable');
    assert.equal(f.switches.length, 0);
    assert.deepEqual(
      seen.map((e) => e.type),
      ['reasoning'],
    );
  });

  it('moves on when the gateway refuses the channel for the model (no retry on the same channel)', async () => {
    gw.setChannel('direct', { refuses: ['flagship-text'] });
    const got = await collect(failover(['economical']).streamChat(request('[[words:3]]')));
    assert.equal(got.error, undefined);
    assert.deepEqual(channelsAsked(), ['direct', 'economical']);
    assert.match(samples[0]!.sample.error ?? '', /unsupported 400/);
  });

  it('moves on after a rate limit the retry policy will not wait out', async () => {
    gw.injectFault({ kind: 'rateLimit', retryAfter: '3600' });
    const got = await collect(failover(['stable']).streamChat(request('[[words:3]]')));
    assert.equal(got.error, undefined);
    assert.deepEqual(channelsAsked(), ['direct', 'stable']);
  });

  it('does not move for what another channel cannot fix (balance, key, bad request), and says what was tried when all fail', async () => {
    gw.setBalance(KEY, 0);
    const poor = await collect(failover(['stable']).streamChat(request('[[words:3]]')));
    assert.equal(poor.error?.kind, 'balance');
    assert.deepEqual(channelsAsked(), ['direct']);
    gw.setBalance(KEY, 100);
    gw.setChannel('direct', { failureRate: 1 });
    gw.setChannel('stable', { failureRate: 1 });
    const all = await collect(failover(['stable']).streamChat(request('[[words:3]]')));
    assert.equal(all.error?.kind, 'server');
    assert.match(all.error!.message, /\(Tried direct, stable\.\)$/);
  });

  it('records nothing against the channel when the user stops the request', async () => {
    gw.injectFault({ kind: 'stall' });
    const abort = new AbortController();
    const pending = collect(failover(['stable']).streamChat(request('[[words:3]]'), { signal: abort.signal }));
    setTimeout(() => abort.abort(), 50);
    const got = await pending;
    assert.equal(got.error?.kind, 'aborted');
    assert.equal(samples.length, 0);
  });

  it('knows which failures another channel might not have', () => {
    const e = (kind: ConstructorParameters<typeof GatewayError>[0], init: ConstructorParameters<typeof GatewayError>[2] = {}) =>
      new GatewayError(kind, 'x', init);
    for (const k of ['server', 'network', 'timeout', 'rate_limit'] as const) assert.ok(failoverEligible(e(k)), k);
    for (const k of ['auth', 'balance', 'bad_request', 'not_found', 'protocol', 'aborted', 'unsupported'] as const) assert.ok(!failoverEligible(e(k)), k);
    assert.ok(failoverEligible(e('unsupported', { code: 'unsupported_channel' })));
    assert.ok(failoverEligible(e('bad_request', { param: 'provider.channel' })));
    assert.ok(!failoverEligible(e('server', { afterContent: true })));
  });

  it('builds the chain and reads the setting with a clear message for a bad value', () => {
    assert.deepEqual(channelChain('direct', ['stable', 'direct', 'economical']), ['direct', 'stable', 'economical']);
    assert.deepEqual(channelChain('default', ['stable']), ['default', 'stable']);
    assert.deepEqual(parseFallbackChannels(undefined), { channels: [] });
    assert.deepEqual(parseFallbackChannels(['stable', 'stable', 'economical']), { channels: ['stable', 'economical'] });
    const bad = parseFallbackChannels(['stable', 'fast', 3]);
    assert.deepEqual(bad.channels, ['stable']);
    assert.match(bad.problem!, /"fast", 3, which are not channels; allowed: direct, stable, economical\. Using stable\./);
    assert.match(parseFallbackChannels('stable').problem!, /must be a list of channels.*\["stable"\]/);
  });

  it('notes a switch with its cache cost', () => {
    const note = switchNote(
      [{ from: 'direct', to: 'stable', error: new GatewayError('server', 'x', { status: 503 }) }],
      'stable',
      { promptTokens: 5000, cachedTokens: 1000, completionTokens: 10 },
      {
        input: 1,
        output: 8,
        cacheRead: 0.25,
      },
    );
    assert.match(note, /came from stable: direct \(server 503\) failed before answering/);
    assert.match(note, /4,000 prompt tokens were billed uncached on stable: \$0\.003 more than if stable had held them in its cache\./);
  });

  it('says nothing about a cache on the first answer of a conversation (none was built)', () => {
    const note = switchNote(
      [{ from: 'direct', to: 'stable', error: new GatewayError('server', 'x', { status: 503 }) }],
      'stable',
      { promptTokens: 5000, cachedTokens: 0, completionTokens: 10 },
      { input: 1, output: 8, cacheRead: 0.25 },
      false,
    );
    assert.match(note, /came from stable: direct \(server 503\) failed before answering/);
    assert.doesNotMatch(note, /cache/);
  });

  describe('the note after an answer that failed over (chat/answers/answerChannelChoice.ts)', () => {
    const PRICE = { input: 1, output: 8, cacheRead: 0.25 };
    const services = { catalogue: () => ({ price: () => PRICE }) } as unknown as Services;
    const usage = { promptTokens: 5000, cachedTokens: 0, completionTokens: 10 };
    const answer = (id: string, channel: string, ending: Partial<AssistantRecord>): AssistantRecord => ({
      id,
      role: 'assistant',
      parts: [],
      status: 'done',
      model: 'flagship-text',
      channel,
      createdAt: 0,
      wire: [],
      ...ending,
    });
    const conversation = (...earlier: AssistantRecord[]): Conversation => {
      const c = newConversation(0);
      for (const a of earlier) {
        c.messages.push({ id: `u-${a.id}`, role: 'user', text: 'q', attachments: [], createdAt: 0, context: [], wire: { role: 'user', content: 'q' } });
        c.messages.push(a);
      }
      return c;
    };
    /** The note for a new answer on `direct` that `stable` served after direct's 503. */
    function noteAfter(c: Conversation): string {
      const record = answer('now', 'direct', { status: 'streaming' });
      c.messages.push(record);
      const f = { served: 'stable', switches: [{ from: 'direct', to: 'stable', error: new GatewayError('server', 'x', { status: 503 }) }] };
      const notes: string[] = [];
      new AnswerChannels(services).finish(c, record, f as unknown as FailoverClient, usage, undefined, (t) => notes.push(t));
      assert.equal(notes.length, 1);
      assert.equal(record.channel, 'stable');
      return notes[0]!;
    }

    it('speaks of the cache lost when an earlier answer finished with usage on the channel that failed', () => {
      assert.match(noteAfter(conversation(answer('a', 'direct', { usage }))), /5,000 prompt tokens were billed uncached on stable/);
    });

    it('says nothing about a cache when no earlier answer built one there: failed (401, 5xx), stopped before usage, or on another channel', () => {
      const cases: [string, Conversation][] = [
        ['first answer', conversation()],
        ['401', conversation(answer('a', 'direct', { status: 'error', error: { message: 'Invalid API key', actions: ['setKey'] } }))],
        ['503', conversation(answer('a', 'direct', { status: 'error', error: { message: 'Service unavailable', actions: ['retry'] } }))],
        ['stopped before usage', conversation(answer('a', 'direct', { status: 'stopped' }))],
        ['cache on stable, which served', conversation(answer('a', 'stable', { usage }))],
      ];
      for (const [what, c] of cases) {
        const note = noteAfter(c);
        assert.match(note, /came from stable: direct \(server 503\) failed before answering/, what);
        assert.doesNotMatch(note, /cache/, `${what}: ${note}`);
      }
    });
  });
});
