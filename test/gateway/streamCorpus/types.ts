// A corpus of streamed chat answers in the shapes other servers send: each
// transcript is the raw SSE body one provider's public documentation shows or describes, with
// what a client must make of it. Used by the client's unit tests (test/unit/core/client/
// streamCorpus.test.ts, every transcript at random byte splits) and by the simulator's
// `[[replay:NAME]]` marker (the panel's end-to-end test). Each file names the document each
// transcript follows, next to it. Data only: no I/O here.

export interface ExpectedCall {
  /** undefined: the server sent none (the client makes a local one) */
  id?: string;
  name: string;
  arguments: string;
}

export interface ExpectedUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  reasoningTokens?: number;
}

export interface Transcript {
  /** unique, `provider-what` (the replay marker's argument) */
  name: string;
  /** the public document(s) the shape follows: title and URL */
  source: string;
  /** the raw response body, `text/event-stream` */
  body: string;
  expect: {
    text: string;
    reasoning?: string;
    /** where the reasoning came from (the field it goes back in) */
    reasoningField?: 'reasoning_content' | 'reasoning' | 'think';
    toolCalls?: ExpectedCall[];
    finishReason?: string | null;
    usage?: ExpectedUsage;
    /** the stream ends in an error: its kind and a part of its message */
    error?: { kind: string; includes: string };
  };
}

/**
 * An SSE body: objects become `data: <json>` events, strings are written as they are (a
 * comment `: keep-alive`, `data: [DONE]`, or a whole event with its own fields).
 */
export function sse(events: readonly (object | string)[], eol = '\n'): string {
  return events.map((e) => (typeof e === 'string' ? e : `data: ${JSON.stringify(e)}`) + eol + eol).join('');
}

/** Builds the chunks of one provider: `base` fields first (id, object, created, model...), as that server orders them. */
export function chunker(base: Record<string, unknown>, choiceExtra: Record<string, unknown> = {}) {
  return (delta: Record<string, unknown> | undefined, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
    ...base,
    choices: [{ index: 0, ...(delta === undefined ? {} : { delta }), ...choiceExtra, finish_reason: finish }],
    ...extra,
  });
}

/** Splits text into the pieces a server would stream (whole code points). */
export function pieces(text: string, sizes: readonly number[] = [3, 5, 2, 7, 4]): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0, k = 0; i < points.length; k++) {
    const n = sizes[k % sizes.length]!;
    out.push(points.slice(i, i + n).join(''));
    i += n;
  }
  return out;
}
