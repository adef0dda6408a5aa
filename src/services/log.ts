// The extension's log: a LogOutputChannel ("Modelgate" in the Output panel). Nothing that is
// logged may contain the API key or an Authorization header; callers log facts (status, kind,
// model, timings), never request headers. Every line is capped (its start and its length): a
// line can carry a tool's error or a server's words, which may be megabytes.
import * as vscode from 'vscode';
import { logLine } from '../core/logText';

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
    debug: (m) => channel.debug(logLine(m)),
    info: (m) => channel.info(logLine(m)),
    warn: (m) => channel.warn(logLine(m)),
    error: (m) => channel.error(logLine(m)),
    show: () => channel.show(true),
    dispose: () => channel.dispose(),
  };
}
