// Installed extension folders that e2e profiles copy instead of installing again. Installing with
// code-server's CLI costs a few seconds; it is done once per set of .vsix files per process (or
// once per `npm test` run: the e2e workers share a folder named by MODELGATE_E2E_TEMPLATES) and
// the result is copied into each profile.
// The state lives on globalThis: each e2e file is its own bundle, and one mocha process runs several.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProfile, installExtensionFolder } from '../harness/code-server';
import { repoRoot } from '../harness/paths';

interface TemplateState {
  byKey: Map<string, string>;
  root?: string;
}
const templateKey = Symbol.for('modelgate.e2e.extensionTemplates');
const sharedTemplates = globalThis as unknown as Record<symbol, TemplateState | undefined>;
const templateState: TemplateState = (sharedTemplates[templateKey] ??= { byKey: new Map<string, string>() });
const templates = templateState.byKey;

/** A folder for templates: the one `npm test` names, else a temporary one of this process. */
function templatesRoot(): string {
  if (process.env.MODELGATE_E2E_TEMPLATES) return process.env.MODELGATE_E2E_TEMPLATES;
  if (!templateState.root) {
    const root = mkdtempSync(join(tmpdir(), 'modelgate-e2e-extensions-'));
    templateState.root = root;
    process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  return templateState.root;
}

/** An extensions folder with `vsixes` installed (made once, then reused). */
export async function extensionsTemplate(vsixes: string[]): Promise<string> {
  const key = vsixes.map((v) => `${v}@${statSync(v).mtimeMs}`).join('|');
  const known = templates.get(key);
  if (known) return known;
  const root = templatesRoot();
  const dir = join(root, createHash('sha256').update(key).digest('hex').slice(0, 16));
  if (!existsSync(join(dir, 'extensions'))) {
    // Installed aside, then renamed into place: a process that loses the race uses the winner's.
    // (A scratch profile whose only use is its freshly installed extensions folder.)
    const scratch = await createProfile({ baseDir: mkdtempSync(join(root, 'installing-')), vsixes, workspaceFiles: {} });
    try {
      renameSync(scratch.baseDir, dir);
    } catch {
      rmSync(scratch.baseDir, { recursive: true, force: true });
    }
  }
  templates.set(key, join(dir, 'extensions'));
  return join(dir, 'extensions');
}

/**
 * `template` plus the e2e control extension (test/harness/control-extension), which the shared
 * workbench needs to reset itself between files (an unpacked extension: nothing to package).
 */
export function withControlExtension(template: string): string {
  const key = `${template}+control`;
  const known = templates.get(key);
  if (known) return known;
  const root = repoRoot();
  const compiled = join(root, 'out/harness/control-extension/extension.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: run \`node esbuild.mjs --tests\` first`);
  const dir = `${template}-control`;
  if (!existsSync(join(dir, 'extensions.json'))) {
    const scratch = mkdtempSync(`${template}-control-`);
    cpSync(template, scratch, { recursive: true });
    installExtensionFolder(scratch, { 'package.json': join(root, 'test/harness/control-extension/package.json'), 'extension.js': compiled });
    try {
      renameSync(scratch, dir);
    } catch {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  templates.set(key, dir);
  return dir;
}
