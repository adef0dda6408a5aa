// The entries of `modelgate.models`: the check by hand (which keeps zod unloaded while VS Code
// activates the extension) must never accept what the zod schema refuses or changes, and must
// accept the entries users write, or it would save nothing. Compared on the documented examples
// and on 4,000 seeded mutations of them.
import * as assert from 'node:assert/strict';
import { modelOverrideSchema, parseModelOverride, surelyValid } from '../../../../src/core/catalogue/modelOverrides';
import { ModelCatalogue } from '../../../../src/core/catalogue/modelCatalogue';

function mulberry(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** entries as users write them (the user guide's examples, and one of each field) */
const VALID: Record<string, unknown>[] = [
  { prices: { default: { input: 2, output: 8, cacheRead: 0.5 } } },
  { kind: 'image', sizes: ['1024x1024'], maxN: 4 },
  { kind: 'image', prices: { standard: { '1024x1024': 0.04 }, hd: { '1024x1024': 0.08 } } },
  {
    kind: 'chat',
    label: 'My model',
    contextWindow: 131_072,
    maxOutput: 8_192,
    imageInput: true,
    tools: false,
    caching: true,
    prices: { direct: { input: 1.25, output: 10 }, economical: { input: 0.6, output: 4.8, cacheRead: 0 } },
    maxOutputTokens: 4_096,
    maxTokensField: 'max_completion_tokens',
    temperature: 0.2,
    topP: 1,
    reasoningEffort: 'high',
    extraBody: { top_k: 40, seed: null, nested: { a: [1, 2] } },
  },
  { kind: 'image', label: 'Pictures', sizes: ['256x256', '1792x1024'], maxN: 10, quality: true, style: false },
  {},
];

/** values a mutation puts somewhere */
const ODD: unknown[] = [
  undefined,
  null,
  -1,
  -0,
  0,
  0.5,
  1,
  2,
  2.5,
  10,
  11,
  100_000_001,
  1e300,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'chat',
  'image',
  'default',
  'stable',
  'hd',
  'standard',
  'high',
  'max_tokens',
  'model',
  '1024x1024',
  true,
  false,
  [],
  ['1024x1024'],
  ['1024x1024', 'x'],
  {},
  { input: 1, output: 2 },
  { input: 1 },
  { '1024x1024': 0.1 },
  { model: 'x' },
  Object.create(null) as object,
  new Date(0),
];
const KEYS = [
  'kind',
  'label',
  'contextWindow',
  'maxN',
  'sizes',
  'prices',
  'input',
  'output',
  'cacheRead',
  'extraBody',
  'temperature',
  'model',
  'other',
  'hd',
  '1024x1024',
];

/** a copy of `v` with one change somewhere inside: a value replaced, a key added or removed */
function mutate(v: unknown, rnd: () => number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  if (v === null || typeof v !== 'object' || rnd() < 0.3) return pick(ODD);
  if (Array.isArray(v)) {
    const out = [...(v as unknown[])];
    if (!out.length || rnd() < 0.3) out.push(pick(ODD));
    else {
      const i = Math.floor(rnd() * out.length);
      out[i] = mutate(out[i], rnd);
    }
    return out;
  }
  const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
  const keys = Object.keys(out);
  const r = rnd();
  if (!keys.length || r < 0.2) out[pick(KEYS)] = pick(ODD);
  else if (r < 0.3) delete out[pick(keys)];
  else {
    const k = pick(keys);
    out[k] = mutate(out[k], rnd);
  }
  return out;
}

/** what zod says about the entry, with the same choice of schema per kind */
function byZod(raw: unknown) {
  const isImage = !!raw && typeof raw === 'object' && (raw as { kind?: unknown }).kind === 'image';
  const schema = modelOverrideSchema();
  return isImage ? schema.options[0].safeParse(raw) : schema.options[1].safeParse(raw);
}

describe('catalogue: the entries of modelgate.models, checked by hand where zod surely agrees', () => {
  it('accepts the entries users write, as zod parses them', () => {
    for (const raw of VALID) {
      assert.ok(surelyValid(raw), `checked by hand, without zod: ${JSON.stringify(raw)}`);
      const r = parseModelOverride('m', raw);
      const z = byZod(raw);
      assert.ok(z.success, JSON.stringify(raw));
      assert.deepEqual(r, { success: true, data: z.data });
    }
  });

  it('never accepts what zod refuses or would change, on 4,000 seeded mutations', () => {
    const rnd = mulberry(20261129);
    let sure = 0;
    let valid = 0;
    for (let i = 0; i < 4_000; i++) {
      let raw: unknown = VALID[i % VALID.length];
      for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) raw = mutate(raw, rnd);
      const z = byZod(raw);
      const what = `case ${i}: ${JSON.stringify(raw)}`;
      if (z.success) valid++;
      if (surelyValid(raw)) {
        sure++;
        assert.ok(z.success, `the hand check accepted what zod refuses: ${what}`);
        assert.deepStrictEqual(z.data, raw, `zod changes what the hand check accepted: ${what}`);
      }
      // either way, the answer is zod's
      const r = parseModelOverride('m', raw);
      assert.equal(r.success, z.success, what);
      if (r.success && z.success) assert.deepEqual(r.data, z.data, what);
      if (!r.success && !z.success) assert.equal(r.message, z.error.issues.map((x) => `${x.path.join('.') || 'm'}: ${x.message}`).join('; '), what);
    }
    // zod also accepts unknown keys (it drops them) and `undefined` values, which the hand check leaves to it
    assert.ok(valid > 500 && sure > 200, `enough valid entries for the comparison to mean something: ${valid} valid, ${sure} checked by hand`);
  });

  it('names the bad field through zod', () => {
    assert.deepEqual(parseModelOverride('m', { kind: 'image', maxN: 11 }), {
      success: false,
      message: 'maxN: Too big: expected number to be <=10',
    });
    const bad = parseModelOverride('m', { extraBody: { model: 'x' } });
    assert.equal(bad.success, false);
    assert.match(bad.success ? '' : bad.message, /^extraBody\.model: may not be set in extraBody/);
  });

  it('the catalogue takes a checked entry as a fresh copy (the settings object is never shared)', () => {
    const raw = { prices: { default: { input: 2, output: 8 } }, extraBody: { top_k: 40 } };
    const c = ModelCatalogue.build({ overrides: { 'flagship-text': raw } });
    const m = c.chatModel('flagship-text');
    assert.deepEqual(m?.prices.default, { input: 2, output: 8 });
    assert.notEqual(m?.prices.default, raw.prices.default);
    assert.deepEqual(c.problems, []);
  });
});
