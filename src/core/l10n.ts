// Runtime strings of modules that must not import `vscode` (they run in plain Node unit tests)
// go through `l10n.t`, which has vscode.l10n.t's shape: an English message with {0}-style
// placeholders, which is also its key in media/l10n/bundle.l10n.json. extension.ts wires it to
// vscode.l10n.t on activation; unwired, it only fills the placeholders.
export type Translate = (message: string, ...args: Array<string | number | boolean>) => string;

/** Fills the placeholders only: for text that stays English (exports, stored data). */
export const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));

let translate: Translate = english;

export const l10n = {
  t: (message: string, ...args: Array<string | number | boolean>): string => translate(message, ...args),
};

/** Routes `l10n.t` through `fn` (vscode.l10n.t in the extension); undefined restores plain English. */
export function setTranslator(fn: Translate | undefined): void {
  translate = fn ?? english;
}
