// The host bundle stays small only if zod is imported as a namespace (`import * as z from 'zod'`):
// esbuild then keeps the members we use and drops zod's ~40 locale files (258 KB). A named
// `import { z }` or a default import makes the whole namespace, locales included, reachable again.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.cwd();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

/** the offending zod imports in one file's text (type-only imports cost nothing and are allowed) */
export function badZodImports(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*import\s+(?!type\b)([^;]*?)\s+from\s+['"](zod(?:\/[^'"]*)?)['"]/gm)) {
    const [, clause, spec] = m as unknown as [string, string, string];
    if (/locales/.test(spec)) out.push(`${spec} (locales)`);
    else if (!/^\*\s+as\s+\w+$/.test(clause.trim())) out.push(`import ${clause.trim()} from '${spec}'`);
  }
  return out;
}

describe('bundle: zod is imported so the bundler can drop what is unused', () => {
  it('every zod import under src/ is a namespace import, and none pulls locales', () => {
    const files = sources(join(root, 'src'));
    assert.ok(files.length > 50, `expected the src tree under ${root}`);
    const offenders = files.flatMap((f) => badZodImports(readFileSync(f, 'utf8')).map((b) => `${relative(root, f)}: ${b}`));
    assert.deepEqual(offenders, []);
  });

  it('the check catches a named, a default and a locales import (and allows namespace and type imports)', () => {
    assert.equal(badZodImports("import { z } from 'zod';").length, 1);
    assert.equal(badZodImports("import z from 'zod';").length, 1);
    assert.equal(badZodImports("import * as locales from 'zod/v4/locales';").length, 1);
    assert.deepEqual(badZodImports("import * as z from 'zod';\nimport type { ZodType } from 'zod';"), []);
  });
});
