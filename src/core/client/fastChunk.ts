// The hot path of stream decoding: the text of `choices[0].delta.content` without JSON.parse of
// the whole chunk. A profile of 20k small OpenAI chunks had JSON.parse at 41 % of the client's
// CPU: each ~200-byte chunk repeats the same id, object, created, model, system_fingerprint,
// logprobs and finish_reason, and only the content string changes.
//
// How it stays exact (the same events and errors as JSON.parse + validation):
// - A template is learnt from a chunk that went the full way (JSON.parse, shape check) and
//   carries only text (one choice, string content, no finish, no tool calls, no usage, no
//   error, no reasoning field). Its content string token is located in the raw text and replaced by two different
//   sentinels; both probes are parsed, and the template is kept only if each sentinel comes
//   back as `choices[0].delta.content`. So the token is that field and nothing else.
// - A later chunk that is byte-for-byte the template's text before and after that token, with
//   a valid JSON string in between, parses to the template object with another content: its
//   only event is that text. Anything else (another shape, a different `created`, a
//   finish_reason, tool calls, usage, whitespace, an invalid string) takes the full path.
// - A second template is learnt the same way from a chunk that carries only reasoning
//   (`reasoning_content`, or `reasoning` without it; no content text, tool calls, details,
//   finish or usage): a thinking model's deltas then cost what content deltas cost.
// - A large chunk (an 8 MB base64 answer in one event) is parsed as a probe with its content
//   replaced by a sentinel (the same two-probe check), so the big string is scanned once with
//   native indexOf instead of going through JSON.parse; the rest of the chunk still goes
//   through the normal validation.
// JSON string bodies are unescaped here exactly as JSON.parse does (\" \\ \/ \b \f \n \r \t
// \uXXXX, surrogates as their code units); raw characters below U+0020 are refused unless the
// SSE decoder says the event has none (`plain`).

const QUOTE = 34;
const BACKSLASH = 92;

const SENTINEL_A = '\u0001a';
const SENTINEL_B = '\u0002b';
const SENTINEL_A_JSON = '\\u0001a';
const SENTINEL_B_JSON = '\\u0002b';

/** Chunks shorter than this may teach a template; longer ones are too costly to probe twice for nothing. */
const MAX_TEMPLATE_CHUNK = 4096;
/** Chunks at least this long whose content is most of them take the probe path. */
export const LARGE_CHUNK = 32 * 1024;
/** Tries to learn a template per stream (a server whose chunks never repeat stops paying for it). */
const MAX_LEARN = 8;

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function hasControl(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) < 32) return true;
  return false;
}

/**
 * The value of the JSON string body `text[from, to)` (without its quotes), or undefined when
 * that span is not exactly one valid JSON string body. `plain`: the caller knows `text` has no
 * character below U+0020 (so the per-character check can be skipped).
 */
export function jsonStringBody(text: string, from: number, to: number, plain: boolean): string | undefined {
  let quote = text.indexOf('"', from);
  if (quote === -1) quote = text.length;
  let backslash = text.indexOf('\\', from);
  if (backslash === -1 || backslash > to) backslash = to;
  if (quote < backslash) return undefined;
  if (!plain && hasControl(text, from, backslash)) return undefined;
  if (backslash === to) return from === 0 && to === text.length ? text : text.slice(from, to);
  const parts: string[] = [];
  let pos = from;
  for (;;) {
    if (pos < backslash) parts.push(text.slice(pos, backslash));
    if (backslash === to) break;
    if (backslash + 1 >= to) return undefined;
    const e = text.charCodeAt(backslash + 1);
    let next = backslash + 2;
    switch (e) {
      case QUOTE:
        parts.push('"');
        break;
      case BACKSLASH:
        parts.push('\\');
        break;
      case 47:
        parts.push('/');
        break;
      case 98:
        parts.push('\b');
        break;
      case 102:
        parts.push('\f');
        break;
      case 110:
        parts.push('\n');
        break;
      case 114:
        parts.push('\r');
        break;
      case 116:
        parts.push('\t');
        break;
      case 117: {
        if (backslash + 6 > to) return undefined;
        const h1 = hexValue(text.charCodeAt(backslash + 2));
        const h2 = hexValue(text.charCodeAt(backslash + 3));
        const h3 = hexValue(text.charCodeAt(backslash + 4));
        const h4 = hexValue(text.charCodeAt(backslash + 5));
        if ((h1 | h2 | h3 | h4) < 0) return undefined;
        parts.push(String.fromCharCode((h1 << 12) | (h2 << 8) | (h3 << 4) | h4));
        next = backslash + 6;
        break;
      }
      default:
        return undefined;
    }
    pos = next;
    // The next escape, and no raw quote or control character before it.
    if (quote < pos) {
      quote = text.indexOf('"', pos);
      if (quote === -1) quote = text.length;
    }
    backslash = text.indexOf('\\', pos);
    if (backslash === -1 || backslash > to) backslash = to;
    if (quote < backslash) return undefined;
    if (!plain && hasControl(text, pos, backslash)) return undefined;
  }
  return parts.length === 1 ? parts[0]! : parts.join('');
}

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Index of the opening quote of the first string value of a key ending in `content`, or -1. */
export function findContentValue(data: string): number {
  for (let k = data.indexOf('"content"'); k !== -1; k = data.indexOf('"content"', k + 1)) {
    let i = k + 9;
    while (isWs(data.charCodeAt(i))) i++;
    if (data.charCodeAt(i) !== 58) continue; // a string value "content", not a key
    i++;
    while (isWs(data.charCodeAt(i))) i++;
    return data.charCodeAt(i) === QUOTE ? i : -1;
  }
  return -1;
}

/** Index of the quote that closes the string opened at `open`, or -1. */
export function stringEnd(data: string, open: number): number {
  for (let q = data.indexOf('"', open + 1); q !== -1; q = data.indexOf('"', q + 1)) {
    let slashes = 0;
    for (let i = q - 1; i > open && data.charCodeAt(i) === BACKSLASH; i--) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one choice's delta of a parsed chunk, when the chunk has exactly one choice. */
function onlyDelta(json: unknown): Rec | undefined {
  if (!isRecord(json)) return undefined;
  const choices = json.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return undefined;
  const choice: unknown = choices[0];
  if (!isRecord(choice)) return undefined;
  const delta = choice.delta;
  return isRecord(delta) ? delta : undefined;
}

function probe(prefix: string, sentinel: string, suffix: string): unknown {
  try {
    return JSON.parse(prefix + sentinel + suffix);
  } catch {
    return undefined;
  }
}

/** Both sentinels land in `choices[0].delta[field]`: the token between prefix and suffix is that field. */
function verified(prefix: string, suffix: string, field: 'content' | ReasoningTemplateField = 'content'): unknown {
  const a = probe(prefix, SENTINEL_A_JSON, suffix);
  if (onlyDelta(a)?.[field] !== SENTINEL_A) return undefined;
  if (onlyDelta(probe(prefix, SENTINEL_B_JSON, suffix))?.[field] !== SENTINEL_B) return undefined;
  return a;
}

/** The reasoning fields a template can carry (DeepSeek's and Kimi's `reasoning_content`, vLLM's and Ollama's `reasoning`). */
export type ReasoningTemplateField = 'reasoning_content' | 'reasoning';

/** Index of the opening quote of the string value of the first `"<key>":` in `data`, or -1. */
function findKeyValue(data: string, key: string): number {
  const quoted = `"${key}"`;
  for (let k = data.indexOf(quoted); k !== -1; k = data.indexOf(quoted, k + 1)) {
    let i = k + quoted.length;
    while (isWs(data.charCodeAt(i))) i++;
    if (data.charCodeAt(i) !== 58) continue;
    i++;
    while (isWs(data.charCodeAt(i))) i++;
    return data.charCodeAt(i) === QUOTE ? i : -1;
  }
  return -1;
}

/** Per stream: the learnt template and the large-chunk probe. */
export class FastChunks {
  private prefix = '';
  private suffix = '';
  private learnt = false;
  private tries = 0;

  /** The reasoning template: a chunk that carries only reasoning in `field` (its only event is that reasoning). */
  private reasoningTemplate: { field: ReasoningTemplateField; prefix: string; suffix: string } | undefined;

  /** The reasoning of a chunk that matches the reasoning template, or undefined. */
  reasoning(data: string, plain: boolean): { text: string; field: ReasoningTemplateField } | undefined {
    const t = this.reasoningTemplate;
    if (!t) return undefined;
    const end = data.length - t.suffix.length;
    if (end < t.prefix.length || data.slice(end) !== t.suffix || data.slice(0, t.prefix.length) !== t.prefix) return undefined;
    const text = jsonStringBody(data, t.prefix.length, end, plain);
    return text === undefined ? undefined : { text, field: t.field };
  }

  /** The content of a chunk that matches the template (its only event), or undefined. */
  content(data: string, plain: boolean): string | undefined {
    if (!this.learnt) return undefined;
    const prefix = this.prefix;
    const suffix = this.suffix;
    const end = data.length - suffix.length;
    // slice + === rather than startsWith/endsWith: V8 compares equal strings with a block
    // compare, while startsWith walks the characters one by one (10x slower on 170 characters).
    if (end < prefix.length || data.slice(end) !== suffix || data.slice(0, prefix.length) !== prefix) return undefined;
    return jsonStringBody(data, prefix.length, end, plain);
  }

  /**
   * A large chunk parsed without its content string (then put back): what JSON.parse(data)
   * would give, or undefined when this path does not apply (the caller parses in full).
   */
  large(data: string, plain: boolean): unknown {
    if (data.length < LARGE_CHUNK) return undefined;
    const open = findContentValue(data);
    if (open === -1) return undefined;
    const close = stringEnd(data, open);
    if (close === -1 || (close - open) * 2 < data.length) return undefined;
    const content = jsonStringBody(data, open + 1, close, plain);
    if (content === undefined) return undefined;
    const json = verified(data.slice(0, open + 1), data.slice(close));
    if (json === undefined) return undefined;
    onlyDelta(json)!.content = content;
    return json;
  }

  /**
   * After a chunk went the full way and passed the shape check: learn the template from it
   * if it carries only text.
   */
  learn(data: string, json: unknown): void {
    if (this.tries >= MAX_LEARN || data.length > MAX_TEMPLATE_CHUNK) return;
    const delta = onlyDelta(json);
    if (!delta || delta.tool_calls != null) return;
    const record = json as Rec;
    const choice = (record.choices as Rec[])[0]!;
    if (choice.finish_reason != null || choice.usage != null || record.usage != null || record.error != null) return;
    if (typeof delta.content !== 'string' || delta.content === '') {
      this.learnReasoning(data, delta);
      return;
    }
    // A chunk with reasoning beside its content is not a template: a later chunk with the same
    // bytes around the content would carry that reasoning too, and the fast path reads content only.
    if (delta.reasoning_content != null || delta.reasoning != null || delta.reasoning_details != null) return;
    this.tries++;
    const open = findContentValue(data);
    if (open === -1) return;
    const close = stringEnd(data, open);
    if (close === -1) return;
    const prefix = data.slice(0, open + 1);
    const suffix = data.slice(close);
    if (verified(prefix, suffix) === undefined) return;
    this.prefix = prefix;
    this.suffix = suffix;
    this.learnt = true;
  }

  /**
   * A chunk that carries only reasoning (no content text, no tool calls, no finish, no usage):
   * the same two-probe check on its reasoning string, which must be the field the assembler
   * reads (reasoning_content when it is a string; `reasoning` only without reasoning_content).
   */
  private learnReasoning(data: string, delta: Rec): void {
    if (delta.reasoning_details != null) return;
    const field: ReasoningTemplateField | undefined =
      typeof delta.reasoning_content === 'string'
        ? 'reasoning_content'
        : delta.reasoning_content == null && typeof delta.reasoning === 'string'
          ? 'reasoning'
          : undefined;
    if (!field) return;
    this.tries++;
    const open = findKeyValue(data, field);
    if (open === -1) return;
    const close = stringEnd(data, open);
    if (close === -1) return;
    const prefix = data.slice(0, open + 1);
    const suffix = data.slice(close);
    const a = onlyDelta(verified(prefix, suffix, field));
    // the probe must read as reasoning alone: no content text beside it, no other reasoning field
    if (!a || (typeof a.content === 'string' && a.content !== '') || a.tool_calls != null || a.reasoning_details != null) return;
    if (field === 'reasoning' && a.reasoning_content != null) return;
    this.reasoningTemplate = { field, prefix, suffix };
  }
}
