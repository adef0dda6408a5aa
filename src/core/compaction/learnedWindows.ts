// Context windows the gateway named in its overflow errors ("maximum context length is N tokens"),
// per model and channel (a channel may offer less than the full window). Such a figure is the
// gateway's own word, so it replaces a larger one from the settings or GET /models for that
// route. Stored in globalState (figures and model ids only). Pure.
import * as z from 'zod';
import { lazy } from '../lazy';

export interface LearnedWindow {
  /** the window the gateway named (tokens) */
  window: number;
  /** when it was learned (ms) */
  at: number;
}

/** Keyed by `windowKey(model, channel)`. */
export type LearnedWindows = Readonly<Record<string, LearnedWindow>>;

/** Most routes kept (the oldest go first). */
export const MAX_LEARNED_WINDOWS = 200;

// built on the first read, not when the bundle loads (activation builds no schema and loads no zod)
const stored = lazy(() => z.record(z.string().max(400), z.object({ window: z.number().int().positive(), at: z.number().nonnegative() })));

export const windowKey = (model: string, channel: string): string => `${model}\n${channel}`;

/** What globalState holds, or nothing when it is not what this module wrote. */
export function parseLearnedWindows(raw: unknown): LearnedWindows {
  const r = stored().safeParse(raw);
  return r.success ? r.data : {};
}

/** The window in effect for a route: the configured one, or the smaller one the gateway named. */
export function effectiveWindow(learned: LearnedWindows, model: string, channel: string, configured: number): number {
  const w = learned[windowKey(model, channel)]?.window;
  return w !== undefined && (configured <= 0 || w < configured) ? w : configured;
}

/**
 * The map with what an overflow error named, when it says less than what is in effect (a figure
 * at or above it teaches nothing: the request was too long for the window already known);
 * undefined when nothing changes.
 */
export function learnWindow(
  learned: LearnedWindows,
  o: { model: string; channel: string; named: number; configured: number; now: number },
): LearnedWindows | undefined {
  if (!Number.isInteger(o.named) || o.named <= 0) return undefined;
  if (o.named >= effectiveWindow(learned, o.model, o.channel, o.configured)) return undefined;
  const next: Record<string, LearnedWindow> = { ...learned, [windowKey(o.model, o.channel)]: { window: o.named, at: o.now } };
  const keys = Object.keys(next);
  if (keys.length > MAX_LEARNED_WINDOWS) {
    keys.sort((a, b) => next[a]!.at - next[b]!.at);
    for (const k of keys.slice(0, keys.length - MAX_LEARNED_WINDOWS)) delete next[k];
  }
  return next;
}
