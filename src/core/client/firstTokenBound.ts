// The first-token bound: how long a chat request may wait for the first
// content of its answer. It grows with the prompt (a 1M-token prompt can take minutes before its
// first token on a slow channel) and with the channel's measured first-token times (p90 of the
// user's own requests times a margin), between a floor (the idle bound, `requestTimeoutSeconds`)
// and a ceiling. Once content flows, the idle bound alone applies between chunks.

export const FIRST_TOKEN_BOUND = {
  /** rough characters per token of a JSON chat body */
  charsPerToken: 4,
  /** prompt processing allowance: 0.3 ms per prompt token = 300 s for 1M tokens */
  msPerToken: 0.3,
  /** how far past the channel's p90 first-token time a request may still be healthy */
  p90Margin: 3,
  /** never more than 15 minutes */
  ceilingMs: 15 * 60_000,
} as const;

export interface FirstTokenInputs {
  /** length of the request body in characters (a cheap stand-in for the prompt's tokens) */
  promptChars: number;
  /** the idle bound; also the floor */
  idleMs: number;
  /** p90 of the channel's measured first-token times, when measured */
  p90FirstTokenMs?: number;
}

export function firstTokenBoundMs({ promptChars, idleMs, p90FirstTokenMs }: FirstTokenInputs): number {
  const b = FIRST_TOKEN_BOUND;
  const floor = Math.max(1, idleMs);
  const tokens = Number.isFinite(promptChars) && promptChars > 0 ? promptChars / b.charsPerToken : 0;
  const fromPrompt = floor + tokens * b.msPerToken;
  const fromHealth = p90FirstTokenMs !== undefined && Number.isFinite(p90FirstTokenMs) && p90FirstTokenMs > 0 ? p90FirstTokenMs * b.p90Margin : 0;
  return Math.round(Math.min(Math.max(b.ceilingMs, floor), Math.max(floor, fromPrompt, fromHealth)));
}
