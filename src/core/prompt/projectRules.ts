// The project's rules files (AGENTS.md at a workspace folder's root, .github/copilot-instructions.md)
// as part of the system message: the cache-stable prefix of every request. Each file is capped
// (RULES_MAX_CHARS), and the block is built only from the files' text and paths, in a fixed order,
// so the same files give the same bytes on every turn. Pure: unit-tested in plain Node.
import { fenceFor } from './promptLayout';

/** Per file: a rules file is instructions, not a document; a larger one is cut with a note. */
export const RULES_MAX_CHARS = 16_000;

/** The file names read at each workspace folder's root, in this order. */
export const RULES_FILE_NAMES = ['AGENTS.md', '.github/copilot-instructions.md'] as const;

export interface RulesFile {
  /** workspace-relative path (folderName/… in a multi-root workspace) */
  path: string;
  /** the text as read, already capped */
  content: string;
  truncated: boolean;
}

export const RULES_HEADING = "# The project's rules (from its rules files; follow them unless the user says otherwise)";

/** Caps a file's text at RULES_MAX_CHARS (never cutting a surrogate pair). */
export function capRulesText(text: string): { content: string; truncated: boolean } {
  if (text.length <= RULES_MAX_CHARS) return { content: text, truncated: false };
  let end = RULES_MAX_CHARS;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { content: text.slice(0, end), truncated: true };
}

/** The system prompt followed by the rules files in use (the base prompt alone when there are none). */
export function systemPromptWithRules(base: string, files: readonly RulesFile[]): string {
  if (files.length === 0) return base;
  const blocks = files.map((f) => {
    const body = f.content.endsWith('\n') ? f.content : `${f.content}\n`;
    const fence = fenceFor(f.content);
    const cut = f.truncated ? `\n(The file is longer; only its first ${RULES_MAX_CHARS} characters are included.)` : '';
    return `Rules file: ${f.path}\n${fence}markdown\n${body}${fence}${cut}`;
  });
  return `${base}\n\n${RULES_HEADING}\n\n${blocks.join('\n\n')}`;
}
