// Folders that several windows share in the extension's global storage (the chat history, the
// spend ledger): replacing a file so that a reader finds the old content or the new, whole, and
// hearing another window write into the folder. Where the folder is on the extension host's own
// disk (desktop and remote hosts) it is read and written with Node's fs (src/platform/sharedFolder.ts),
// with no round trip to the window; elsewhere (the web host) through vscode.workspace.fs.
import * as vscode from 'vscode';
import { directFolder, type DirectFolder } from '../platform/sharedFolder';

/**
 * A temporary file older than this is what a window killed mid-write left behind (a live
 * write renames its own within milliseconds): the first write of a folder removes them.
 */
export const STALE_TEMP_MS = 60_000;

const notFound = (err: unknown) => err instanceof vscode.FileSystemError && err.code === 'FileNotFound';

export class SharedFolder {
  readonly #direct: DirectFolder | undefined;
  #made: Promise<void> | undefined;

  /**
   * `pollMs`: how often watch() checks the folder's modification time. A `file` folder is read and
   * written with Node's fs where the build has it (the web build has none) unless `throughVsCode`
   * (how the tests write as such a host does).
   */
  constructor(
    readonly uri: vscode.Uri,
    private readonly pollMs: number,
    options: { throughVsCode?: boolean } = {},
  ) {
    this.#direct = uri.scheme === 'file' && !options.throughVsCode ? directFolder : undefined;
  }

  /** whether this folder is read and written with Node's fs (else through vscode.workspace.fs) */
  get direct(): boolean {
    return this.#direct !== undefined;
  }

  #path(name: string): string {
    return vscode.Uri.joinPath(this.uri, name).fsPath;
  }

  /** names of the regular files there are (empty when the folder does not exist yet) */
  async list(): Promise<string[]> {
    if (this.#direct) return this.#direct.list(this.uri.fsPath);
    try {
      return (await vscode.workspace.fs.readDirectory(this.uri)).filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
    } catch (err) {
      if (notFound(err)) return [];
      throw err;
    }
  }

  /** the file's text, or undefined when it does not exist (other failures throw) */
  async read(name: string): Promise<string | undefined> {
    if (this.#direct) return this.#direct.read(this.#path(name));
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.uri, name)));
    } catch (err) {
      if (notFound(err)) return undefined;
      throw err;
    }
  }

  /** Replaces the file as a whole; the first write also makes the folder and removes what killed writes left. */
  async write(name: string, text: string): Promise<void> {
    this.#made ??= this.#prepare().catch((err: unknown) => {
      this.#made = undefined; // the next write tries again (a folder that could not be made yet)
      throw err;
    });
    await this.#made;
    if (this.#direct) return this.#direct.replace(this.uri.fsPath, name, text);
    await replaceThroughVsCode(this.uri, name, text);
  }

  async remove(name: string): Promise<void> {
    if (this.#direct) return this.#direct.remove(this.#path(name));
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.uri, name));
    } catch (err) {
      if (!notFound(err)) throw err;
    }
  }

  /** modification time in ms of the folder (`name` omitted) or of a file in it; undefined when missing */
  async mtime(name?: string): Promise<number | undefined> {
    if (this.#direct) return this.#direct.mtime(name === undefined ? this.uri.fsPath : this.#path(name));
    try {
      return (await vscode.workspace.fs.stat(name === undefined ? this.uri : vscode.Uri.joinPath(this.uri, name))).mtime;
    } catch {
      return undefined;
    }
  }

  /**
   * Hears another window write into the folder. File events for a folder outside the workspace
   * are not delivered everywhere (the VS Code server does not report the global storage
   * folder), so the folder's modification time, which every create, replace (rename) and
   * delete changes, is checked every `pollMs` as well.
   */
  watch(onChange: () => void): vscode.Disposable {
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(this.uri, '*.json'));
    let lastMtime: number | undefined;
    const poll = setInterval(() => {
      this.mtime().then(
        (m) => {
          if (m === undefined) return;
          if (lastMtime !== undefined && m !== lastMtime) onChange();
          lastMtime = m;
        },
        () => undefined,
      );
    }, this.pollMs);
    return vscode.Disposable.from(
      { dispose: () => clearInterval(poll) },
      watcher,
      watcher.onDidChange(onChange),
      watcher.onDidCreate(onChange),
      watcher.onDidDelete(onChange),
    );
  }

  async #prepare(): Promise<void> {
    if (!this.#direct) await vscode.workspace.fs.createDirectory(this.uri);
    // Removes temporary files left by a write that never reached its rename (a killed window).
    const now = Date.now();
    for (const name of await this.list().catch(() => [])) {
      if (!name.endsWith('.tmp')) continue;
      const mtime = await this.mtime(name);
      // Gone already, or another window's write in progress: either way not ours to fail on.
      if (mtime !== undefined && now - mtime > STALE_TEMP_MS) await this.remove(name).catch(() => undefined);
    }
  }
}

/**
 * Writes `text` to `folder/name` through a temporary file of its own and a rename. A name of its
 * own per write: two windows saving the same file at once must not rename each other's temporary
 * file away (ENOENT on rename). workspace.fs renames with overwrite as "delete the target, then
 * rename": another window doing the same at that moment makes the delete fail (the file is
 * already gone); the temporary file is still ours, so it tries again.
 */
async function replaceThroughVsCode(folder: vscode.Uri, name: string, text: string, attempts = 8): Promise<void> {
  const target = vscode.Uri.joinPath(folder, name);
  const temp = vscode.Uri.joinPath(folder, `${name}.${globalThis.crypto.randomUUID()}.tmp`);
  await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
  for (let attempt = 1; ; attempt++) {
    try {
      await vscode.workspace.fs.rename(temp, target, { overwrite: true });
      return;
    } catch (err) {
      if (attempt >= attempts || !(err instanceof vscode.FileSystemError)) {
        await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
        throw err;
      }
    }
  }
}
