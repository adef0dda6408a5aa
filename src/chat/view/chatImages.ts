// Images shown inline in an answer: the files Modelgate's generate_image tool wrote into
// the workspace, loaded by the webview from disk. The stored answer keeps only their workspace
// paths (an `images` part); every time they are shown, each path is resolved again inside the
// workspace through the tools' path guard (symlinks resolved, nothing outside a workspace folder,
// nothing in .git or .vscode, an image file that exists), and only then turned into a
// webview.asWebviewUri under a local resource root added for its folder. An image deleted or
// moved since is shown as text saying so. The webview never sends a path back: a click names the
// `openId` the host gave, and the host opens the file it resolved.
import * as vscode from 'vscode';
import { protectedArea } from '../../core/workspace/writeRules';
import { MAX_IMAGES_PER_PART } from '../../core/webviewResource';
import { path as platformPath } from '../../platform/path';
import type { ShownImage } from '../protocol';
import { statUri } from '../../agentTools/fileAccess';
import { resolvePath, type Target } from '../../agentTools/workspaceAccess';

/** The image types the image tool saves (fileNames.ts: the extension of the real image type). */
const IMAGE_FILE = /\.(png|jpe?g|webp|gif)$/i;

export interface ResolvedImages {
  images: ShownImage[];
  /** the folders the webview must be allowed to load from to show them (one per image shown) */
  folders: vscode.Uri[];
}

export class ChatImages {
  /** openId -> the workspace path it stands for (resolved again on open) */
  readonly #paths = new Map<string, string>();
  readonly #ids = new Map<string, string>();
  #next = 0;

  /** Resolves the paths of one images part for `webview`: shown (with its URL) or missing. */
  async resolve(webview: Pick<vscode.Webview, 'asWebviewUri'>, paths: readonly string[]): Promise<ResolvedImages> {
    const images: ShownImage[] = [];
    const folders: vscode.Uri[] = [];
    for (const p of paths.slice(0, MAX_IMAGES_PER_PART)) {
      const target = await this.#find(p);
      if (!target) {
        images.push({ state: 'missing', path: p });
        continue;
      }
      folders.push(target.uri.with({ path: platformPath.posix.dirname(target.uri.path) }));
      images.push({ state: 'shown', path: p, src: webview.asWebviewUri(target.uri).toString(), openId: this.#idFor(p) });
    }
    return { images, folders };
  }

  /** The user clicked image `openId`: opens the file in VS Code; false when it is not there (any more). */
  async open(openId: string): Promise<boolean> {
    const p = this.#paths.get(openId);
    const target = p === undefined ? undefined : await this.#find(p);
    if (!target) {
      void vscode.window.showWarningMessage(
        p === undefined ? vscode.l10n.t('That image is no longer available.') : vscode.l10n.t('The image {0} is no longer in the workspace.', p),
      );
      return false;
    }
    await vscode.commands.executeCommand('vscode.open', target.uri);
    return true;
  }

  #idFor(p: string): string {
    let id = this.#ids.get(p);
    if (!id) {
      id = `image-${++this.#next}`;
      this.#ids.set(p, id);
      this.#paths.set(id, p);
    }
    return id;
  }

  /** The file a stored path names now, when it is an image file inside the workspace. */
  async #find(p: string): Promise<Target | undefined> {
    if (!IMAGE_FILE.test(p)) return undefined;
    let t: Target;
    try {
      t = await resolvePath(p);
    } catch {
      return undefined; // outside the workspace, through a link out, no workspace: never shown
    }
    if (!t.exists || protectedArea(t.relative) || protectedArea(t.realRelative) || !IMAGE_FILE.test(t.uri.path)) return undefined;
    const cts = new vscode.CancellationTokenSource();
    try {
      return (await statUri(t.uri, cts.token)).kind === 'file' ? t : undefined;
    } catch {
      return undefined; // gone since the guard looked (FileMissing), or unreadable: not shown
    } finally {
      cts.dispose();
    }
  }
}

/** Whether every folder of `needed` is in `roots` (compared as URI strings). */
export function hasAll(roots: readonly vscode.Uri[], needed: readonly vscode.Uri[]): boolean {
  const have = new Set(roots.map((r) => r.toString()));
  return needed.every((n) => have.has(n.toString()));
}

/** The folders of `a` and `b`, each once. */
export function unionOf(a: readonly vscode.Uri[], b: readonly vscode.Uri[]): vscode.Uri[] {
  const out = new Map<string, vscode.Uri>();
  for (const u of [...a, ...b]) out.set(u.toString(), u);
  return [...out.values()];
}
