// Which commands the model may run without asking: `modelgate.chat.allowedCommands` (user
// settings only) lists exact commands or prefixes. A prefix matches only up to a word boundary
// (the command goes on with whitespace, or ends): "npm test" allows "npm test -- --grep x", not
// "npm testx" nor "npm test:e2e". A command that chains, pipes, redirects, substitutes, runs in
// the background or spans lines never matches: `npm test && curl …`, `npm test; rm …`, `$(…)`,
// backticks, `|`, `>`, `<`, `&`, a newline. The check is on characters, without parsing quotes:
// `echo "a|b"` asks too (a false "ask" costs a click; a false "allow" runs anything).
// Pure: unit-tested in plain Node.

/** Characters and sequences that make one command line into several or feed it from elsewhere. */
const SHELL_CONTROL = /[;&|<>`\r\n\u0000\u2028\u2029]|\$[({]/;

/** Whether `command` chains, pipes, redirects or substitutes (so no allow-list entry covers it). */
export function hasShellControl(command: string): boolean {
  return SHELL_CONTROL.test(command);
}

/** The usable entries of the setting: trimmed strings, without empty ones or ones that chain. */
export function allowedEntries(setting: unknown): string[] {
  if (!Array.isArray(setting)) return [];
  const out: string[] = [];
  for (const v of setting) {
    if (typeof v !== 'string') continue;
    const entry = v.trim();
    if (entry && !hasShellControl(entry) && !out.includes(entry)) out.push(entry);
  }
  return out;
}

/** The entry that allows `command` to run without asking, or undefined (then the user is asked). */
export function allowedBy(command: string, entries: readonly string[]): string | undefined {
  const cmd = command.trim();
  if (!cmd || hasShellControl(cmd)) return undefined;
  for (const entry of entries) {
    const e = entry.trim();
    if (!e || hasShellControl(e)) continue;
    if (cmd === e) return entry;
    if (cmd.startsWith(e) && /\s/.test(cmd.charAt(e.length))) return entry;
  }
  return undefined;
}
