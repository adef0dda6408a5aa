// Text handling for tool results: binary sniffing, decoding, line ranges with caps, previews.
// Unit-tested in plain Node.
import { utf8ByteLength, utf8Encode } from '../platform/bytes';
import { LIMITS } from './limits';

/** Extensions that are binary even when the first 8 KB happen to hold no NUL byte. */
const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico icns webp avif tif tiff psd heic ' +
    'mp3 mp4 m4a m4v mov avi mkv webm wav flac ogg oga ogv opus aac wma wmv ' +
    'zip gz tgz bz2 xz 7z rar zst lz4 tar jar war ear apk ipa dmg iso deb rpm msi cab ' +
    'exe dll so dylib a lib o obj bin dat class pyc pyo pyd wasm node ' +
    'pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'woff woff2 ttf otf eot ' +
    'sqlite sqlite3 db mdb ' +
    'pkl npy npz onnx pt pth h5 safetensors ckpt'
  ).split(' '),
);

export function hasBinaryExtension(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 && BINARY_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

type Bom = 'utf8' | 'utf16le' | 'utf16be' | undefined;
function bomOf(b: Uint8Array): Bom {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf8';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf16le';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf16be';
  return undefined;
}

/** NUL bytes in the first 8 KB mean binary (UTF-16 text with a BOM is not binary). */
export function looksBinary(bytes: Uint8Array): boolean {
  const bom = bomOf(bytes);
  if (bom === 'utf16le' || bom === 'utf16be') return false;
  const n = Math.min(bytes.length, LIMITS.binarySniffBytes);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export function decodeText(bytes: Uint8Array): string {
  const bom = bomOf(bytes);
  if (bom === 'utf16le') return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bom === 'utf16be') return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bom === 'utf8' ? bytes.subarray(3) : bytes);
}

/** Lines of a text; a final line break does not start another (empty) line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function utf8Length(s: string): number {
  return utf8ByteLength(s);
}

/** Cuts `s` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function clipToBytes(s: string, maxBytes: number): string {
  if (utf8Length(s) <= maxBytes) return s;
  const buf = utf8Encode(s).subarray(0, maxBytes);
  // TextDecoder drops an incomplete trailing sequence as U+FFFD; strip that.
  return new TextDecoder('utf-8').decode(buf).replace(/\uFFFD$/, '');
}

export type LineSlice =
  | { ok: false; message: string }
  | {
      ok: true;
      text: string;
      /** 1-based, inclusive; 0/0 for an empty file */
      first: number;
      last: number;
      total: number;
      /** the range asked for was cut by the line or byte cap */
      truncated: boolean;
      /** the single line `last` was longer than the byte cap and was cut */
      lineCut: boolean;
    };

/**
 * Picks lines [startLine, endLine] of `lines`, capped at `maxLines` lines and `maxBytes` bytes.
 * A range past the end is clamped; a start past the end is an error the model can act on.
 */
export function sliceLines(
  lines: readonly string[],
  startLine: number | undefined,
  endLine: number | undefined,
  maxLines: number = LIMITS.readMaxLines,
  maxBytes: number = LIMITS.readMaxBytes,
): LineSlice {
  const total = lines.length;
  const start = startLine ?? 1;
  if (endLine !== undefined && endLine < start) {
    return { ok: false, message: `endLine (${endLine}) is before startLine (${start}).` };
  }
  if (total === 0) {
    if (start > 1) return { ok: false, message: 'The file is empty.' };
    return { ok: true, text: '', first: 0, last: 0, total: 0, truncated: false, lineCut: false };
  }
  if (start > total) {
    return { ok: false, message: `startLine ${start} is past the end of the file, which has ${total} line${total === 1 ? '' : 's'}.` };
  }
  const wantedLast = Math.min(endLine ?? total, total);
  const out: string[] = [];
  let bytes = 0;
  let last = start - 1;
  let lineCut = false;
  for (let n = start; n <= wantedLast && out.length < maxLines; n++) {
    const line = lines[n - 1]!;
    const cost = utf8Length(line) + 1;
    if (bytes + cost > maxBytes) {
      if (out.length === 0) {
        out.push(clipToBytes(line, maxBytes));
        last = n;
        lineCut = true;
      }
      break;
    }
    out.push(line);
    bytes += cost;
    last = n;
  }
  return { ok: true, text: out.join('\n'), first: start, last, total, truncated: last < wantedLast || lineCut, lineCut };
}

/** `path (lines a-b of N)` + text, and when cut, how to ask for the rest. */
export function formatFileSlice(displayPath: string, slice: Extract<LineSlice, { ok: true }>, extraNote?: string): string {
  if (slice.total === 0) return `${displayPath} (empty file, 0 lines)`;
  const head = `${displayPath} (lines ${slice.first}-${slice.last} of ${slice.total})${extraNote ? ` ${extraNote}` : ''}`;
  let tail = '';
  if (slice.truncated) {
    const limit = `limit ${LIMITS.readMaxLines} lines / ${LIMITS.readMaxBytes / 1024} KB per call`;
    tail = slice.lineCut
      ? `\n[Truncated: line ${slice.last} is longer than ${LIMITS.readMaxBytes / 1024} KB and was cut (${limit}).${slice.last < slice.total ? ` To continue, call read_file with startLine ${slice.last + 1}.` : ''}]`
      : `\n[Truncated: showed lines ${slice.first}-${slice.last} of ${slice.total} (${limit}). To continue, call read_file with startLine ${slice.last + 1}.]`;
  }
  return `${head}\n${slice.text}${tail}`;
}

/** A window of at most `width` characters of `line` around a match, with ellipses where cut. */
export function previewLine(line: string, matchStart: number, matchLength: number, width: number = LIMITS.searchLinePreviewChars): string {
  const trimmedStart = line.length - line.trimStart().length;
  let from = Math.max(trimmedStart, 0);
  let to = line.length;
  if (to - from > width) {
    const centre = matchStart + Math.floor(Math.min(matchLength, width) / 2);
    from = Math.max(from, centre - Math.floor(width / 2));
    to = Math.min(line.length, from + width);
    from = Math.max(trimmedStart, to - width);
  }
  return `${from > trimmedStart ? '…' : ''}${line.slice(from, to).trimEnd()}${to < line.length ? '…' : ''}`;
}

/** Last line of defence: no result text grows past the cap. */
export function capResult(text: string, max: number = LIMITS.resultMaxChars): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[Result cut at ${Math.round(max / 1024)} KB.]`;
}
