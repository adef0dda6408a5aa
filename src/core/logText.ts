// What of a text goes into a log line: its first few hundred characters and its length. A tool's
// error, a tool's description, a command line or anything else a model, a tool or a server wrote
// can be megabytes, and one such line in the output channel would rotate the whole log away.

/** Characters kept of one foreign text inside a log line (an error, a command, a name). */
export const LOG_PIECE_CHARS = 300;
/** Characters kept of a whole log line, whatever it holds. */
export const LOG_LINE_CHARS = 1_000;

/**
 * `text` as it is when it has at most `max` characters, else its first `max` characters (never
 * half a surrogate pair) and how long it was: "abc… (10485760 characters)".
 */
export function clipForLog(text: string, max = LOG_PIECE_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate without its pair
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/** A whole log line, capped. */
export function logLine(message: string): string {
  return clipForLog(message, LOG_LINE_CHARS);
}
