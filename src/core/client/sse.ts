// Bytes -> server-sent events (the WHATWG event-stream format: `data:`/`event:`/`id:` fields,
// `:` comments, a blank line ends an event; LF, CRLF or CR line ends). Written here instead of
// using eventsource-parser because the hot path wants three things a text parser cannot give:
// - text is decoded only when a line completes (one TextDecoder call per completed region,
//   not one per network chunk: an 8 MB event in 1 KB chunks is decoded once);
// - an incomplete line is bounded: past `maxEventBytes` the stream fails with a clear error
//   instead of growing memory without end;
// - it knows whether a chunk carried content or only comments (keep-alives), so the idle
//   timeout can ignore a server that only says it is alive.
// Line ends are ASCII, so a split at a line end is never inside a UTF-8 character.

export interface SseMessage {
  data: string;
  event: string | undefined;
  id: string | undefined;
  /** True when the decoder knows `data` has no character below U+0020 (lets the fast chunk path skip that check). */
  plain?: boolean;
}

export interface SseDecoder {
  /** Feeds one network chunk; returns the events it completed (often none, sometimes many). */
  push(bytes: Uint8Array): SseMessage[];
  /** End of the body: flushes a last event the server did not terminate with a blank line. */
  end(): SseMessage[];
  /**
   * True when the last push() carried content: a completed field line (data/event/id) or bytes
   * of a line that is not a comment. False for chunks of comments and blank lines only.
   */
  readonly progressed: boolean;
}

/** Largest single SSE line or event, by default: a 25 MB image as base64 is 33 MB. */
export const DEFAULT_MAX_EVENT_BYTES = 64 * 1024 * 1024;

export class SseLimitError extends Error {
  constructor(readonly limitBytes: number) {
    super(`a single stream event is larger than the limit of ${formatBytes(limitBytes)}`);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/** Other control bytes (below 0x20, not LF or CR) seen by the last scan(): first and last index, or -1. */
let ctrlFirst = -1;
let ctrlLast = -1;

/**
 * One forward pass over bytes[from..]: returns the index of the last LF or CR (or -1) and notes
 * other control bytes in ctrlFirst/ctrlLast. Four bytes at a time: a word is looked at byte by
 * byte only when one of its bytes is below 0x20 (the "has a byte less than n" bit trick), so
 * the 8 MB of an image event cost about a quarter of a byte loop, with no allocation but one
 * Int32Array view. (Two native lastIndexOf calls, LF and CR, were 10 % of the client's CPU on
 * that event.)
 */
function scan(bytes: Uint8Array, from: number): number {
  ctrlFirst = -1;
  ctrlLast = -1;
  const n = bytes.byteLength;
  const offset = bytes.byteOffset;
  let wordsAt = (offset + from + 3) & ~3;
  let words = (offset + n - wordsAt) >> 2;
  if (words < 4) {
    wordsAt = offset + n; // short: byte by byte
    words = 0;
  }
  const head = wordsAt - offset;
  let last = scanBytes(bytes, from, head, -1);
  if (words > 0) {
    const w = new Int32Array(bytes.buffer, wordsAt, words);
    for (let k = 0; k < words; k++) {
      const x = w[k]!;
      if (((x - 0x20202020) & ~x & 0x80808080) === 0) continue;
      const b = head + (k << 2);
      last = scanBytes(bytes, b, b + 4, last);
    }
  }
  return scanBytes(bytes, head + (words << 2), n, last);
}

/** Byte by byte over bytes[from..to): the last LF or CR (else `last`); other control bytes go to ctrlFirst/ctrlLast. */
function scanBytes(bytes: Uint8Array, from: number, to: number, last: number): number {
  for (let i = from; i < to; i++) {
    const c = bytes[i]!;
    if (c < SPACE) {
      if (c === LF || c === CR) last = i;
      else {
        if (ctrlFirst === -1) ctrlFirst = i;
        ctrlLast = i;
      }
    }
  }
  return last;
}

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

export function createSseDecoder(onComment?: (comment: string) => void, maxEventBytes = DEFAULT_MAX_EVENT_BYTES): SseDecoder {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Bytes of the line in progress (no line end seen yet). */
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  /** First byte of the line in progress, or -1 when none arrived yet. */
  let pendingFirst = -1;
  /** Bytes of a leading byte order mark matched so far (a mark may arrive split across chunks); -1 once decided. */
  let bomMatched = 0;
  /** The previous chunk ended with CR: a LF starting this one belongs to it. */
  let skipLf = false;
  let progressed = false;
  /** A control byte (not a line end) is in the pending bytes / the region being parsed / the event's data. */
  let pendingDirty = false;
  let regionDirty = false;
  let eventDirty = false;

  let data = '';
  let dataLines = 0;
  let eventType: string | undefined;
  let id: string | undefined;
  let out: SseMessage[] = [];

  const dispatch = (): void => {
    if (dataLines > 0) out.push({ data, event: eventType, id, plain: dataLines === 1 && !eventDirty });
    data = '';
    dataLines = 0;
    eventDirty = false;
    eventType = undefined;
  };

  const addData = (value: string): void => {
    if (dataLines === 0) data = value;
    else {
      if (data.length + value.length + 1 > maxEventBytes) throw new SseLimitError(maxEventBytes);
      data = `${data}\n${value}`;
    }
    dataLines++;
    if (regionDirty) eventDirty = true;
  };

  const line = (text: string, start: number, end: number): void => {
    if (start === end) {
      dispatch();
      return;
    }
    const c = text.charCodeAt(start);
    if (c === COLON) {
      if (onComment) onComment(text.slice(text.charCodeAt(start + 1) === SPACE ? start + 2 : start + 1, end));
      return;
    }
    progressed = true;
    let colon = text.indexOf(':', start);
    if (colon === -1 || colon > end) colon = end;
    const field = text.slice(start, colon);
    let valueStart = colon + 1;
    if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
    const value = valueStart >= end ? '' : text.slice(valueStart, end);
    if (field === 'data') addData(value);
    else if (field === 'event') eventType = value || undefined;
    else if (field === 'id') id = value.includes('\0') ? undefined : value;
    // `retry` and unknown fields are ignored, as the format says.
  };

  /** `text` ends with a line end (or is the flushed end of the body). */
  const lines = (text: string): void => {
    let pos = 0;
    const n = text.length;
    if (text.indexOf('\r') === -1) {
      for (let lf = text.indexOf('\n'); lf !== -1; lf = text.indexOf('\n', pos)) {
        line(text, pos, lf);
        pos = lf + 1;
      }
      if (pos < n) line(text, pos, n);
      return;
    }
    while (pos < n) {
      let endAt = pos;
      while (endAt < n) {
        const c = text.charCodeAt(endAt);
        if (c === LF || c === CR) break;
        endAt++;
      }
      line(text, pos, endAt);
      if (endAt >= n) break;
      pos = endAt + 1;
      if (text.charCodeAt(endAt) === CR && text.charCodeAt(pos) === LF) pos++;
    }
  };

  const stash = (bytes: Uint8Array): void => {
    if (bytes.byteLength === 0) return;
    if (pendingFirst === -1) pendingFirst = bytes[0]!;
    if (pendingFirst !== COLON) progressed = true;
    pending.push(bytes);
    pendingBytes += bytes.byteLength;
    if (pendingBytes > maxEventBytes) throw new SseLimitError(maxEventBytes);
  };

  const take = (): SseMessage[] => {
    const events = out;
    out = [];
    return events;
  };

  const joinPending = (tail: Uint8Array): Uint8Array => {
    if (pending.length === 0) return tail;
    const all = new Uint8Array(pendingBytes + tail.byteLength);
    let at = 0;
    for (const p of pending) {
      all.set(p, at);
      at += p.byteLength;
    }
    all.set(tail, at);
    pending = [];
    pendingBytes = 0;
    pendingFirst = -1;
    pendingDirty = false;
    return all;
  };

  return {
    get progressed() {
      return progressed;
    },
    push(bytes) {
      progressed = false;
      let start = 0;
      if (bomMatched >= 0 && bytes.byteLength > 0) {
        let i = 0;
        while (bomMatched < 3 && i < bytes.byteLength && bytes[i] === BOM[bomMatched]) {
          bomMatched++;
          i++;
        }
        if (bomMatched === 3) {
          bomMatched = -1;
          start = i;
        } else if (i === bytes.byteLength) {
          return take(); // so far only the start of a mark
        } else {
          // not a mark: the bytes taken for one are the stream's first bytes after all
          const taken = BOM.subarray(0, bomMatched);
          bomMatched = -1;
          if (taken.byteLength > 0) {
            const joined = new Uint8Array(taken.byteLength + bytes.byteLength - i);
            joined.set(taken, 0);
            joined.set(bytes.subarray(i), taken.byteLength);
            bytes = joined;
          }
        }
      }
      if (skipLf && bytes.byteLength > start) {
        skipLf = false;
        if (bytes[start] === LF) start++;
      }
      const last = scan(bytes, start);
      if (last === -1) {
        if (ctrlFirst !== -1) pendingDirty = true;
        stash(bytes.subarray(start));
        return take();
      }
      regionDirty = pendingDirty || (ctrlFirst !== -1 && ctrlFirst < last);
      const tailDirty = ctrlLast > last;
      const region = joinPending(bytes.subarray(start, last + 1));
      // The region ends with its line end; the text parser sees it as one.
      lines(decoder.decode(region));
      if (bytes[last] === CR && last === bytes.byteLength - 1) skipLf = true;
      pendingDirty = tailDirty;
      stash(bytes.subarray(last + 1));
      return take();
    },
    end() {
      progressed = false;
      if (bomMatched > 0) stash(BOM.subarray(0, bomMatched));
      bomMatched = -1;
      if (pending.length) {
        regionDirty = pendingDirty;
        lines(decoder.decode(joinPending(new Uint8Array(0))));
      }
      // Some servers close the body straight after `data: [DONE]` with no blank line.
      dispatch();
      return take();
    },
  };
}
