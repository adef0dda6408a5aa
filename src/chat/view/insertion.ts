// What Insert puts at the cursor (pure, no VS Code): the code block on lines of its own. At the end
// of a line that has text, it starts on the next line; before text, that text moves to the line
// after it; at the end of the file, the file still ends with a line break.

export interface InsertionPoint {
  /** the text of the cursor's line before the cursor (or the selection's start) */
  before: string;
  /** the text of the line after the cursor (or the selection's end) */
  after: string;
  /** the cursor (or the selection's end) is at the very end of the document */
  atEnd: boolean;
  /** the document's line break */
  eol: '\n' | '\r\n';
}

/** The text to put in place of the selection so that `code` sits on lines of its own. */
export function insertionText(code: string, at: InsertionPoint): string {
  const body = code.replace(/\r?\n/g, at.eol);
  const lead = at.before.trim() !== '' ? at.eol : '';
  const endsWithBreak = /\r?\n$/.test(body);
  const trail = (at.after.trim() !== '' || at.atEnd) && !endsWithBreak ? at.eol : '';
  return lead + body + trail;
}
