// When a completion request is not sent at all. Each rule is cheap and decided before any text is
// read for a prompt: the editor asks on every keystroke.
// - the document: a language the user switched off, a path the user excluded (matched by the
//   editor's own globs, see the feature), a file the workspace tools treat as secret (by its names,
//   src/core/workspace/sensitiveFiles.ts, or by a secret inside it), a file over the size limit;
// - the cursor: a selection (the user is about to replace it), the middle of a word (a completion
//   cannot start there), a cursor line too long to be code a person writes (minified files).
// Restricted Mode, the on/off setting, a snooze, budgets and back-off are decided by their owners
// before these.
import { hasSecretContent, isSensitivePath } from '../workspace/sensitiveFiles';

/** Files longer than this (characters) get no completions: generated or data files, and a prompt window would be a sliver of them. */
export const MAX_FILE_CHARS = 1_000_000;
/** A cursor line longer than this (characters) is minified or data. */
export const MAX_LINE_CHARS = 2_000;

export type DocumentSkip = 'languageOff' | 'excluded' | 'secretFile' | 'tooLarge';
export type CursorSkip = 'selection' | 'midWord' | 'longLine';
export type SkipReason = DocumentSkip | CursorSkip;

export interface DocumentFacts {
  /** every name the file is reached by (workspace-relative, with the folder's name in front, after links): as the tools judge it */
  names: readonly string[];
  languageId: string;
  /** the document's length in characters */
  chars: number;
  /** the user's per-language switch: `false` turns a language off */
  languages: Readonly<Record<string, boolean>>;
  /** whether a glob of the user's exclude list matches the file */
  excluded: boolean;
}

export function documentSkip(d: DocumentFacts): DocumentSkip | undefined {
  if (d.languages[d.languageId] === false) return 'languageOff';
  if (d.excluded) return 'excluded';
  if (d.names.some(isSensitivePath)) return 'secretFile';
  if (d.chars > MAX_FILE_CHARS) return 'tooLarge';
  return undefined;
}

/** A secret inside the text (a private key block, a service-account key, an auth token line): nothing of the file is sent. */
export function hasSecretInside(text: string): boolean {
  return hasSecretContent(text);
}

const WORD = /[\p{L}\p{N}_$]/u;

export interface CursorFacts {
  selectionEmpty: boolean;
  lineText: string;
  character: number;
}

export function cursorSkip(c: CursorFacts): CursorSkip | undefined {
  if (!c.selectionEmpty) return 'selection';
  if (c.lineText.length > MAX_LINE_CHARS) return 'longLine';
  const next = c.lineText.slice(c.character, c.character + 2);
  if (next && WORD.test(String.fromCodePoint(next.codePointAt(0)!))) return 'midWord';
  return undefined;
}
