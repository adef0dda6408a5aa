// The user's Modelgate settings as one live value: read once at activation and again on every
// change of the `modelgate` section, with each problem of a bad value logged and shown once.
import * as vscode from 'vscode';
import type { Log } from './log';
import { readSettings, SECTION, type Settings } from './settings';

export class SettingsService implements vscode.Disposable {
  #current: Settings;
  readonly #changed = new vscode.EventEmitter<Settings>();
  readonly #watcher: vscode.Disposable;

  /** Fires after a change of the `modelgate` section, with the settings as now read (listeners run in subscription order). */
  readonly onDidChange: vscode.Event<Settings> = this.#changed.event;

  constructor(private readonly log: Log) {
    this.#current = readSettings();
    this.#warn(this.#current);
    this.#watcher = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      this.#current = readSettings();
      this.#warn(this.#current);
      this.#changed.fire(this.#current);
    });
  }

  get current(): Settings {
    return this.#current;
  }

  #warn(s: Settings): void {
    for (const p of s.problems) {
      this.log.warn(p);
      void vscode.window.showWarningMessage(vscode.l10n.t('Modelgate: {0}', p));
    }
  }

  dispose(): void {
    this.#watcher.dispose();
    this.#changed.dispose();
  }
}
