// Generated images -> bytes. Base64 is decoded strictly; a URL is downloaded WITHOUT the API
// key (the key goes only to the base URL, never to an image host, whatever its origin: see
// the credential-redirection notes), only over http(s), with a size cap, and the result must
// really be a PNG, JPEG or WebP image before anyone writes it to disk.
import { fromBase64 } from '../../platform/bytes';
import { GatewayError, protocolError } from './gatewayError';
import { bodyChunks, type Attempt } from './transport';
import { l10n } from '../l10n';

export const DEFAULT_MAX_IMAGE_BYTES = 25 * 1024 * 1024;

function sizeLabel(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export function tooLargeError(maxBytes: number): GatewayError {
  return new GatewayError('protocol', l10n.t('The image is larger than the {0} limit, so it was not downloaded.', sizeLabel(maxBytes)), { retryable: false });
}

export function imageExpiredError(status: number): GatewayError {
  return new GatewayError('not_found', l10n.t('The image URL expired before it could be downloaded; generate again ({0}).', status), {
    status,
    retryable: false,
  });
}

/** 'png' | 'jpeg' | 'webp' from the first bytes, or undefined. */
export function imageFormatOf(bytes: Uint8Array): 'png' | 'jpeg' | 'webp' | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return undefined;
}

export function assertImageBytes(bytes: Uint8Array, contentType?: string | null): Uint8Array {
  if (imageFormatOf(bytes)) return bytes;
  const head = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const type = contentType ? contentType.split(';')[0]!.trim() : undefined;
  throw new GatewayError(
    'protocol',
    bytes.byteLength === 0
      ? l10n.t('The image is empty (0 bytes).')
      : type
        ? l10n.t('The downloaded data is not a PNG, JPEG or WebP image (starts with {0}, content type {1}).', head, type)
        : l10n.t('The downloaded data is not a PNG, JPEG or WebP image (starts with {0}).', head),
    { retryable: false },
  );
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (line breaks allowed, nothing else), size-capped, and checked to be an image. */
export function decodeBase64Image(b64: string, maxBytes = DEFAULT_MAX_IMAGE_BYTES): Uint8Array {
  const compact = b64.replace(/[\r\n]+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) {
    throw protocolError('b64_json is not valid base64');
  }
  if ((compact.length / 4) * 3 > maxBytes + 2) throw tooLargeError(maxBytes);
  return assertImageBytes(fromBase64(compact));
}

/** Only http(s): a generated "URL" of data:, file: or javascript: is never fetched. */
export function parseImageUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw protocolError('the image URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw protocolError(`the image URL uses ${url.protocol.replace(/:$/, '')}:, only http and https are downloaded`);
  }
  return url;
}

/** Reads an image body, refusing early (Content-Length) or mid-way (counting) past `maxBytes`. */
export async function readImageBody(response: Response, attempt: Attempt, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body?.cancel().catch(() => undefined);
    throw tooLargeError(maxBytes);
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of bodyChunks(response, attempt)) {
    total += chunk.byteLength;
    if (total > maxBytes) throw tooLargeError(maxBytes); // leaving the loop cancels the body
    parts.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return assertImageBytes(bytes, response.headers.get('content-type'));
}

/** A failed image download: a vanished URL is "expired", the rest follows the usual kinds. */
export function imageDownloadError(status: number, statusText: string, retryAfterMs?: number): GatewayError {
  // Signed image URLs answer 401/403 as well as 404/410 once they have expired.
  if (status === 401 || status === 403 || status === 404 || status === 410) return imageExpiredError(status);
  const label = `${status}${statusText ? ` ${statusText}` : ''}`;
  const kind = status === 429 ? 'rate_limit' : status === 408 ? 'timeout' : status >= 500 || status === 409 ? 'server' : 'bad_request';
  return new GatewayError(kind, l10n.t('Downloading the image failed ({0}). Try again, or generate the image again.', label), { status, retryAfterMs });
}
