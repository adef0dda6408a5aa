import * as assert from 'node:assert/strict';
import { CHANNEL_PROFILES, chatPacing } from '../channel-profiles';
import { seededRng } from '../rng';
import { startGateway } from '../index';
import { chat, errorOf, user } from './helpers';

describe('gateway simulator: channel profiles', function () {
  // Generous: the machine may be busy; no test asserts on timing.
  this.timeout(30_000);
  it('orders the channels by first-token latency and grows it with uncached input', () => {
    const rng = seededRng(3);
    const first = (channel: 'direct' | 'stable' | 'economical', tokens: number) => chatPacing(true, channel, tokens, rng).firstByteMs;
    assert.ok(CHANNEL_PROFILES.direct.firstTokenMs < CHANNEL_PROFILES.stable.firstTokenMs);
    assert.ok(CHANNEL_PROFILES.stable.firstTokenMs < CHANNEL_PROFILES.economical.firstTokenMs);
    assert.ok(first('direct', 1_000_000) > first('direct', 0) + 1000);
    assert.equal(chatPacing(false, 'economical', 1_000_000, rng).firstByteMs, 0);
  });

  it('fails requests per channel when failures are on: economical often with 503, direct with 502', async () => {
    const gw = await startGateway({ failures: true, seed: 42, keys: { 'sk-test': { balance: 1000 } } });
    try {
      const tally = async (channel: string) => {
        const statuses: number[] = [];
        for (let i = 0; i < 120; i++) {
          const res = await chat(gw, { stream: false, provider: { channel }, messages: [user('[[words:1]]')] });
          statuses.push(res.status);
          if (res.status !== 200) {
            const error = await errorOf(res);
            assert.equal(error.type, 'server_error');
          } else await res.arrayBuffer();
        }
        return statuses;
      };
      const economical = await tally('economical');
      const direct = await tally('direct');
      const econFailures = economical.filter((s) => s !== 200);
      assert.ok(econFailures.length >= 4 && econFailures.length <= 30, `economical failures: ${econFailures.length}`);
      assert.ok(econFailures.every((s) => s === 503));
      assert.ok(direct.filter((s) => s !== 200).every((s) => s === 502));
      assert.ok(direct.filter((s) => s !== 200).length < econFailures.length);
    } finally {
      await gw.close();
    }
  });

  it('fails the same requests again with the same seed', async () => {
    const run = async () => {
      const gw = await startGateway({ failures: true, seed: 7 });
      try {
        const out: number[] = [];
        for (let i = 0; i < 60; i++) {
          const res = await chat(gw, { stream: false, provider: { channel: 'economical' }, messages: [user('[[words:1]]')] });
          out.push(res.status);
          await res.arrayBuffer();
        }
        return out;
      } finally {
        await gw.close();
      }
    };
    assert.deepEqual(await run(), await run());
  });
});

describe('gateway simulator: channels changed during a test', function () {
  this.timeout(30_000);
  const words = (channel: string, model = 'flagship-text') => ({ model, stream: false, provider: { channel }, messages: [user('[[words:3]]')] });

  it('gives each channel its own latency, recorded per model × channel, and reset() restores the defaults', async () => {
    const gw = await startGateway({ channels: { economical: { firstTokenMs: 40, perChunkMs: 0 } } });
    try {
      gw.setChannel('direct', { firstTokenMs: 5, perChunkMs: 0 });
      for (const channel of ['direct', 'economical', 'direct', 'economical']) assert.equal((await chat(gw, words(channel))).status, 200);
      const record = gw.channelRecord();
      const of = (channel: string) => record.find((r) => r.channel === channel && r.model === 'flagship-text')!;
      assert.equal(of('direct').requests, 2);
      assert.equal(of('economical').requests, 2);
      // planned delays: ±30% jitter around 5 ms and 40 ms never cross
      assert.ok(Math.max(...of('direct').firstTokenMs) < Math.min(...of('economical').firstTokenMs), JSON.stringify(record));
      // stable was not changed: no latency without `latency: 'realistic'`
      assert.equal((await chat(gw, words('stable'))).status, 200);
      assert.deepEqual(gw.channelRecord().find((r) => r.channel === 'stable')!.firstTokenMs, [0]);
      gw.reset();
      assert.deepEqual(gw.channelRecord(), []);
      assert.equal(gw.channelProfiles().direct.firstTokenMs, CHANNEL_PROFILES.direct.firstTokenMs);
      assert.equal(gw.channelProfiles().economical.firstTokenMs, 40, 'the options stay applied after a reset');
    } finally {
      await gw.close();
    }
  });

  it('fails at a channel’s own error rate without turning on failures elsewhere, the same way under the same seed', async () => {
    const run = async () => {
      const gw = await startGateway({ seed: 11 });
      try {
        gw.setChannel('direct', { failureRate: 0.5, failureStatus: 503 });
        const statuses: number[] = [];
        for (let i = 0; i < 20; i++) {
          for (const channel of ['direct', 'stable']) {
            const res = await chat(gw, words(channel));
            statuses.push(res.status);
            await res.arrayBuffer();
          }
        }
        const direct = gw.channelRecord().find((r) => r.channel === 'direct')!;
        assert.equal(direct.failures, statuses.filter((s, i) => i % 2 === 0 && s === 503).length);
        assert.ok(direct.failures >= 3 && direct.failures <= 17, `direct failures ${direct.failures}`);
        assert.ok(
          statuses.every((s, i) => i % 2 === 0 || s === 200),
          'stable never fails',
        );
        return statuses;
      } finally {
        await gw.close();
      }
    };
    assert.deepEqual(await run(), await run());
  });

  it('lets a channel refuse a model (400 unsupported_channel) and serve another', async () => {
    const gw = await startGateway();
    try {
      gw.setChannel('economical', { refuses: ['flagship-text'] });
      const res = await chat(gw, words('economical'));
      assert.equal(res.status, 400);
      const error = await errorOf(res);
      assert.equal(error.code, 'unsupported_channel');
      assert.equal(error.param, 'provider.channel');
      assert.match(error.message, /flagship-text.*economical/);
      assert.equal((await chat(gw, words('economical', 'long-context-tools'))).status, 200);
      assert.equal(gw.channelRecord().find((r) => r.model === 'flagship-text')!.refusals, 1);
    } finally {
      await gw.close();
    }
  });

  it('gives the full context window only on direct', async () => {
    const gw = await startGateway();
    try {
      // ~800K tokens: inside flagship-text's 1M on direct, over the 75% that stable offers
      const big = { stream: false, messages: [user('[[words:1]] ' + 'x'.repeat(3_200_000))] };
      assert.equal((await chat(gw, { ...big, provider: { channel: 'direct' } })).status, 200);
      const res = await chat(gw, { ...big, provider: { channel: 'stable' } });
      assert.equal(res.status, 400);
      const error = await errorOf(res);
      assert.equal(error.code, 'context_length_exceeded');
      assert.match(error.message, /750000 tokens on the 'stable' channel/);
      gw.setChannel('stable', { contextShare: 1 });
      assert.equal((await chat(gw, { ...big, provider: { channel: 'stable' } })).status, 200);
    } finally {
      await gw.close();
    }
  });

  it('charges a channel’s changed price', async () => {
    const gw = await startGateway({ keys: { 'sk-test': { balance: 10 } } });
    try {
      gw.setChannel('direct', { prices: { 'flagship-text': { input: 1000, output: 0 } } });
      const res = await chat(gw, words('direct'));
      const body = (await res.json()) as { usage: { prompt_tokens: number } };
      assert.ok(Math.abs(10 - gw.balance('sk-test') - (body.usage.prompt_tokens * 1000) / 1e6) < 1e-9);
    } finally {
      await gw.close();
    }
  });

  it('is changed and read through the control endpoints, with a clear 400 for a bad change', async () => {
    const gw = await startGateway();
    try {
      const root = gw.baseUrl.replace(/\/v1$/, '');
      const set = (body: unknown) =>
        fetch(`${root}/__sim/channel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const ok = await set({ channel: 'stable', firstTokenMs: 7, failureRate: 0, refuses: ['long-context-tools'] });
      assert.equal(ok.status, 200);
      const { profile } = (await ok.json()) as { profile: { firstTokenMs: number; paced: boolean; refuses: string[] } };
      assert.equal(profile.firstTokenMs, 7);
      assert.equal(profile.paced, true);
      assert.deepEqual(profile.refuses, ['long-context-tools']);
      const bad = await set({ channel: 'stable', failureRate: 2 });
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { error: { message: string } }).error.message, /failureRate/);
      const unknown = await set({ channel: 'stable', latency: 3 });
      assert.equal(unknown.status, 400);
      await chat(gw, words('stable')).then((r) => r.arrayBuffer());
      const read = (await (await fetch(`${root}/__sim/channels`)).json()) as {
        profiles: Record<string, { firstTokenMs: number }>;
        record: { channel: string; requests: number }[];
      };
      assert.equal(read.profiles.stable!.firstTokenMs, 7);
      assert.equal(read.record.find((r) => r.channel === 'stable')!.requests, 1);
    } finally {
      await gw.close();
    }
  });
});
