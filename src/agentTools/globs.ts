// Glob strings for vscode.workspace.findFiles, in VS Code's own glob dialect (src/vs/base/common/glob.ts).
// We never match globs ourselves: VS Code's search does, so files.exclude is applied exactly as the
// Explorer applies it. These helpers only build pattern strings.

/** Folders no tool lists or searches, whatever the settings say. */
export const ALWAYS_SKIPPED_DIRS = ['.git', 'node_modules'] as const;

/**
 * A glob that matches exactly one workspace-relative path. Every glob metacharacter becomes a
 * one-character class (`[*]`); `]` becomes `[]]` (literal as the first character of a class).
 * Used to ask findFiles "is this one file excluded?".
 */
export function escapeGlob(relativePath: string): string {
  let out = '';
  for (const ch of relativePath) {
    if (ch === ']') out += '[]]';
    else if ('*?[{}'.includes(ch)) out += `[${ch}]`;
    else out += ch;
  }
  return out;
}

/**
 * Brace expansion (`*.{js,{ts,tsx}}` -> `*.js`, `*.ts`, `*.tsx`), respecting `[...]` classes.
 * VS Code's glob parser does not nest braces, so patterns are expanded before being joined into
 * one `{a,b,c}` union. Returns undefined when the pattern is malformed or expands too much.
 */
export function expandBraces(pattern: string, max = 64): string[] | undefined {
  // find the first top-level `{` outside a bracket class, and its matching `}`
  let open = -1;
  let depth = 0;
  let inClass = false;
  const commas: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (inClass) {
      if (ch === ']' && pattern[i - 1] !== '[') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (ch === ',' && depth === 1) commas.push(i);
    else if (ch === '}') {
      if (depth === 0) return undefined;
      depth--;
      if (depth === 0) {
        const head = pattern.slice(0, open);
        const tail = pattern.slice(i + 1);
        const bounds = [open, ...commas, i];
        const out: string[] = [];
        for (let k = 0; k + 1 < bounds.length; k++) {
          const alt = pattern.slice(bounds[k]! + 1, bounds[k + 1]!);
          const expanded = expandBraces(head + alt + tail, max);
          if (!expanded) return undefined;
          out.push(...expanded);
          if (out.length > max) return undefined;
        }
        return out;
      }
    }
  }
  if (depth !== 0) return undefined;
  return [pattern];
}

/**
 * The `exclude` argument for findFiles: the always-skipped folders, plus the enabled patterns of an
 * exclude setting (search.exclude). files.exclude is not needed here: findFiles applies it itself
 * on top of this argument. Patterns with a `when` clause cannot be expressed as a glob; they are
 * skipped (search.exclude is a convenience, not a boundary).
 */
export function excludeGlob(extraSetting?: Record<string, unknown>): string {
  const parts: string[] = ALWAYS_SKIPPED_DIRS.map((d) => `**/${d}/**`);
  for (const [pattern, enabled] of Object.entries(extraSetting ?? {})) {
    if (enabled !== true || pattern.trim() === '') continue;
    const expanded = expandBraces(pattern.trim());
    if (!expanded) continue;
    for (const p of expanded) {
      if (p.includes('{') || p.includes('}')) continue; // cannot sit inside the union
      const rel = p.replace(/^\.\//, '');
      parts.push(rel);
      // A folder pattern (`**/dist`) excludes what is below it in the Explorer; say so explicitly.
      if (!rel.endsWith('/**')) parts.push(`${rel}/**`);
    }
  }
  return `{${[...new Set(parts)].join(',')}}`;
}

/** A model-supplied glob must stay relative: no absolute paths, no `..` segments. */
export function checkRelativeGlob(glob: string): string | undefined {
  if (glob.includes('\0')) return 'The glob contains a NUL character.';
  if (/^([a-zA-Z]:)?[/\\]/.test(glob)) return `The glob "${glob}" is absolute; give it relative to the workspace folder, e.g. "src/**/*.ts".`;
  if (glob.split(/[/\\]/).some((s) => s === '..')) return `The glob "${glob}" may not contain ".." segments.`;
  return undefined;
}
