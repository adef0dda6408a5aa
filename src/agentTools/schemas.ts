// Arguments of the workspace tools: one zod schema per tool is the single source of truth for both
// validation (the model's JSON is untrusted input) and the JSON schema offered on the wire.
// Unit-tested in plain Node.
import * as z from 'zod';
import type { ToolDefinition } from '../core/client/types';
import { LIMITS } from './limits';

const pathText = z.string().min(1).max(LIMITS.maxPathChars);
const globText = z.string().min(1).max(LIMITS.maxGlobChars);

export const readFileArgs = z.strictObject({
  path: pathText.describe(
    'File path relative to the workspace folder, e.g. "src/index.ts". In a multi-root workspace prefix the folder name: "folderName/src/index.ts".',
  ),
  startLine: z.number().int().min(1).max(1e9).optional().describe('First line to read, 1-based (default 1).'),
  endLine: z
    .number()
    .int()
    .min(1)
    .max(1e9)
    .optional()
    .describe(
      `Last line to read, 1-based and inclusive (default: the end of the file). At most ${LIMITS.readMaxLines} lines or ${LIMITS.readMaxBytes / 1024} KB are returned per call.`,
    ),
});

export const listFilesArgs = z.strictObject({
  path: pathText.optional().describe('Folder to list, relative to the workspace folder (default: the whole workspace).'),
  glob: globText.optional().describe('Glob relative to that folder that file paths must match, e.g. "**/*.ts" (default "**/*"; recursive).'),
  maxResults: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.listMaxResultsCap)
    .optional()
    .describe(`Maximum number of paths to return (default ${LIMITS.listDefaultResults}).`),
});

export const searchTextArgs = z.strictObject({
  query: z.string().min(1).max(LIMITS.maxQueryChars).describe('Text to find. Case-insensitive unless it contains an upper-case letter (smart case).'),
  isRegex: z.boolean().optional().describe('Treat query as a JavaScript regular expression, matched against single lines (default false).'),
  glob: globText.optional().describe('Only search files whose workspace-relative path matches this glob, e.g. "src/**/*.ts".'),
  maxResults: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.searchMaxResultsCap)
    .optional()
    .describe(`Maximum number of matching lines to return (default ${LIMITS.searchDefaultResults}).`),
});

export const getSelectionArgs = z.strictObject({});

export const getDiagnosticsArgs = z.strictObject({
  path: pathText.optional().describe('File to report on, relative to the workspace folder (default: every file in the workspace).'),
});

const editPair = z.strictObject({
  search: z
    .string()
    .max(LIMITS.editMaxChars)
    .describe('Exact text to find: whole lines copied from the file, including indentation. It must occur exactly once.'),
  replace: z.string().max(LIMITS.editMaxChars).describe('The text that takes its place (empty to delete it).'),
});

export const editFileArgs = z.strictObject({
  path: pathText.describe('File to change, relative to the workspace folder.'),
  edits: z.array(editPair).min(1).max(LIMITS.editMaxPairs).describe('Search-and-replace pairs, applied in order, each to the result of the ones before.'),
});

export const createFileArgs = z.strictObject({
  path: pathText.describe('New file, relative to the workspace folder. Missing folders are created.'),
  content: z.string().max(LIMITS.editMaxFileBytes).describe('The whole content of the new file.'),
});

export const deleteFileArgs = z.strictObject({
  path: pathText.describe('File to delete, relative to the workspace folder.'),
});

export type EditFileArgs = z.infer<typeof editFileArgs>;
export type CreateFileArgs = z.infer<typeof createFileArgs>;
export type DeleteFileArgs = z.infer<typeof deleteFileArgs>;
export const runCommandArgs = z.strictObject({
  command: z
    .string()
    .min(1)
    .max(4000)
    .describe(
      'The command line, exactly as it would be typed in a terminal, e.g. "npm test". One command: chained, piped or redirected commands always need the user\'s approval.',
    ),
  cwd: pathText.optional().describe('Folder to run it in, relative to the workspace folder (default: the workspace folder).'),
});

export type ReadFileArgs = z.infer<typeof readFileArgs>;
export type ListFilesArgs = z.infer<typeof listFilesArgs>;
export type SearchTextArgs = z.infer<typeof searchTextArgs>;
export type GetDiagnosticsArgs = z.infer<typeof getDiagnosticsArgs>;
export type RunCommandArgs = z.infer<typeof runCommandArgs>;

export const TOOL_SCHEMAS = {
  read_file: {
    schema: readFileArgs,
    description:
      'Read a text file of the workspace. Returns a header "path (lines a-b of N)" and the text of those lines. Large files are returned in parts: the result says which startLine to ask for next. Files that may contain secrets (.env, private keys, credentials) are returned only if the user allows it when asked; read them only when the task needs them.',
  },
  list_files: {
    schema: listFilesArgs,
    description:
      'List files of the workspace (recursive), optionally below a folder and filtered by a glob. Files hidden by files.exclude, .git and node_modules are skipped.',
  },
  search_text: {
    schema: searchTextArgs,
    description:
      'Search the text of workspace files. Returns matching lines as "path:line: text". Skips binary files, files that may contain secrets (.env, private keys, credentials), files hidden by files.exclude or search.exclude, .git and node_modules.',
  },
  get_selection: {
    schema: getSelectionArgs,
    description:
      'Get the text the user has selected in the active editor, with the file path and line numbers. If nothing is selected, returns the lines visible in the editor.',
  },
  get_diagnostics: {
    schema: getDiagnosticsArgs,
    description: 'Get the errors and warnings VS Code reports (compiler, linter) for one file or for the whole workspace.',
  },
  edit_file: {
    schema: editFileArgs,
    description:
      'Change a text file with exact search-and-replace pairs. Each search text must match the current file exactly once (copy whole lines from read_file, with their indentation; add neighbouring lines to make it unique). Nothing is saved: the user reviews every change and keeps or undoes it; your later reads in this answer see your changes. Files in .git or .vscode, workspace files, files outside the workspace and files that may hold secrets are refused.',
  },
  create_file: {
    schema: createFileArgs,
    description: 'Create a new text file (it must not exist yet) with the given content. The user reviews it before it is saved.',
  },
  delete_file: {
    schema: deleteFileArgs,
    description: 'Delete a file of the workspace. The user reviews the deletion before it happens.',
  },
  run_command: {
    schema: runCommandArgs,
    description:
      'Run a shell command in a workspace folder, e.g. the tests or a build. The user sees the exact command and folder and decides: Run or Skip (commands the user allowed in their settings run at once). Returns the exit code and the output (long output keeps its start and end). The user can stop it, and a time limit applies. Use it for checks the task needs, not to change files.',
  },
} as const;

export type ToolName = keyof typeof TOOL_SCHEMAS;
export const TOOL_NAMES = Object.keys(TOOL_SCHEMAS) as ToolName[];

/** The tools that change files: offered only where edits can be reviewed (a trusted workspace with a folder). */
export const EDIT_TOOL_NAMES: readonly ToolName[] = ['edit_file', 'create_file', 'delete_file'];

export function isEditToolName(name: string): boolean {
  return (EDIT_TOOL_NAMES as readonly string[]).includes(name);
}

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOL_SCHEMAS, name);
}

function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema; // noise for the model; OpenAI-style endpoints expect a bare object schema
  return json;
}

/** The wire definitions, built once (they are byte-stable, which keeps the prompt cache warm). */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = TOOL_NAMES.map((name) => ({
  type: 'function' as const,
  function: { name, description: TOOL_SCHEMAS[name].description, parameters: parametersOf(TOOL_SCHEMAS[name].schema) },
}));

export type ParsedArgs<N extends ToolName> = z.infer<(typeof TOOL_SCHEMAS)[N]['schema']>;

/**
 * Parses the model's argument text. Errors are written for the model to read and fix its call.
 * `null` values are treated as absent: several models send `"startLine": null` for "not given".
 */
export function parseToolArgs<N extends ToolName>(name: N, argumentText: string): { ok: true; args: ParsedArgs<N> } | { ok: false; message: string } {
  let raw: unknown;
  const text = argumentText.trim();
  if (text === '') {
    raw = {};
  } else {
    try {
      raw = JSON.parse(text);
    } catch (e) {
      return { ok: false, message: `Invalid arguments for ${name}: not valid JSON (${(e as Error).message}). Send a JSON object.` };
    }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, message: `Invalid arguments for ${name}: expected a JSON object.` };
  }
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null));
  const parsed = TOOL_SCHEMAS[name].schema.safeParse(cleaned);
  if (!parsed.success) {
    const allowed = Object.keys(TOOL_SCHEMAS[name].schema.shape).join(', ') || '(none)';
    return {
      ok: false,
      message: `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}\nAllowed parameters: ${allowed}.`,
    };
  }
  return { ok: true, args: parsed.data as ParsedArgs<N> };
}
