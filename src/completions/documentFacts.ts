// What the rules of src/core/completions/completionRules.ts need to know of a document, read once
// per document (names) or per document version (a secret inside), not per keystroke:
// - every name the file is reached by, judged as the workspace tools judge it: the path in its
//   workspace folder, the same with the folder's own name in front (a workspace opened at ~/.ssh),
//   and both again for where a symbolic link leads (realpath; the web build has none);
// - whether a glob of the user's exclude list matches it, by VS Code's own glob matching;
// - whether a secret is inside its text (a private key block, an auth token line).
import * as vscode from 'vscode';
import { path } from '../platform/path';
import { nodeFs } from '../platform/fs';
import { hasSecretInside } from '../core/completions/completionRules';

interface Names {
  names: string[];
  /** the path shown in the prompt: workspace-relative, or the file's name outside the workspace */
  promptPath: string;
}

export class DocumentFacts {
  private readonly names = new Map<string, Promise<Names>>();
  private readonly secrets = new Map<string, { version: number; secret: boolean }>();
  private readonly excluded = new Map<string, boolean>();

  /** The document's names and its path for the prompt (computed once per URI). */
  namesOf(doc: vscode.TextDocument): Promise<Names> {
    const key = doc.uri.toString();
    let names = this.names.get(key);
    if (!names) {
      names = namesOf(doc.uri);
      this.names.set(key, names);
    }
    return names;
  }

  /** A glob of `globs` matches the document (cached until the settings change: forget()). */
  isExcluded(doc: vscode.TextDocument, globs: readonly string[]): boolean {
    if (!globs.length) return false;
    const key = doc.uri.toString();
    let hit = this.excluded.get(key);
    if (hit === undefined) {
      const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
      hit = globs.some(
        (glob) =>
          (folder ? vscode.languages.match({ pattern: new vscode.RelativePattern(folder, glob) }, doc) > 0 : false) ||
          // a `**/` glob also holds outside the workspace folders
          (glob.startsWith('**/') && vscode.languages.match({ pattern: glob }, doc) > 0),
      );
      this.excluded.set(key, hit);
    }
    return hit;
  }

  /** A secret inside the document's text (read once per version, when a request is about to go out). */
  hasSecretInside(doc: vscode.TextDocument): boolean {
    const key = doc.uri.toString();
    const known = this.secrets.get(key);
    if (known?.version === doc.version) return known.secret;
    const secret = hasSecretInside(doc.getText());
    this.secrets.set(key, { version: doc.version, secret });
    return secret;
  }

  /** The exclude globs changed: match again. A closed document: forget it. */
  forget(uri?: vscode.Uri): void {
    if (!uri) {
      this.excluded.clear();
      return;
    }
    const key = uri.toString();
    this.names.delete(key);
    this.secrets.delete(key);
    this.excluded.delete(key);
  }
}

async function namesOf(uri: vscode.Uri): Promise<Names> {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const base = path.posix.basename(uri.path);
  if (!folder) {
    // Outside the workspace: the whole path is judged (an opened ~/.ssh/id_rsa), only the name is sent.
    const names = [uri.path];
    const real = await realPath(uri);
    if (real) names.push(real);
    return { names, promptPath: base };
  }
  const relative = path.posix.relative(folder.uri.path, uri.path);
  const named = (rel: string, folderName: string) => [rel, `${folderName}/${rel}`];
  const names = named(relative, path.posix.basename(folder.uri.path));
  const real = await realPath(uri);
  const realFolder = await realPath(folder.uri);
  if (real && realFolder) {
    const realRelative = path.posix.relative(realFolder, real);
    names.push(...named(realRelative, path.posix.basename(realFolder)));
    // a link that leads out of the folder: its target's own path is judged as well
    if (realRelative.startsWith('..')) names.push(real);
  }
  return { names: [...new Set(names)], promptPath: relative };
}

/** Where a file really is (links followed), as a `/` path; undefined where there is no realpath (web build, other schemes) or it fails. */
async function realPath(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme !== 'file' || !nodeFs) return undefined;
  try {
    return (await nodeFs.realpath(uri.fsPath)).replace(/\\/g, '/');
  } catch {
    return undefined;
  }
}
