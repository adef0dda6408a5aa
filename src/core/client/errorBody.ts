// Turns whatever a failed request sent back (JSON of several shapes, plain text, a proxy's
// HTML page, nothing) into a short text a person can read. HTML is never passed on raw:
// a CDN's 502 page dumped into a chat panel helps nobody.
import { wire } from './wire';

export const MAX_SERVER_MESSAGE_CHARS = 300;
const MAX_HTML_SUMMARY_CHARS = 200;

export interface ErrorDetails {
  /** The server's own words, cleaned up and truncated; undefined when it said nothing. */
  message?: string;
  code?: string;
  type?: string;
  param?: string;
  /** Numeric status carried inside the body (some gateways put it there in streams). */
  status?: number;
  /** Set when the body was an HTML page: its title or a stripped excerpt. */
  htmlSummary?: string;
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function clean(text: string, max = MAX_SERVER_MESSAGE_CHARS): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), max);
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  // FastAPI-style `detail: [{msg}]` and nested `message: {message}` both occur in the wild.
  if (Array.isArray(value)) {
    const parts = value.map((v) =>
      typeof v === 'string' ? v : messageOf((v as { msg?: unknown; message?: unknown })?.msg ?? (v as { message?: unknown })?.message),
    );
    const joined = parts.filter(Boolean).join('; ');
    return joined || undefined;
  }
  if (value && typeof value === 'object') return messageOf((value as { message?: unknown }).message);
  return undefined;
}

/** Details from a parsed JSON error object (`{message,type,code,param}`). */
export function detailsFromErrorObject(value: unknown): ErrorDetails {
  const parsed = wire().errorObjectSchema.safeParse(value);
  if (!parsed.success) return {};
  const { message, type, code, param, status } = parsed.data;
  const text = messageOf(message);
  const numericStatus = typeof status === 'number' ? status : typeof code === 'number' ? code : Number(asText(code));
  return {
    message: text ? clean(text) : undefined,
    type: asText(type),
    code: asText(code),
    param: asText(param),
    status: Number.isInteger(numericStatus) && numericStatus >= 400 && numericStatus < 600 ? numericStatus : undefined,
  };
}

/** Details from a JSON value that is an error envelope, or undefined if it is not one. */
export function detailsFromJson(value: unknown): ErrorDetails | undefined {
  const envelope = wire().errorEnvelopeSchema.safeParse(value);
  if (envelope.success) {
    const inner = envelope.data.error;
    if (typeof inner === 'string') return { message: clean(inner) };
    const details = detailsFromErrorObject(inner);
    // `{error: {...}, message: "..."}` puts the words at the top level on some gateways.
    if (!details.message) {
      const top = messageOf((value as { message?: unknown }).message);
      if (top) details.message = clean(top);
    }
    return details;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const text = messageOf(record.message) ?? messageOf(record.detail) ?? messageOf(record.error_message);
    if (text) return { ...detailsFromErrorObject({ ...record, message: text }) };
    // The Portkey AI Gateway wraps an upstream body that is not JSON (a proxy's HTML page, an
    // empty body, its own fetch failure) in `{"html-message": "<the text>"}`: unwrap it.
    const wrapped = record['html-message'];
    if (typeof wrapped === 'string') return detailsFromText(wrapped, null);
  }
  return undefined;
}

export function looksLikeHtml(body: string, contentType: string | null): boolean {
  if (contentType && /\bhtml\b/i.test(contentType)) return true;
  return /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body) || /<\/(html|body|title)>/i.test(body);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower in ENTITIES) return ENTITIES[lower]!;
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : lower.startsWith('#') ? parseInt(lower.slice(1), 10) : NaN;
    return Number.isFinite(code) && code > 31 && code < 0x110000 ? String.fromCodePoint(code) : whole;
  });
}

/** An HTML page is summarised from this many characters at most (its title is near the top). */
export const MAX_HTML_CHARS = 64 * 1024;

const lowerAscii = (s: string) => s.replace(/[A-Z]+/g, (c) => c.toLowerCase());

/**
 * The page's <title>, else its visible text, as one short line. One pass over at most
 * MAX_HTML_CHARS, whatever the page holds: the patterns this replaces (`<[^>]*>`,
 * `<(script|style|head)[^>]*>[\s\S]*?<\/\1>`) ran from every `<` to the end of a page without
 * `>`, and 512 KB of `<a` froze the extension host for over a minute. Same result on
 * pages those patterns handled.
 */
export function summarizeHtml(html: string): string {
  const page = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  const lower = lowerAscii(page); // same length and indices as `page`
  const title = titleOf(page, lower);
  const source = title && title.trim() ? title : withoutBlocks(page, lower);
  return clean(decodeEntities(withoutTags(source)), MAX_HTML_SUMMARY_CHARS);
}

/** What `/<title[^>]*>([\s\S]*?)<\/title>/i` captures: the first <title> that is closed. */
function titleOf(page: string, lower: string): string | undefined {
  const start = lower.indexOf('<title');
  if (start < 0) return undefined;
  const open = lower.indexOf('>', start);
  if (open < 0) return undefined; // no later <title> has a `>` either
  const close = lower.indexOf('</title>', open + 1);
  return close < 0 ? undefined : page.slice(open + 1, close);
}

const BLOCKS = /<(script|style|head)/g;

/** The page without script, style and head elements (each as one space), as the pattern above did. */
function withoutBlocks(page: string, lower: string): string {
  let out = '';
  let copied = 0;
  let gt = -1; // the next `>` after the last search start
  const closes = new Map<string, number>(); // per element: the next closing tag (-1: none left)
  BLOCKS.lastIndex = 0;
  for (let m = BLOCKS.exec(lower); m; m = BLOCKS.exec(lower)) {
    const name = m[1]!;
    const from = m.index + name.length + 1;
    if (gt < from) gt = lower.indexOf('>', from);
    if (gt < 0) break; // no `>` from here on: nothing later can match
    let close = closes.get(name);
    if (close === -1) continue;
    if (close === undefined || close < gt + 1) closes.set(name, (close = lower.indexOf(`</${name}>`, gt + 1)));
    if (close < 0) continue;
    out += `${page.slice(copied, m.index)} `;
    copied = close + name.length + 3;
    BLOCKS.lastIndex = copied;
  }
  return out + page.slice(copied);
}

/** Tags as spaces, and an unclosed tag at the end cut off (`<[^>]*>` then `<[^>]*$`). */
function withoutTags(text: string): string {
  let out = '';
  let copied = 0;
  for (let lt = text.indexOf('<'); lt >= 0; lt = text.indexOf('<', copied)) {
    const gt = text.indexOf('>', lt + 1);
    out += `${text.slice(copied, lt)} `;
    if (gt < 0) return out;
    copied = gt + 1;
  }
  return out + text.slice(copied);
}

/** Details from a body that is not JSON: nothing, an HTML page (summarized) or plain text. */
function detailsFromText(body: string, contentType: string | null): ErrorDetails {
  const trimmed = body.trim();
  if (!trimmed) return {};
  if (looksLikeHtml(trimmed, contentType)) return { htmlSummary: summarizeHtml(trimmed) };
  return { message: clean(trimmed) };
}

/** Details from the raw text of an HTTP error body. */
export function parseErrorBody(body: string, contentType: string | null): ErrorDetails {
  const trimmed = body.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      const details = detailsFromJson(JSON.parse(trimmed));
      if (details) return details;
    } catch {
      // not JSON after all: fall through to the text forms
    }
  }
  return detailsFromText(trimmed, contentType);
}
