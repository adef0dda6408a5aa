// Channel health, measured from the user's own requests: per model × channel, a rolling record
// of the last 200 requests within 7 days (figures only: never prompt or answer text). From it:
// time to first token (p50, p90), output tokens per second, how many requests failed and the
// last failure's kind. Pure: the extension keeps one in globalState
// (src/services/channelHealthStore.ts), the failover client (channelFailover.ts) fills it in.
import { l10n } from '../l10n';

export const HEALTH_MAX_SAMPLES = 200;
export const HEALTH_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** model × channel pairs kept; the least recently used go first (bounds what globalState holds) */
export const HEALTH_MAX_PAIRS = 32;

export interface HealthSample {
  at: number;
  ok: boolean;
  /** ms from the request (attempt) leaving to its first streamed text */
  firstTokenMs?: number;
  /** completion tokens per second between the first and the last streamed piece */
  tokensPerSecond?: number;
  /** a failure's kind, e.g. "server 503", "network", "timeout" */
  error?: string;
}

export interface HealthSummary {
  requests: number;
  errors: number;
  p50FirstTokenMs?: number;
  p90FirstTokenMs?: number;
  tokensPerSecond?: number;
  lastError?: string;
  lastErrorAt?: number;
}

/** Nearest-rank percentile of `values` (any order); undefined for none. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Compact persisted form of a sample: [at, ok, firstTokenMs|-1, tokensPerSecond|-1, error?]. */
export type PersistedSample = [at: number, ok: 0 | 1, firstTokenMs: number, tokensPerSecond: number, ...error: string[]];
export interface PersistedHealth {
  v: 1;
  pairs: Record<string, unknown[]>;
}

// What is stored is checked by hand, not with zod: activation reads it for the status bar, and
// building the zod schemas cost more than the rest of activate(). The rules are exactly
// those of z.object({ v: z.literal(1), pairs: z.record(z.string().max(300), z.array(z.unknown())) })
// and z.tuple([z.number(), z.union([z.literal(0), z.literal(1)]), z.number(), z.number()]).rest(z.string().max(60)):
// test/unit/core/channels/channelHealth.test.ts compares both on a corpus.
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The stored object's pairs, or undefined when it is not the persisted form (then nothing is trusted). */
export function readPersisted(raw: unknown): PersistedHealth | undefined {
  if (!isRecord(raw) || raw.v !== 1 || !isRecord(raw.pairs)) return undefined;
  for (const [key, rows] of Object.entries(raw.pairs)) if (key.length > 300 || !Array.isArray(rows)) return undefined;
  return { v: 1, pairs: raw.pairs as Record<string, unknown[]> };
}

/** One stored sample row, or undefined when malformed (that row is dropped). */
export function readPersistedSample(row: unknown): PersistedSample | undefined {
  if (!Array.isArray(row) || row.length < 4) return undefined;
  const [at, ok, first, tps] = row as unknown[];
  if (!isNumber(at) || (ok !== 0 && ok !== 1) || !isNumber(first) || !isNumber(tps)) return undefined;
  for (let i = 4; i < row.length; i++) if (typeof row[i] !== 'string' || (row[i] as string).length > 60) return undefined;
  return row as PersistedSample;
}

const pairKey = (model: string, channel: string) => `${model.slice(0, 200)}\u0000${channel.slice(0, 40)}`;

export class ChannelHealth {
  /**
   * insertion order = least recently recorded first. A pair read by fromJSON stays as stored rows
   * until it is used (the status bar reads the current model's pairs at activation, not
   * all 32 × 200 samples); every pair is decoded before anything changes or is saved.
   */
  private readonly pairs = new Map<string, HealthSample[] | StoredRows>();

  /** the pair's samples, decoding its stored rows on first use (an empty pair is dropped, as fromJSON did) */
  private samplesOf(key: string): HealthSample[] | undefined {
    const value = this.pairs.get(key);
    if (!value || Array.isArray(value)) return value;
    const samples = decodeRows(value.rows, value.now);
    if (samples.length) this.pairs.set(key, samples); // keeps its place in the order
    else this.pairs.delete(key);
    return samples.length ? samples : undefined;
  }

  private decodeAll(): void {
    for (const key of [...this.pairs.keys()]) this.samplesOf(key);
  }

  record(model: string, channel: string, sample: HealthSample): void {
    this.decodeAll();
    const key = pairKey(model, channel);
    const samples = this.samplesOf(key) ?? [];
    this.pairs.delete(key);
    samples.push(clean(sample));
    prune(samples, sample.at);
    this.pairs.set(key, samples);
    while (this.pairs.size > HEALTH_MAX_PAIRS) this.pairs.delete(this.pairs.keys().next().value as string);
  }

  clear(): void {
    this.pairs.clear();
  }

  summary(model: string, channel: string, now = Date.now()): HealthSummary {
    const samples = (this.samplesOf(pairKey(model, channel)) ?? []).filter((s) => now - s.at <= HEALTH_MAX_AGE_MS);
    const firstTokens = samples.flatMap((s) => (s.ok && s.firstTokenMs !== undefined ? [s.firstTokenMs] : []));
    const speeds = samples.flatMap((s) => (s.ok && s.tokensPerSecond !== undefined ? [s.tokensPerSecond] : []));
    const failures = samples.filter((s) => !s.ok);
    const last = failures.at(-1);
    const out: HealthSummary = { requests: samples.length, errors: failures.length };
    const p50 = percentile(firstTokens, 50);
    const p90 = percentile(firstTokens, 90);
    const tps = percentile(speeds, 50);
    if (p50 !== undefined) out.p50FirstTokenMs = p50;
    if (p90 !== undefined) out.p90FirstTokenMs = p90;
    if (tps !== undefined) out.tokensPerSecond = tps;
    if (last) {
      out.lastError = last.error ?? 'error';
      out.lastErrorAt = last.at;
    }
    return out;
  }

  toJSON(): PersistedHealth {
    this.decodeAll();
    const pairs: PersistedHealth['pairs'] = {};
    for (const [key, samples] of this.pairs as Map<string, HealthSample[]>) {
      pairs[key] = samples.map((s) => {
        const row: (number | string)[] = [s.at, s.ok ? 1 : 0, s.firstTokenMs ?? -1, s.tokensPerSecond ?? -1];
        if (s.error) row.push(s.error);
        return row;
      });
    }
    return { v: 1, pairs };
  }

  /** Reads what toJSON() wrote; anything malformed is dropped, never trusted. */
  static fromJSON(raw: unknown, now = Date.now()): ChannelHealth {
    const health = new ChannelHealth();
    const parsed = readPersisted(raw);
    if (!parsed) return health;
    for (const [key, rows] of Object.entries(parsed.pairs).slice(-HEALTH_MAX_PAIRS)) {
      if (!key.includes('\u0000') || !rows.length) continue;
      health.pairs.set(key, { rows, now }); // decoded on first use (samplesOf)
    }
    return health;
  }
}

/** A pair's rows as stored, with the time they were read (what fromJSON prunes against). */
interface StoredRows {
  rows: unknown[];
  now: number;
}

/** The samples of one pair's stored rows: malformed rows dropped, bounded and pruned as on record. */
function decodeRows(rows: unknown[], now: number): HealthSample[] {
  const samples: HealthSample[] = [];
  for (const row of rows.slice(-HEALTH_MAX_SAMPLES)) {
    const r = readPersistedSample(row);
    if (!r) continue;
    const [at, ok, first, tps, error] = r;
    if (!finite(at)) continue;
    samples.push(clean({ at, ok: ok === 1, firstTokenMs: first >= 0 ? first : undefined, tokensPerSecond: tps >= 0 ? tps : undefined, error }));
  }
  prune(samples, now);
  return samples;
}

function clean(s: HealthSample): HealthSample {
  const out: HealthSample = { at: s.at, ok: s.ok };
  if (finite(s.firstTokenMs)) out.firstTokenMs = Math.round(s.firstTokenMs);
  if (finite(s.tokensPerSecond)) out.tokensPerSecond = Math.round(s.tokensPerSecond * 10) / 10;
  if (!s.ok && s.error) out.error = s.error.slice(0, 60);
  return out;
}

function prune(samples: HealthSample[], now: number): void {
  while (samples.length > HEALTH_MAX_SAMPLES) samples.shift();
  while (samples.length && now - (samples[0] as HealthSample).at > HEALTH_MAX_AGE_MS) samples.shift();
}

/** "80 ms", "0.8 s", "12 s". */
export function formatMs(ms: number): string {
  if (ms < 95) return `${Math.round(ms)} ms`;
  if (ms < 9_950) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 1000)} s`;
}

/**
 * "p50 first token 0.8 s · p90 1.4 s · 62 tok/s · 1 error in 40 (last: server 503)", or
 * "not measured yet". `short` (the picker's one line): without p90 and the last error.
 */
export function formatHealth(s: HealthSummary, options: { short?: boolean } = {}): string {
  if (!s.requests) return l10n.t('not measured yet');
  const parts: string[] = [];
  if (s.p50FirstTokenMs !== undefined) {
    parts.push(l10n.t('p50 first token {0}', formatMs(s.p50FirstTokenMs)));
    if (s.p90FirstTokenMs !== undefined && !options.short) parts.push(l10n.t('p90 {0}', formatMs(s.p90FirstTokenMs)));
  } else {
    parts.push(l10n.t('no first token measured'));
  }
  if (s.tokensPerSecond !== undefined) parts.push(l10n.t('{0} tok/s', s.tokensPerSecond >= 10 ? Math.round(s.tokensPerSecond) : s.tokensPerSecond));
  const errors = s.errors === 1 ? l10n.t('1 error in {0}', s.requests) : l10n.t('{0} errors in {1}', s.errors, s.requests);
  parts.push(s.lastError && !options.short ? l10n.t('{0} (last: {1})', errors, s.lastError) : errors);
  return parts.join(' · ');
}

/** Short words for a failure's kind: "server 503", "network", "timeout", "rate_limit 429". */
export function errorKindOf(error: { kind?: string; status?: number } | undefined): string {
  if (!error?.kind) return 'error';
  return error.status ? `${error.kind} ${error.status}` : error.kind;
}
