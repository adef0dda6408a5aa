// Installed only into the `npm start` demo profile, never shipped. On startup it stores the
// simulator's public demo key through Modelgate's own `modelgate.setApiKey` command, so the key
// goes the one way every key goes (SecretStorage, per gateway origin), and then shows the
// walkthrough, on the profile's first start only (a marker file in its global storage, on the
// server's disk: every later `npm start` opens on the workbench as it was left). Why a separate extension and not an environment variable read by Modelgate: a
// key-from-environment path in the shipped extension could be switched on in any normal install
// (a launcher, a devcontainer, a malicious task) and would put keys into process environments;
// this seeder does not exist outside the demo profile, knows only the simulator's public key,
// and refuses anything but a loopback gateway.
import * as vscode from 'vscode';
import { DEMO_KEY } from '../../gateway/demo-key';

const MODELGATE = 'modelgate.modelgate';

function isLoopback(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost');
  } catch {
    return false;
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const ext = vscode.extensions.getExtension<{ hasKey(): Promise<boolean>; noteSimulatorDemo?(): void }>(MODELGATE);
  if (!ext) return;
  const baseUrl = vscode.workspace.getConfiguration('modelgate').inspect<string>('baseUrl')?.globalValue ?? '';
  if (!isLoopback(baseUrl)) return; // only ever the local simulator
  const api = await ext.activate();
  // the panel says once that this gateway is the simulator, with scripted answers
  api.noteSimulatorDemo?.();
  if (!(await api.hasKey())) await vscode.commands.executeCommand('modelgate.setApiKey', DEMO_KEY);
  const shown = vscode.Uri.joinPath(context.globalStorageUri, 'walkthrough-shown');
  const wasShown = await Promise.resolve(vscode.workspace.fs.stat(shown)).then(
    () => true,
    () => false,
  );
  if (wasShown) return;
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${MODELGATE}#gettingStarted`, false);
  await vscode.workspace.fs.createDirectory(context.globalStorageUri);
  await vscode.workspace.fs.writeFile(shown, new Uint8Array());
}

export function deactivate(): void {}
