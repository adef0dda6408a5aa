import * as assert from 'node:assert/strict';
import { CHANNEL_PROFILES, chatPacing } from '../../gateway/channel-profiles';
import { seededRng } from '../../gateway/rng';
import { startGateway } from '../../gateway/index';
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
