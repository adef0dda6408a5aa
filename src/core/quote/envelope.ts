// A conversation's envelope: the most a task may spend before Modelgate asks. Before each request
// of an answer (the first and every round of tool calls), what the conversation has spent plus
// that request's quote (its high end: an envelope is never crossed without asking) must stay
// within it; a request that would cross it is not sent, and the answer pauses. Pure.

export type EnvelopeDecision =
  | { send: true }
  | {
      send: false;
      /** USD the conversation has spent */
      spent: number;
      /** USD the next request may cost (the quote's high end) */
      next: number;
      limit: number;
      /** a new limit that lets the answer finish as quoted (its remaining requests at their high end) */
      continueTo: number;
    };

/** Rounds up to two significant digits: 0.0834 -> 0.084, 0.0801 -> 0.081, 1.234 -> 1.3, 12.3 -> 13. */
export function roundUpUsd(usd: number): number {
  if (!(usd > 0)) return 0.01;
  const step = 10 ** (Math.floor(Math.log10(usd)) - 1);
  const up = Math.ceil(usd / step - 1e-9) * step;
  return Number(up.toPrecision(2));
}

/**
 * Whether the next request fits the envelope. `limit` undefined or 0: no envelope. `rest`: USD the
 * answer may still take after this request (its remaining rounds at their high end), for the
 * figure of "Continue to $X".
 */
export function checkEnvelope(limit: number | undefined, spent: number, next: number, rest = 0): EnvelopeDecision {
  if (limit === undefined || !(limit > 0)) return { send: true };
  if (spent + next <= limit) return { send: true };
  return { send: false, spent, next, limit, continueTo: Math.max(roundUpUsd(spent + next + Math.max(0, rest)), roundUpUsd(limit * 1.01)) };
}

/** A stored or typed envelope: USD > 0 and at most 1,000,000; anything else is none. */
export function parseEnvelope(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v.trim().replace(/^\$/, '')) : v;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 && n <= 1_000_000 ? n : undefined;
}
