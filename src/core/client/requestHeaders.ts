// Custom request headers: `modelgate.requestHeaders` and the secret headers
// of "Modelgate: Set Secret Header…". Names the client sets itself, or that decide where and as
// whom a request goes, are refused (as VS Code's own custom endpoints filter them).
import { l10n } from '../l10n';

const RESERVED_EXACT = ['authorization', 'content-type', 'content-length', 'host', 'cookie'];
const RESERVED_PREFIXES = ['proxy-', 'sec-'];
/** RFC 9110 token characters */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Why a header name cannot be used, or undefined when it can. */
export function headerNameProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (!name || !TOKEN.test(name)) return l10n.t('"{0}" is not a valid header name.', name.slice(0, 60));
  if (RESERVED_EXACT.includes(lower) || RESERVED_PREFIXES.some((p) => lower.startsWith(p))) {
    return l10n.t('"{0}" is reserved and cannot be set (Authorization, Content-Type, Content-Length, Host, Cookie, Proxy-*, Sec-*).', name);
  }
  return undefined;
}

/** Why a header value cannot be sent (never quotes the value: it may be secret). */
export function headerValueProblem(name: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return l10n.t('The value of header "{0}" must be a string.', name);
  if (value.length > 8192) return l10n.t('The value of header "{0}" is longer than 8192 characters.', name);
  if (!/^[\t\x20-\x7e]*$/.test(value)) return l10n.t('The value of header "{0}" contains characters that cannot go into an HTTP header.', name);
  return undefined;
}

/** `modelgate.requestHeaders`: the usable headers, and one problem per refused entry. */
export function parseRequestHeaders(raw: unknown): { headers: Record<string, string>; problems: string[] } {
  const headers: Record<string, string> = {};
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { headers, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { headers, problems: [l10n.t('"modelgate.requestHeaders" must be an object of header names to values; it is ignored.')] };
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const problem = headerNameProblem(name) ?? headerValueProblem(name, value);
    if (problem) problems.push(l10n.t('"modelgate.requestHeaders": {0} The header is not sent.', problem));
    else headers[name] = (value as string).trim();
  }
  return { headers, problems };
}

/** Settings headers plus secret ones (a secret wins over a setting of the same name, any case). */
export function mergeHeaders(plain: Record<string, string>, secret: Record<string, string>): { headers: Record<string, string>; secrets: string[] } {
  const secretNames = new Set(Object.keys(secret).map((n) => n.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const [n, v] of Object.entries(plain)) if (!secretNames.has(n.toLowerCase())) headers[n] = v;
  const secrets: string[] = [];
  for (const [n, v] of Object.entries(secret)) {
    if (headerNameProblem(n) || headerValueProblem(n, v) || !v) continue;
    headers[n] = v;
    secrets.push(v);
  }
  return { headers, secrets };
}
