// Turns whatever a failed request sent back (JSON of several shapes, plain text, a proxy's
// HTML page, nothing) into a short text a person can read. HTML is never passed on raw:
// a CDN's 502 page dumped into a chat panel helps nobody (see field notes).
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

/** The page's <title>, else its visible text, as one short line. */
export function summarizeHtml(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const source = title && title.trim() ? title : html.replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  const text = decodeEntities(source.replace(/<[^>]*>/g, ' ').replace(/<[^>]*$/, ' '));
  return clean(text, MAX_HTML_SUMMARY_CHARS);
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
