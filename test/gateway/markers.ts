// Markers that let a test decide what the "model" answers, from the last user message:
//   [[echo]]             the answer is the message itself, the marker removed (hostile markdown tests)
//   [[words:N]]          exactly N words
//   [[long:N]]           N deterministic paragraphs and code blocks (benchmarks)
//   [[call:NAME {json}]] a tool call; several markers = parallel calls in one response
//   [[rounds:N]]         repeat the calls for N rounds of tool results before answering (default 1)
//   [[chunks:SEED]]      with [[echo]]: stream the answer in seeded random pieces of 1-24 characters
//                        (hostile corpus tests: every chunking of the same text must render the same)
//   [[chunks:SEED:MAX]]  the same in pieces of 1-MAX characters (MAX >= 24: long answers in fewer events)
//   [[imageMb:N]]        (image prompts) every image file padded to N MiB (crash tests: a save that lasts)
//   [[fault:...]]        see faults.ts

export interface CallMarker {
  name: string;
  /** the JSON text exactly as written in the marker (may be invalid JSON, on purpose) */
  arguments: string;
}

export function hasEcho(text: string): boolean {
  return text.includes('[[echo]]');
}

export function stripEcho(text: string): string {
  return text.replace(/\[\[echo\]\][ \t]*(\r?\n)?/g, '');
}

function numberMarker(text: string, name: string): number | undefined {
  const m = new RegExp(`\\[\\[${name}:(\\d+)\\]\\]`).exec(text);
  return m ? Number(m[1]) : undefined;
}

export const wordsMarker = (text: string): number | undefined => numberMarker(text, 'words');
export const longMarker = (text: string): number | undefined => numberMarker(text, 'long');
export const chunksMarker = (text: string): number | undefined => chunkingMarker(text)?.seed;

/** `[[chunks:SEED]]` or `[[chunks:SEED:MAX]]`: the seed and the largest piece (24 unless given; never below 24). */
export function chunkingMarker(text: string): { seed: number; max: number } | undefined {
  const m = /\[\[chunks:(\d+)(?::(\d+))?\]\]/.exec(text);
  return m ? { seed: Number(m[1]), max: Math.max(24, Number(m[2] ?? 24)) } : undefined;
}

export function stripChunks(text: string): string {
  return text.replace(/\[\[chunks:\d+(?::\d+)?\]\][ \t]*(\r?\n)?/g, '');
}
export const roundsMarker = (text: string): number | undefined => numberMarker(text, 'rounds');

/** Largest padding `[[imageMb:N]]` asks for (above the client's 25 MB download limit, so a test can cross it). */
export const MAX_IMAGE_MB = 64;
export const imageMbMarker = (text: string): number | undefined => {
  const mb = numberMarker(text, 'imageMb');
  return mb === undefined ? undefined : Math.min(mb, MAX_IMAGE_MB);
};

export function stripImageMb(text: string): string {
  return text.replace(/[ \t]*\[\[imageMb:\d+\]\]/g, '');
}

/**
 * Finds every `[[call:NAME ARGS]]`. ARGS is a balanced `{...}` (its strings may hold `]]`), else
 * anything up to the next `]]` taken verbatim (tests use that to send arguments that are not JSON),
 * or empty (`{}`).
 */
export function callMarkers(text: string): CallMarker[] {
  const calls: CallMarker[] = [];
  const start = /\[\[call:([A-Za-z0-9_-]{1,64})/g;
  let m: RegExpExecArray | null;
  while ((m = start.exec(text))) {
    let i = m.index + m[0].length;
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    let args = '{}';
    const end = text[i] === '{' ? balancedEnd(text, i) : -1;
    if (end >= 0) {
      args = text.slice(i, end);
      i = end;
      while (i < text.length && /\s/.test(text[i] as string)) i++;
    } else if (!text.startsWith(']]', i)) {
      const close = text.indexOf(']]', i);
      if (close < 0) continue;
      args = text.slice(i, close).trimEnd();
      i = close;
    }
    if (!text.startsWith(']]', i)) continue;
    calls.push({ name: m[1] as string, arguments: args });
    start.lastIndex = i + 2;
  }
  return calls;
}

function balancedEnd(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}
