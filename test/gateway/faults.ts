// Faults the simulator can inject, so that tests see what real networks and proxies do.
// Three ways to trigger one: `injectFault()` in-process, `POST /__sim/fault` out of process,
// and a `[[fault:...]]` marker in the last user message (for tests that drive the UI).
import { z } from 'zod';

export type Fault =
  | { kind: 'drop'; afterChunks: number } // destroy the socket after N content chunks of a stream
  | { kind: 'stall'; ms?: number } // send nothing at all for ms (default: until the client gives up)
  | { kind: 'stallAfter'; afterChunks: number; ms?: number } // stream N chunks, then go silent
  | { kind: 'html502' } // 502 text/html page like a CDN's
  | { kind: 'empty'; status: number } // status with an empty body
  | { kind: 'malformed'; afterChunks: number } // a `data: {not json` event after N chunks
  | { kind: 'streamError'; afterChunks: number; message?: string } // `data: {"error":{...}}` mid-stream
  | { kind: 'drip'; delayMs: number } // send the response in tiny pieces (a few bytes) with a delay
  | { kind: 'rateLimit'; retryAfter: string } // 429 with Retry-After (seconds or HTTP date) and {error}
  | { kind: 'status'; status: number; body?: string; contentType?: string } // anything else
  | { kind: 'keepAlive'; afterChunks: number; intervalMs?: number } // N chunks, then only SSE comments, forever
  | { kind: 'endlessLine'; afterChunks: number; maxBytes?: number }; // N chunks, then one `data:` line that never ends

const count = z.number().int().nonnegative();
const httpStatus = z.number().int().min(100).max(599);

export const faultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('drop'), afterChunks: count }),
  z.object({ kind: z.literal('stall'), ms: count.optional() }),
  z.object({ kind: z.literal('stallAfter'), afterChunks: count, ms: count.optional() }),
  z.object({ kind: z.literal('html502') }),
  z.object({ kind: z.literal('empty'), status: httpStatus }),
  z.object({ kind: z.literal('malformed'), afterChunks: count }),
  z.object({ kind: z.literal('streamError'), afterChunks: count, message: z.string().optional() }),
  z.object({ kind: z.literal('drip'), delayMs: count }),
  z.object({ kind: z.literal('rateLimit'), retryAfter: z.string().min(1) }),
  z.object({ kind: z.literal('status'), status: httpStatus, body: z.string().optional(), contentType: z.string().optional() }),
  z.object({ kind: z.literal('keepAlive'), afterChunks: count, intervalMs: z.number().int().positive().optional() }),
  z.object({ kind: z.literal('endlessLine'), afterChunks: count, maxBytes: z.number().int().positive().optional() }),
]);

/** Body of POST /__sim/fault: a Fault plus an optional `times`. */
export const faultRequestSchema = z.intersection(faultSchema, z.object({ times: z.number().int().positive().optional() }));

/** Faults that replace the whole response, as a proxy in front of the service would. */
export type UpfrontFault = Extract<Fault, { kind: 'stall' | 'html502' | 'empty' | 'rateLimit' | 'status' }>;
/** Faults that corrupt or pace a response the service does produce. */
export type ResponseFault = Exclude<Fault, UpfrontFault>;

export function isUpfront(fault: Fault): fault is UpfrontFault {
  return fault.kind === 'stall' || fault.kind === 'html502' || fault.kind === 'empty' || fault.kind === 'rateLimit' || fault.kind === 'status';
}

/** Queue of injected faults; each one applies to the next `times` generation requests. */
export class FaultQueue {
  private queue: { fault: Fault; remaining: number }[] = [];

  push(fault: Fault, times = 1): void {
    const parsed = faultSchema.parse(fault) as Fault;
    if (!Number.isInteger(times) || times < 1) throw new Error('injectFault: times must be a positive integer');
    this.queue.push({ fault: parsed, remaining: times });
  }

  take(): Fault | undefined {
    const head = this.queue[0];
    if (!head) return undefined;
    if (--head.remaining <= 0) this.queue.shift();
    return head.fault;
  }

  clear(): void {
    this.queue = [];
  }
}

const MARKER = /\[\[fault:([A-Za-z0-9]+)(?::([^\]]*))?\]\]/;

function int(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

/**
 * `[[fault:drop:3]]`, `[[fault:stall]]`, `[[fault:stall:2000]]`, `[[fault:stallAfter:2]]`,
 * `[[fault:stallAfter:2:1500]]`, `[[fault:html502]]`, `[[fault:empty:503]]`, `[[fault:malformed:2]]`,
 * `[[fault:streamError:1]]`, `[[fault:streamError:1:custom message]]`, `[[fault:drip:20]]`,
 * `[[fault:rateLimit:2]]`, `[[fault:rateLimit:Wed, 21 Oct 2015 07:28:00 GMT]]`, `[[fault:status:500]]`,
 * `[[fault:keepAlive:2]]`, `[[fault:keepAlive:2:250]]` (interval ms), `[[fault:endlessLine:2]]`.
 */
export function parseFaultMarker(text: string): Fault | undefined {
  const m = MARKER.exec(text);
  if (!m) return undefined;
  const kind = m[1];
  const arg = m[2];
  const [first, ...rest] = arg === undefined ? [] : arg.split(':');
  const second = rest.length ? rest.join(':') : undefined;
  const candidate: unknown = (() => {
    switch (kind) {
      case 'drop':
        return { kind, afterChunks: int(first) ?? 0 };
      case 'stall':
        return int(first) === undefined ? { kind } : { kind, ms: int(first) };
      case 'stallAfter':
        return int(second) === undefined ? { kind, afterChunks: int(first) ?? 0 } : { kind, afterChunks: int(first) ?? 0, ms: int(second) };
      case 'html502':
        return { kind };
      case 'empty':
        return { kind, status: int(first) ?? 502 };
      case 'malformed':
        return { kind, afterChunks: int(first) ?? 0 };
      case 'streamError':
        return second === undefined ? { kind, afterChunks: int(first) ?? 0 } : { kind, afterChunks: int(first) ?? 0, message: second };
      case 'drip':
        return { kind, delayMs: int(first) ?? 10 };
      case 'rateLimit':
        return { kind, retryAfter: arg?.trim() || '1' };
      case 'status':
        return { kind, status: int(first) ?? 500 };
      case 'keepAlive':
        return int(second) === undefined ? { kind, afterChunks: int(first) ?? 0 } : { kind, afterChunks: int(first) ?? 0, intervalMs: int(second) };
      case 'endlessLine':
        return { kind, afterChunks: int(first) ?? 0 };
      default:
        return undefined;
    }
  })();
  const parsed = faultSchema.safeParse(candidate);
  return parsed.success ? (parsed.data as Fault) : undefined;
}

export function stripFaultMarkers(text: string): string {
  return text.replace(/\[\[fault:[^\]]*\]\][ \t]*(\r?\n)?/g, '');
}
