// The wire form of a chat answer: SSE chunks in the shape OpenAI-compatible services stream
// (the interface's form plus what real servers send: a role-only first chunk, chunks without content,
// keep-alive comments, tool-call fragments interleaved by index, a usage chunk with empty
// `choices`, then [DONE]); or one chat.completion object when streaming is off.
import type { Reply } from './chat-reply';
import { reasoningDelta, reasoningMessageFields, thinkBlock, type ReasoningForm } from './reasoning';
import { seededRng } from './rng';

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

/** The usage object as sent: OpenAI's cached-token field, or DeepSeek's hit and miss fields (models.ts `cacheScheme`). */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  prompt_cache_hit_tokens?: number;
  prompt_cache_miss_tokens?: number;
  completion_tokens_details: { reasoning_tokens: number };
}

/** One SSE event as text without its terminating blank line. `content` = counts as a content chunk for faults. */
export interface SseEvent {
  text: string;
  content: boolean;
  finish?: boolean;
  /** the answer text this event carries (content and reasoning; tool-call fragments count their arguments) */
  piece?: string;
}

/** Words per content chunk, cycled, so chunk boundaries fall in varied places. */
const WORDS_PER_CHUNK = [2, 3, 1, 4, 3] as const;
/** Characters per tool-argument fragment, cycled. */
const ARG_PIECES = [4, 7, 3, 6, 5] as const;

/** Splits text into chunks of a few words; concatenating them gives the text back exactly. */
export function splitIntoChunks(text: string): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const trailing = text.slice(words.join('').length);
  const chunks: string[] = [];
  let i = 0;
  let k = 0;
  while (i < words.length) {
    const n = WORDS_PER_CHUNK[k++ % WORDS_PER_CHUNK.length] as number;
    chunks.push(words.slice(i, i + n).join(''));
    i += n;
  }
  if (trailing) {
    if (chunks.length) chunks[chunks.length - 1] += trailing;
    else chunks.push(trailing);
  }
  return chunks;
}

/**
 * Splits text into seeded random pieces of 1-`max` characters (whole code points, so no piece holds
 * half a surrogate pair); concatenating them gives the text back exactly. Same seed, same pieces.
 */
export function splitRandomly(text: string, seed: number, max = 24): string[] {
  const rng = seededRng(seed);
  const points = Array.from(text);
  const chunks: string[] = [];
  for (let i = 0; i < points.length;) {
    const n = 1 + Math.floor(rng() * max);
    chunks.push(points.slice(i, i + n).join(''));
    i += n;
  }
  return chunks;
}

function splitArguments(args: string): string[] {
  const pieces: string[] = [];
  let i = 0;
  let k = 0;
  while (i < args.length) {
    const n = ARG_PIECES[k++ % ARG_PIECES.length] as number;
    pieces.push(args.slice(i, i + n));
    i += n;
  }
  return pieces;
}

/** A reasoning model's thinking for this answer (reasoning.ts). */
export interface ReplyReasoning {
  form: ReasoningForm;
  text: string;
}

export function buildStreamEvents(meta: CompletionMeta, reply: Reply, usage: WireUsage | undefined, reasoning?: ReplyReasoning): SseEvent[] {
  const chunk = (delta: object, finishReason: string | null = null): string =>
    'data: ' +
    JSON.stringify({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      system_fingerprint: 'fp_modelgate_sim',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(usage ? { usage: null } : {}),
    });

  const contentDeltas: object[] = [];
  /** the text of each delta, for the tokens a stream cut short had delivered */
  const pieces: string[] = [];
  const tags = reasoning?.form === 'tags';
  if (reasoning && !tags)
    for (const piece of splitIntoChunks(reasoning.text)) {
      contentDeltas.push(reasoningDelta(reasoning.form, piece));
      pieces[contentDeltas.length - 1] = piece;
    }
  // DeepSeek sends `reasoning_content: null` beside content once the answer starts
  const after = reasoning?.form === 'content' || reasoning?.form === 'passback' ? { reasoning_content: null } : {};
  if (reply.kind === 'text') {
    const text = tags ? thinkBlock(reasoning.text) + reply.text : reply.text;
    const textPieces = tags
      ? splitRandomly(text, text.length)
      : reply.chunkSeed === undefined
        ? splitIntoChunks(text)
        : splitRandomly(text, reply.chunkSeed, reply.chunkMax);
    for (const piece of textPieces) {
      contentDeltas.push({ content: piece, ...after });
      pieces[contentDeltas.length - 1] = piece;
    }
  } else {
    if (tags) for (const piece of splitRandomly(thinkBlock(reasoning.text), reasoning.text.length)) contentDeltas.push({ content: piece });
    // Headers of every call first (id and name arrive once), then argument fragments
    // interleaved by index, as parallel calls can arrive.
    reply.calls.forEach((c, index) => contentDeltas.push({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    const fragments = reply.calls.map((c) => splitArguments(c.arguments));
    for (let round = 0; fragments.some((f) => round < f.length); round++) {
      fragments.forEach((f, index) => {
        const piece = f[round];
        if (piece === undefined) return;
        contentDeltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
        pieces[contentDeltas.length - 1] = piece;
      });
    }
  }

  const events: SseEvent[] = [{ text: chunk({ role: 'assistant' }), content: false }];
  contentDeltas.forEach((delta, i) => {
    events.push({ text: chunk(delta), content: true, ...(pieces[i] !== undefined ? { piece: pieces[i] } : {}) });
    if (i === 1 || i % 16 === 9) events.push({ text: chunk({}), content: false }); // a chunk without delta.content
    if (i % 8 === 3) events.push({ text: ': keep-alive', content: false });
  });
  events.push({ text: chunk({}, reply.finishReason), content: false, finish: true });
  if (usage) {
    events.push({
      text:
        'data: ' +
        JSON.stringify({
          id: meta.id,
          object: 'chat.completion.chunk',
          created: meta.created,
          model: meta.model,
          system_fingerprint: 'fp_modelgate_sim',
          choices: [],
          usage,
        }),
      content: false,
    });
  }
  events.push({ text: 'data: [DONE]', content: false });
  return events;
}

export function buildCompletion(meta: CompletionMeta, reply: Reply, usage: WireUsage, reasoning?: ReplyReasoning): object {
  const think = reasoning?.form === 'tags' ? thinkBlock(reasoning.text) : '';
  const fields = reasoning ? reasoningMessageFields(reasoning.form, reasoning.text) : {};
  const message =
    reply.kind === 'text'
      ? { role: 'assistant', content: think + reply.text, refusal: null, ...fields }
      : {
          role: 'assistant',
          content: think || null,
          refusal: null,
          ...fields,
          tool_calls: reply.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_modelgate_sim',
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason }],
    usage,
  };
}
