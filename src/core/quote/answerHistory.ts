// What the next answer is likely to take, from what answers took before: its length (reasoning
// included, as the gateway counts it in completion tokens), and for an agent answer its requests
// (one per round of tool calls, plus the last), what each round adds to the context and what a
// round's calls cost. This conversation's answers on the model come first; without them, the
// user's recent answers on the model elsewhere; without those, typical figures. Pure.

/** One request of an answer, as the gateway reported it. */
export interface RequestUsage {
  /** when it was sent (ms) */
  at: number;
  channel: string;
  promptTokens: number;
  cachedTokens: number;
  /** reasoning included */
  completionTokens: number;
  reasoningTokens?: number;
  /** it ended in tool calls (a round; the answer went on) */
  calls?: boolean;
  /** its prompt as the client counted it (before calibration) */
  counted?: number;
}

/** An answer's requests, in order. */
export interface AnswerUsage {
  model: string;
  /** tools were offered */
  tools: boolean;
  requests: readonly RequestUsage[];
}

/** The figures of one past answer the expectation is made of. */
export interface AnswerSample {
  model: string;
  tools: boolean;
  requests: number;
  /** completion tokens of the last request (the answer the user reads, with its reasoning) */
  finalOutput: number;
  /** mean completion tokens of a request that ended in tool calls */
  roundOutput?: number;
  /** mean prompt tokens a round added (the calls and their results) */
  growth?: number;
}

export function answerSample(a: AnswerUsage): AnswerSample | undefined {
  const r = a.requests;
  if (r.length === 0) return undefined;
  const last = r[r.length - 1]!;
  const rounds = r.filter((q) => q.calls);
  const s: AnswerSample = { model: a.model, tools: a.tools, requests: r.length, finalOutput: last.completionTokens };
  if (rounds.length) s.roundOutput = rounds.reduce((n, q) => n + q.completionTokens, 0) / rounds.length;
  if (r.length > 1) s.growth = Math.max(0, (last.promptTokens - r[0]!.promptTokens) / (r.length - 1));
  return s;
}

/** A figure with the range it may fall in. */
export interface Span {
  low: number;
  expected: number;
  high: number;
}

export type AnswerBasis = 'conversation' | 'recent' | 'typical';

export interface AnswerExpectation {
  /** requests of the answer (1 without tools) */
  requests: Span;
  /** completion tokens of the last request, capped by the model's maximum output */
  output: Span;
  /** completion tokens of each tool round */
  roundOutput: number;
  /** prompt tokens each round adds */
  growth: number;
  basis: AnswerBasis;
  /** how many past answers it rests on */
  samples: number;
  /** the model's maximum output capped the range */
  capped: boolean;
}

/** Without history: a typical answer of a coding assistant, and a typical round (a file read). */
export const TYPICAL = {
  output: { low: 120, expected: 700, high: 2_500 },
  /** completion of a round: the calls (and any reasoning before them) */
  roundOutput: 120,
  /** what a round adds to the context: the calls and a file's worth of results */
  growth: 1_500,
  /** requests of an agent answer (the first request plus its rounds) */
  requests: { low: 1, expected: 1, high: 5 },
} as const;

/** Past answers looked at, newest first. */
export const RECENT_ANSWERS = 8;

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The span of a figure from its past values: the median, and a range around the least and the
 * most seen, wider while there are few (one value says little about the next).
 */
export function spanOf(values: readonly number[], fallback: Span, elsewhere = false): Span {
  if (values.length === 0) return { ...fallback };
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  // answers of other conversations say less about this one's
  const widen = (values.length >= 4 ? 1.4 : values.length >= 2 ? 1.7 : 2.5) * (elsewhere ? 1.5 : 1);
  return { low: lo / widen, expected: median(values), high: hi * widen };
}

export interface ExpectationOptions {
  /** tools are offered to this request */
  tools: boolean;
  /** the model's maximum output (the request's max_tokens when set) */
  maxOutput: number;
  /** the tool-round limit: an answer takes at most this + 1 requests */
  maxRounds: number;
}

/**
 * The expected answer: from this conversation's answers on the model (`here`, oldest first),
 * else the user's recent answers on it elsewhere (`recent`), else typical figures.
 */
export function expectAnswer(here: readonly AnswerSample[], recent: readonly AnswerSample[], o: ExpectationOptions): AnswerExpectation {
  const pick = here.length ? here : recent;
  const basis: AnswerBasis = here.length ? 'conversation' : recent.length ? 'recent' : 'typical';
  const last = pick.slice(-RECENT_ANSWERS);
  const output = spanOf(
    last.map((s) => s.finalOutput),
    TYPICAL.output,
    basis === 'recent',
  );
  const withTools = last.filter((s) => s.tools);
  const rounds = last.map((s) => s.roundOutput).filter((v): v is number => v !== undefined);
  const growth = last.map((s) => s.growth).filter((v): v is number => v !== undefined);
  let requests: Span = { low: 1, expected: 1, high: 1 };
  if (o.tools) {
    // the low end is one request: the model may answer without a tool whatever it did before
    const counts = withTools.map((s) => s.requests);
    // the top: the most this conversation took, more while it has taken few (one answer of 5 rounds says little of the next)
    const widen = counts.length >= 4 ? 1 : counts.length >= 2 ? 1.4 : 1.8;
    requests = counts.length ? { low: 1, expected: Math.round(median(counts)), high: Math.ceil(Math.max(...counts) * widen) } : { ...TYPICAL.requests };
    const most = Math.max(1, o.maxRounds + 1);
    requests = { low: Math.min(requests.low, most), expected: Math.min(requests.expected, most), high: Math.min(requests.high, most) };
  }
  const cap = Math.max(1, o.maxOutput);
  const capped = output.high > cap;
  return {
    requests,
    output: { low: Math.min(output.low, cap), expected: Math.min(output.expected, cap), high: Math.min(output.high, cap) },
    roundOutput: rounds.length ? mean(rounds) : TYPICAL.roundOutput,
    growth: growth.length ? mean(growth) : TYPICAL.growth,
    basis,
    samples: last.length,
    capped,
  };
}
