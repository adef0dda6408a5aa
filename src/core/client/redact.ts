// The API key must never reach a message, a log line or a stack trace, not even when a server
// or proxy echoes the Authorization header back in its error body (openai-python#1196 leaked
// keys through logged headers). Every text that leaves the client passes through here.
//
// Not only the exact key: a proxy may echo it cut off (a length limit), URL-encoded, base64'd
// (a Basic header), in another case, as hex, as `\u` or `\x` escapes, or JSON-escaped (`\/`).
// Every piece of MIN_PIECE or more characters of the key, in any of those forms, is replaced:
// a piece of MIN_PIECE characters of the form for the forms of about one character per key
// character, and the encoding of MIN_PIECE key characters for the longer ones (hex: 2 per byte,
// `\x`: 4, `\u`: 6), so that ordinary hex or escaped text is not mistaken for the key.
// Callers redact before they cut text to a length.
// A piece that is a plain word of the surrounding text is not the key: a key with a word in it
// (the demo key `sk-modelgate-demo`) must not turn "Modelgate: Set API Key" into "[redacted]: Set
// API Key". A match made of letters only that is a whole word, written as words are (lower case,
// capitalised or upper case) and shorter than WORD_MAX, stays; a longer one, or one that runs into a
// digit, a symbol or more letters of the key, is redacted.

const REDACTED = '[redacted]';
/** the shortest piece of the key that is redacted on its own */
export const MIN_PIECE = 8;

const lowerAscii = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function percentAll(s: string): string {
  return [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** base64 of whole 3-byte groups (no padding needed); platform-neutral (no Buffer, no btoa) */
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  return out;
}

/**
 * The forms the key can be echoed in. For base64, the key can sit at any of three byte
 * alignments inside a longer encoded text (`Basic base64(user:key)`): each alignment's encoding
 * of the whole 3-byte groups is a form (its pieces are what such a text contains).
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret, encodeURIComponent(secret), percentAll(secret)]);
  forms.add(secret.replace(/[^A-Za-z0-9]/g, (c) => percentAll(c)));
  const bytes = new TextEncoder().encode(secret);
  for (let offset = 0; offset < 3; offset++) {
    const whole = bytes.subarray(offset, offset + Math.floor((bytes.length - offset) / 3) * 3);
    if (whole.length === 0) continue;
    const b64 = base64(whole);
    forms.add(b64);
    forms.add(b64.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  // JSON escapes: `\/` (PHP, some proxies), `\"` and `\\`; non-alphanumerics as `\u00XX` (Go escapes <>&+=)
  forms.add(secret.replace(/[\\"/]/g, (c) => `\\${c}`));
  forms.add(secret.replace(/[^A-Za-z0-9]/g, (c) => unicodeEscape(c)));
  return [...forms];
}

function unicodeEscape(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** Long forms: every character or byte encoded, with how many characters encode one key character. */
function longForms(secret: string): { form: string; width: number }[] {
  const bytes = [...new TextEncoder().encode(secret)];
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0'));
  return [
    { form: hex.join(''), width: 2 },
    { form: hex.map((h) => `\\x${h}`).join(''), width: 4 },
    { form: unicodeEscape(secret), width: 6 },
  ];
}

/** Letters-only matches from this length on are redacted even when they look like a word. */
const WORD_MAX = 16;
const isLetter = (c: string | undefined) => c !== undefined && /\p{L}/u.test(c);
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Whether text[start, end) is a word of the text rather than a piece of the key. */
function isPlainWord(text: string, start: number, end: number): boolean {
  if (end - start >= WORD_MAX) return false;
  if (isWordChar(text[start - 1]) || isWordChar(text[end])) return false;
  const span = text.slice(start, end);
  if (![...span].every((c) => isLetter(c))) return false;
  return span === span.toLowerCase() || span === span.toUpperCase() || span === span[0]!.toUpperCase() + span.slice(1).toLowerCase();
}

interface WindowSet {
  size: number;
  windows: Set<string>;
}

const windowsCache = new Map<string, WindowSet[]>();

function windowsOf(secret: string): WindowSet[] {
  const cached = windowsCache.get(secret);
  if (cached) return cached;
  const add = (sets: Map<number, Set<string>>, form: string, size: number) => {
    const f = lowerAscii(form);
    const n = Math.min(size, f.length);
    let set = sets.get(n);
    if (!set) sets.set(n, (set = new Set()));
    for (let i = 0; i + n <= f.length; i++) set.add(f.slice(i, i + n));
  };
  const sets = new Map<number, Set<string>>();
  for (const form of secretForms(secret)) add(sets, form, Math.min(MIN_PIECE, secret.length));
  for (const { form, width } of longForms(secret)) add(sets, form, width * Math.min(MIN_PIECE, secret.length));
  const entry = [...sets].map(([size, windows]) => ({ size, windows }));
  if (windowsCache.size >= 8) windowsCache.clear(); // the key and a few secret header values; never keep many old ones around
  windowsCache.set(secret, entry);
  return entry;
}

/**
 * Replaces every piece of `MIN_PIECE`+ characters of the key (plain, URL-encoded, base64, any
 * ASCII case) in `text`; overlapping and adjacent pieces become one `[redacted]`.
 */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || !text) return text;
  const lower = lowerAscii(text);
  // where each window set hits, as [start, end) spans in text order
  const spans: [number, number][] = [];
  for (const { size, windows } of windowsOf(secret)) {
    for (let i = 0; i + size <= lower.length; i++) if (windows.has(lower.slice(i, i + size))) spans.push([i, i + size]);
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let copied = 0;
  const emit = (start: number, end: number) => {
    if (isPlainWord(text, start, end)) return;
    out += text.slice(copied, start) + REDACTED;
    copied = end;
  };
  let [coverStart, coverEnd] = spans[0]!;
  for (const [start, end] of spans) {
    if (start <= coverEnd) coverEnd = Math.max(coverEnd, end);
    else {
      emit(coverStart, coverEnd);
      coverStart = start;
      coverEnd = end;
    }
  }
  emit(coverStart, coverEnd);
  return out + text.slice(copied);
}

/** Whether `text` holds a piece of the key in any form (tests and self-checks). */
export function containsSecret(text: string, secret: string): boolean {
  return redactSecret(text, secret) !== text;
}

/** Redacts the secret from every text field of an error in place, stack included. */
export function redactErrorInPlace<E extends Error>(error: E, secret: string | undefined): E {
  if (!secret) return error;
  error.message = redactSecret(error.message, secret);
  if (typeof error.stack === 'string') error.stack = redactSecret(error.stack, secret);
  const record = error as unknown as Record<string, unknown>;
  for (const field of ['serverMessage', 'code', 'param', 'type'] as const) {
    const value = record[field];
    if (typeof value === 'string') record[field] = redactSecret(value, secret);
  }
  return error;
}

/** Secret request headers are redacted like the key: every secret, every form. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) out = redactSecret(out, secret);
  return out;
}

export function redactErrorSecretsInPlace<E extends Error>(error: E, secrets: readonly (string | undefined)[]): E {
  for (const secret of secrets) redactErrorInPlace(error, secret);
  return error;
}
