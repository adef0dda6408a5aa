// What the quote learns from the gateway's reports, across conversations: per model, how its
// counted prompt tokens compare with the prompt tokens the gateway bills (the calibration; the
// estimate is 4 characters per token, a model's tokenizer may take 3.3); per model and channel,
// how its cache behaves (cachePrediction.ts); per model, the user's recent answers (the
// expectation of a conversation's first answer). Figures only (token counts, ms, ids), no text.
// The stored form is checked by hand and bounded; anything odd is dropped, never shown. Pure.
import { answerSample, type AnswerSample, type AnswerUsage } from './answerHistory';
import { learnCache, type CacheFacts, type CacheObservation } from './cachePrediction';

export interface TokenCalibration {
  /** the counting rule the ratio is for */
  rule: string;
  /** the gateway's prompt tokens per counted token */
  ratio: number;
  samples: number;
}

export interface QuoteLearning {
  models: Record<string, TokenCalibration>;
  /** key: routeKey(model, channel) */
  routes: Record<string, CacheFacts>;
  /** per model, newest last */
  recent: Record<string, AnswerSample[]>;
}

export const MAX_LEARNED_MODELS = 64;
export const MAX_LEARNED_ROUTES = 128;
export const MAX_RECENT_ANSWERS = 16;
/** A counted prompt this far from the gateway's is not the same request (a failed count): not learned. */
const RATIO_BOUNDS = [0.2, 5] as const;

export const routeKey = (model: string, channel: string): string => `${model}\n${channel}`;

export function emptyLearning(): QuoteLearning {
  return { models: {}, routes: {}, recent: {} };
}

/** The calibration with one more request: the first sets it, later ones move it (a weighted mean that follows change). */
export function learnRatio(c: TokenCalibration | undefined, rule: string, counted: number, reported: number): TokenCalibration | undefined {
  if (!(counted > 0) || !(reported > 0)) return c;
  const r = reported / counted;
  if (r < RATIO_BOUNDS[0] || r > RATIO_BOUNDS[1]) return c;
  if (!c || c.rule !== rule) return { rule, ratio: r, samples: 1 };
  const w = Math.max(0.3, 1 / (c.samples + 1));
  return { rule, ratio: c.ratio * (1 - w) + r * w, samples: Math.min(c.samples + 1, 1_000) };
}

/** The ratio to apply to a count with `rule` (1 until the gateway reported one). */
export function ratioFor(l: QuoteLearning, model: string, rule: string): number {
  const c = l.models[model];
  return c && c.rule === rule ? c.ratio : 1;
}

const dropOldest = <T>(rec: Record<string, T>, max: number): void => {
  const keys = Object.keys(rec);
  for (let i = 0; i < keys.length - max; i++) delete rec[keys[i]!];
};

/** One request the gateway answered with usage: calibration and cache facts. Returns a new object. */
export function learnRequest(
  l: QuoteLearning,
  r: { model: string; channel: string; rule: string; counted?: number; promptTokens: number; cache?: CacheObservation },
): QuoteLearning {
  const out: QuoteLearning = { models: { ...l.models }, routes: { ...l.routes }, recent: l.recent };
  if (r.counted !== undefined) {
    const c = learnRatio(out.models[r.model], r.rule, r.counted, r.promptTokens);
    if (c) {
      delete out.models[r.model]; // re-inserted last: the newest stay when the list is cut
      out.models[r.model] = c;
    }
  }
  if (r.cache) {
    const key = routeKey(r.model, r.channel);
    const f = learnCache(out.routes[key], r.cache);
    delete out.routes[key];
    out.routes[key] = f;
  }
  dropOldest(out.models, MAX_LEARNED_MODELS);
  dropOldest(out.routes, MAX_LEARNED_ROUTES);
  return out;
}

/** A finished answer joins the model's recent answers. */
export function learnAnswer(l: QuoteLearning, a: AnswerUsage): QuoteLearning {
  const s = answerSample(a);
  if (!s) return l;
  const recent = { ...l.recent };
  const list = [...(recent[a.model] ?? []), s].slice(-MAX_RECENT_ANSWERS);
  delete recent[a.model];
  recent[a.model] = list;
  dropOldest(recent, MAX_LEARNED_MODELS);
  return { ...l, recent };
}

// --- the stored form, checked by hand ---------------------------------------------------------

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, max = 1e12): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max;
const id = (k: string): boolean => k.length > 0 && k.length <= 300;

function parseFacts(v: unknown): CacheFacts | undefined {
  if (!isRec(v)) return undefined;
  const { hits, misses, block, minHit, withOutput, aliveMs, goneMs } = v;
  if (!num(hits) || !num(misses) || !num(block) || !num(minHit) || typeof withOutput !== 'boolean' || !num(aliveMs)) return undefined;
  if (goneMs !== undefined && !num(goneMs)) return undefined;
  const f: CacheFacts = { hits, misses, block, minHit, withOutput, aliveMs };
  if (goneMs !== undefined) f.goneMs = goneMs;
  return f;
}

function parseSample(v: unknown): AnswerSample | undefined {
  if (!isRec(v) || typeof v.model !== 'string' || typeof v.tools !== 'boolean' || !num(v.requests, 10_000) || !num(v.finalOutput)) return undefined;
  const s: AnswerSample = { model: v.model, tools: v.tools, requests: v.requests, finalOutput: v.finalOutput };
  if (v.roundOutput !== undefined) {
    if (!num(v.roundOutput)) return undefined;
    s.roundOutput = v.roundOutput;
  }
  if (v.growth !== undefined) {
    if (!num(v.growth)) return undefined;
    s.growth = v.growth;
  }
  return s;
}

/** The stored learning; what does not check is left out (it is relearned). */
export function parseLearning(raw: unknown): QuoteLearning {
  const l = emptyLearning();
  if (!isRec(raw)) return l;
  if (isRec(raw.models)) {
    for (const [k, v] of Object.entries(raw.models).slice(-MAX_LEARNED_MODELS)) {
      if (!id(k) || !isRec(v) || typeof v.rule !== 'string' || !num(v.ratio, RATIO_BOUNDS[1]) || !num(v.samples)) continue;
      if (v.ratio < RATIO_BOUNDS[0]) continue;
      l.models[k] = { rule: v.rule, ratio: v.ratio, samples: v.samples };
    }
  }
  if (isRec(raw.routes)) {
    for (const [k, v] of Object.entries(raw.routes).slice(-MAX_LEARNED_ROUTES)) {
      const f = id(k) ? parseFacts(v) : undefined;
      if (f) l.routes[k] = f;
    }
  }
  if (isRec(raw.recent)) {
    for (const [k, v] of Object.entries(raw.recent).slice(-MAX_LEARNED_MODELS)) {
      if (!id(k) || !Array.isArray(v)) continue;
      const list = v
        .slice(-MAX_RECENT_ANSWERS)
        .map(parseSample)
        .filter((s): s is AnswerSample => !!s);
      if (list.length) l.recent[k] = list;
    }
  }
  return l;
}
