// The extension's log: a LogOutputChannel ("Modelgate" in the Output panel). Nothing that is
// logged may contain the API key or an Authorization header; callers log facts (status, kind,
// model, timings), never request headers.
import * as vscode from 'vscode';

export interface Log {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  show(): void;
}

export function createLog(): Log & vscode.Disposable {
  const channel = vscode.window.createOutputChannel('Modelgate', { log: true });
  return {
    debug: (m) => channel.debug(m),
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m) => channel.error(m),
    show: () => channel.show(true),
    dispose: () => channel.dispose(),
  };
}
