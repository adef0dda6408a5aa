// Images the user attaches to a message (file picker or paste). Checked by their bytes, not by
// their name or the MIME type the webview claims, and capped in size before they are turned
// into the data: URL that goes into the request. Pure.
import { fromBase64, toBase64 } from '../../platform/bytes';
import { l10n } from '../l10n';

/** Larger images are refused: they would be slow to send and most services cap them (~20 MB). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Thumbnails in the panel are the image itself; above this size no thumbnail is shown. */
export const MAX_THUMBNAIL_BYTES = 512 * 1024;

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

export function sniffImage(bytes: Uint8Array): ImageMime | undefined {
  const starts = (sig: number[], at = 0) => bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  return undefined;
}

export interface PreparedImage {
  mime: ImageMime;
  dataUrl: string;
  /** the data URL again when small enough to show, else undefined */
  thumbnail?: string;
  bytes: number;
}

/** Checks and encodes an image; a message for the user when it cannot be used. */
export function prepareImage(bytes: Uint8Array): PreparedImage | { problem: string } {
  if (bytes.byteLength === 0) return { problem: l10n.t('The image is empty.') };
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    return { problem: l10n.t('The image is {0} MB; images up to {1} MB can be attached.', (bytes.byteLength / 1048576).toFixed(1), MAX_IMAGE_BYTES / 1048576) };
  }
  const mime = sniffImage(bytes);
  if (!mime) return { problem: l10n.t('That file is not a PNG, JPEG, WebP or GIF image.') };
  const dataUrl = `data:${mime};base64,${toBase64(bytes)}`;
  return { mime, dataUrl, thumbnail: bytes.byteLength <= MAX_THUMBNAIL_BYTES ? dataUrl : undefined, bytes: bytes.byteLength };
}

/** Decodes the base64 of a pasted image (already shape-checked by the protocol schema). */
export function decodePastedImage(base64: string): Uint8Array {
  return fromBase64(base64);
}
