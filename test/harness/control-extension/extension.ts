// A test-only extension that the e2e harness installs beside the packaged Modelgate extension in
// the workbench it shares between test files (test/e2e/sharedWorkbench.ts). Between two files the
// harness resets that workbench instead of loading a new one; the parts of the reset that only the
// extension host can do go through here: close every editor without saving, close the panel and
// the secondary side bar, clear the notifications and the editor history, forget the context keys
// Modelgate set, restart the extension host, and say which settings the host sees.
//
// It listens on a loopback port and writes `host-<pid>.json` ({ pid, port }) into the folder named
// by MODELGATE_E2E_CONTROL_DIR (the server's environment reaches the extension host), so that the
// harness can tell a restarted extension host from the old one. Without that variable it does nothing.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';

/** One request of the harness: `op` names what to do. */
interface Request {
  op: 'state' | 'command' | 'resetUi' | 'settings';
  /** `command`: the command id and its arguments */
  command?: string;
  args?: unknown[];
  /** `settings`: the user settings wanted (key -> value) */
  settings?: Record<string, unknown>;
  /** `settings`: user settings to remove (those of the last file that `settings` does not name) */
  remove?: string[];
  /** `resetUi`: context keys to forget */
  contextKeys?: string[];
}

let server: Server | undefined;
let hostFile: string | undefined;

export function activate(): void {
  const dir = process.env.MODELGATE_E2E_CONTROL_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      void handle(JSON.parse(body || '{}') as Request).then(
        (result) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: true, result }));
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
        },
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server!.address() as AddressInfo;
    hostFile = join(dir, `host-${process.pid}.json`);
    writeFileSync(hostFile, JSON.stringify({ pid: process.pid, port, at: Date.now() }));
  });
}

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'state':
      return state();
    case 'settings':
      return updateSettings(request.settings ?? {}, request.remove ?? []);
    case 'command':
      return vscode.commands.executeCommand(request.command!, ...(request.args ?? []));
    case 'resetUi':
      return resetUi(request.contextKeys ?? []);
  }
  throw new Error(`unknown op ${String(request.op)}`);
}

/**
 * Writes the user settings through VS Code (which updates its configuration at once; a settings.json
 * written behind its back waits for a file watcher, which VS Code's own atomic writes of that file
 * can stop). Returns the keys that could not be written.
 */
async function updateSettings(wanted: Record<string, unknown>, remove: string[]): Promise<string[]> {
  const config = vscode.workspace.getConfiguration();
  const failed: string[] = [];
  const update = async (key: string, value: unknown) => {
    if (isDeepStrictEqual(config.inspect(key)?.globalValue, value)) return;
    try {
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    } catch (err) {
      failed.push(`${key}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  for (const key of remove) if (!(key in wanted)) await update(key, undefined);
  for (const [key, value] of Object.entries(wanted)) await update(key, value);
  return failed;
}

/** What the harness checks before it hands the workbench to the next file. */
function state() {
  return {
    pid: process.pid,
    tabs: vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)),
    dirty: vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()),
    colorThemeKind: vscode.window.activeColorTheme.kind,
    folders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
  };
}

/**
 * Puts the window's UI back as a fresh one shows it: no editor (changes discarded, not saved),
 * one editor group, no panel or secondary side bar, the Explorer in the side bar, no notification,
 * and none of the given context keys (the editor history asks first: the harness answers that). Each step is tried (10 s at most); the
 * failures and the steps that took over a second are returned.
 */
async function resetUi(contextKeys: string[]): Promise<{ failed: string[]; slow: string[] }> {
  const failed: string[] = [];
  const slow: string[] = [];
  const step = async (what: string, run: () => Thenable<unknown> | Promise<unknown>) => {
    const t0 = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      // A step that waits on the user (a dialog nobody answers) must not hold up the others.
      await Promise.race([run(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('no answer in 10 s')), 10_000)))]);
    } catch (err) {
      failed.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      clearTimeout(timer);
    }
    if (Date.now() - t0 > 1000) slow.push(`${what}: ${Date.now() - t0} ms`);
  };
  // Editors with unsaved changes (an untitled one too) are closed without saving first, so that closing asks nothing.
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && !d.isClosed)) {
    await step(`revert and close ${doc.uri.toString()}`, async () => {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
  }
  await step('close the editors', () => vscode.window.tabGroups.close(vscode.window.tabGroups.all.flatMap((g) => g.tabs)));
  await step('join the editor groups', () => vscode.commands.executeCommand('workbench.action.joinAllGroups'));
  await step('close the panel', () => vscode.commands.executeCommand('workbench.action.closePanel'));
  await step('close the secondary side bar', () => vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar'));
  await step('show the Explorer', () => vscode.commands.executeCommand('workbench.view.explorer'));
  await step('clear the notifications', () => vscode.commands.executeCommand('notifications.clearAll'));
  for (const key of contextKeys) await step(`forget ${key}`, () => vscode.commands.executeCommand('setContext', key, undefined));
  return { failed, slow };
}

export function deactivate(): void {
  server?.close();
  if (hostFile) rmSync(hostFile, { force: true });
}
