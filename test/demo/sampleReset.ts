// The demo's sample workspace back as shipped on every `npm start`: the scripted answer proposes a
// fix to `mean()` in src/math.ts, and a fix accepted in an earlier run made the next run propose
// the same fix to code that no longer has the bug. Only the sample's own files are put back (a
// file the user added stays), and a changed one is first copied aside, so nothing is lost.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Writes each sample file whose text in `workspace` differs from `sample` (or that is missing);
 * a changed file is first copied to `backupDir` under the same relative path. Returns the
 * relative paths that were changed (copied aside) and those that were missing.
 */
export function resetSample(workspace: string, sample: Record<string, string>, backupDir: string): { changed: string[]; missing: string[] } {
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [rel, text] of Object.entries(sample)) {
    const file = join(workspace, rel);
    if (existsSync(file)) {
      if (readFileSync(file, 'utf8') === text) continue;
      const aside = join(backupDir, rel);
      mkdirSync(dirname(aside), { recursive: true });
      copyFileSync(file, aside);
      changed.push(rel);
    } else {
      missing.push(rel);
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return { changed, missing };
}
