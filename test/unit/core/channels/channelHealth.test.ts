// Channel health: the rolling record per model × channel and how it reads.
import * as assert from 'node:assert/strict';
import * as z from 'zod';
import {
  ChannelHealth,
  readPersisted,
  readPersistedSample,
  formatHealth,
  formatMs,
  HEALTH_MAX_AGE_MS,
  HEALTH_MAX_PAIRS,
  HEALTH_MAX_SAMPLES,
  percentile,
} from '../../../../src/core/channels/channelHealth';

const DAY = 24 * 60 * 60 * 1000;

describe('channel health: the rolling record', () => {
  it('takes nearest-rank percentiles', () => {
    assert.equal(percentile([], 50), undefined);
    assert.equal(percentile([5], 90), 5);
    assert.equal(percentile([4, 1, 3, 2], 50), 2);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), 9);
  });

  it('summarises first token p50/p90, throughput, errors and the last error kind per model × channel', () => {
    const h = new ChannelHealth();
    const now = 1_000_000;
    for (let i = 1; i <= 10; i++) h.record('m', 'direct', { at: now + i, ok: true, firstTokenMs: i * 100, tokensPerSecond: 50 + i });
    h.record('m', 'direct', { at: now + 20, ok: false, error: 'server 503' });
    h.record('m', 'stable', { at: now, ok: true, firstTokenMs: 900 });
    const s = h.summary('m', 'direct', now + 30);
    assert.deepEqual(s, {
      requests: 11,
      errors: 1,
      p50FirstTokenMs: 500,
      p90FirstTokenMs: 900,
      tokensPerSecond: 55,
      lastError: 'server 503',
      lastErrorAt: now + 20,
    });
    assert.equal(formatHealth(s), 'p50 first token 0.5 s · p90 0.9 s · 55 tok/s · 1 error in 11 (last: server 503)');
    assert.equal(h.summary('m', 'stable', now).requests, 1);
    assert.equal(formatHealth(h.summary('m', 'economical', now)), 'not measured yet');
    assert.equal(formatHealth(h.summary('other', 'direct', now)), 'not measured yet');
  });

  it('keeps the last 200 requests of the last 7 days, and a bounded number of pairs', () => {
    const h = new ChannelHealth();
    for (let i = 0; i < HEALTH_MAX_SAMPLES + 50; i++) h.record('m', 'direct', { at: i, ok: i >= 50 });
    assert.equal(h.summary('m', 'direct', 300).requests, HEALTH_MAX_SAMPLES);
    assert.equal(h.summary('m', 'direct', 300).errors, 0, 'the oldest (the failures) went first');
    h.record('m', 'stable', { at: 0, ok: false });
    h.record('m', 'stable', { at: 6 * DAY, ok: true });
    assert.equal(h.summary('m', 'stable', 7 * DAY + 10).requests, 1, 'a sample older than 7 days is not counted');
    for (let i = 0; i < HEALTH_MAX_PAIRS + 5; i++) h.record(`model-${i}`, 'direct', { at: 1, ok: true });
    assert.equal(Object.keys(h.toJSON().pairs).length, HEALTH_MAX_PAIRS);
    assert.equal(h.summary('m', 'direct', 300).requests, 0, 'the least recently used pair went');
    assert.ok(HEALTH_MAX_AGE_MS === 7 * DAY);
  });

  it('round-trips through its persisted form, which holds figures only, and drops what is malformed', () => {
    const h = new ChannelHealth();
    h.record('m', 'direct', { at: 5, ok: true, firstTokenMs: 812.4, tokensPerSecond: 61.94 });
    h.record('m', 'direct', { at: 6, ok: false, error: 'network' });
    const json = JSON.parse(JSON.stringify(h.toJSON())) as { v: number; pairs: Record<string, unknown[]> };
    assert.deepEqual(
      { ...json },
      {
        v: 1,
        pairs: {
          'm\u0000direct': [
            [5, 1, 812, 61.9],
            [6, 0, -1, -1, 'network'],
          ],
        },
      },
    );
    const back = ChannelHealth.fromJSON(json, 10);
    assert.deepEqual(back.summary('m', 'direct', 10), h.summary('m', 'direct', 10));
    json.pairs['m\u0000direct']!.push(['x'], [7, 2, 1, 1], null, [8, 1, 100, 20, 'a'.repeat(500)]);
    json.pairs['no separator'] = [[1, 1, 1, 1]];
    const lenient = ChannelHealth.fromJSON(json, 10);
    assert.equal(lenient.summary('m', 'direct', 10).requests, 2);
    assert.equal(Object.keys(lenient.toJSON().pairs).length, 1);
    for (const bad of [undefined, null, 'x', { v: 2, pairs: {} }, { v: 1, pairs: 'x' }])
      assert.equal(Object.keys(ChannelHealth.fromJSON(bad).toJSON().pairs).length, 0);
  });

  it('formats times and the not-yet-measured cases', () => {
    assert.equal(formatMs(42.4), '42 ms');
    assert.equal(formatMs(812), '0.8 s');
    assert.equal(formatMs(12_400), '12 s');
    assert.equal(formatHealth({ requests: 3, errors: 3, lastError: 'server 502' }), 'no first token measured · 3 errors in 3 (last: server 502)');
    assert.equal(
      formatHealth({ requests: 1, errors: 0, p50FirstTokenMs: 50, p90FirstTokenMs: 50, tokensPerSecond: 4.5 }),
      'p50 first token 50 ms · p90 50 ms · 4.5 tok/s · 0 errors in 1',
    );
  });

  it('checks the stored form by hand exactly as the zod schemas it replaces (no schema is built at activation)', () => {
    // the zod schemas fromJSON used before the hand check: the reference
    const sampleSchema = z.tuple([z.number(), z.union([z.literal(0), z.literal(1)]), z.number(), z.number()]).rest(z.string().max(60));
    const storedSchema = z.object({ v: z.literal(1), pairs: z.record(z.string().max(300), z.array(z.unknown())) });
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const scalars: unknown[] = [
      0,
      1,
      2,
      -1,
      0.5,
      1e308,
      NaN,
      Infinity,
      -Infinity,
      '',
      'x',
      'e'.repeat(60),
      'e'.repeat(61),
      true,
      null,
      undefined,
      [],
      {},
      [1],
      '1',
    ];
    const goodRow = () => [rnd() * 1e12, pick([0, 1]), pick([-1, 120, 0.5]), pick([-1, 40.2]), ...(rnd() < 0.3 ? ['timeout'] : [])];
    const row = (): unknown => {
      if (rnd() < 0.5) return goodRow();
      if (rnd() < 0.2) return pick(scalars);
      const r: unknown[] = goodRow();
      const n = 1 + Math.floor(rnd() * 2);
      for (let i = 0; i < n; i++) r[Math.floor(rnd() * 6)] = pick(scalars);
      if (rnd() < 0.2) r.length = Math.floor(rnd() * 4);
      return r;
    };
    const stored = (): unknown => {
      const pairs: Record<string, unknown> = {};
      const n = Math.floor(rnd() * 4);
      for (let i = 0; i < n; i++)
        pairs[pick(['m\u0000direct', 'k'.repeat(300), 'k'.repeat(301), 'no-separator', ''])] =
          rnd() < 0.85 ? Array.from({ length: Math.floor(rnd() * 3) }, row) : pick(scalars);
      const v = rnd() < 0.85 ? 1 : pick([2, '1', 1.0000001, undefined, null]);
      const out: Record<string, unknown> = { v, pairs: rnd() < 0.9 ? pairs : pick(scalars) };
      if (rnd() < 0.2) out.extra = 'ignored';
      return rnd() < 0.9 ? out : pick([...scalars, [out]]);
    };
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const r = row();
      const ref = sampleSchema.safeParse(r);
      assert.deepEqual(readPersistedSample(r), ref.success ? ref.data : undefined, `sample ${JSON.stringify(r)}`);
      const raw = stored();
      const refStored = storedSchema.safeParse(raw);
      const mine = readPersisted(raw);
      assert.deepEqual(mine, refStored.success ? refStored.data : undefined, `stored ${JSON.stringify(raw)}`);
      if (mine) accepted++;
    }
    assert.ok(accepted > 500, `the corpus has both kinds: ${accepted} of 3000 stored forms accepted`);
  });

  it('decodes a stored pair on first use, with the same results in any order of use', () => {
    const now = 100 * DAY;
    const pairs: Record<string, unknown[]> = {};
    for (let p = 0; p < HEALTH_MAX_PAIRS + 3; p++)
      pairs[`m${p}\u0000direct`] = Array.from({ length: 5 }, (_, i) => [
        now - i * DAY * (p % 3 === 0 ? 3 : 1),
        i % 2,
        100 + p,
        20,
        ...(i % 2 ? [] : ['timeout']),
      ]);
    pairs['m5\u0000direct'] = [[now, 7, 1, 1], 'x']; // nothing valid: the pair is dropped
    const raw = JSON.parse(JSON.stringify({ v: 1, pairs }));
    const sample = { at: now, ok: true, firstTokenMs: 250, tokensPerSecond: 30 };
    // the reference: every pair decoded first (toJSON decodes all), then used
    const ref = ChannelHealth.fromJSON(raw, now);
    const refJson = ref.toJSON();
    assert.equal(Object.keys(refJson.pairs).length, HEALTH_MAX_PAIRS - 1, 'the oldest pairs beyond the bound and the empty one are not kept');
    assert.ok(!('m5\u0000direct' in refJson.pairs));
    // lazily: a summary decodes its own pair only; a record decodes them all before evicting
    const lazy = ChannelHealth.fromJSON(raw, now);
    assert.deepEqual(lazy.summary('m9', 'direct', now), ref.summary('m9', 'direct', now));
    lazy.record('new', 'direct', sample); // the empty stored pair must not count towards the bound
    ref.record('new', 'direct', sample);
    assert.deepEqual(lazy.summary('m5', 'direct', now), { requests: 0, errors: 0 });
    assert.deepEqual(lazy.toJSON(), ref.toJSON());
  });
});
