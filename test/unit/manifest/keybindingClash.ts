// Keybinding clash check shared by the unit test (against a snapshot of VS Code 1.139's default
// keybindings for Linux, taken in the real workbench) and the integration test (against the live
// list of the running VS Code, from `workbench.action.openDefaultKeybindingsFile`).

export interface Binding {
  key: string;
  command: string;
  when?: string;
}

const MODIFIERS = ['ctrl', 'shift', 'alt', 'meta', 'cmd', 'win'];

/** "Shift+Ctrl+M" -> "ctrl+shift+m"; chords keep their order ("ctrl+k m"). */
export function normalizeKey(key: string): string {
  return key
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((part) => {
      const pieces = part.split('+');
      const last = pieces.pop() ?? '';
      const mods = pieces.map((m) => (m === 'cmd' || m === 'win' ? 'meta' : m)).sort((a, b) => MODIFIERS.indexOf(a) - MODIFIERS.indexOf(b));
      return [...mods, last].join('+');
    })
    .join(' ');
}

/** Parses the text of VS Code's default keybindings document (JSON with // comments). */
export function parseDefaultKeybindings(text: string): Binding[] {
  const json = text
    .split('\n')
    .filter((line) => !/^\s*\/\//.test(line))
    .join('\n');
  const parsed = JSON.parse(json) as Binding[];
  return parsed.filter((b) => typeof b.key === 'string' && typeof b.command === 'string' && !b.command.startsWith('-'));
}

/**
 * Clashes of `ours` with `defaults`: the same key sequence, or one a chord prefix of the other
 * (ctrl+k swallows every ctrl+k chord). Whens are ignored on purpose: a binding that is free only
 * in some contexts surprises people in the others.
 */
export function clashes(ours: Binding[], defaults: Binding[], ownPrefix = 'modelgate.'): string[] {
  const found: string[] = [];
  for (const o of ours) {
    const ok = normalizeKey(o.key);
    for (const d of defaults) {
      if (d.command.startsWith(ownPrefix)) continue;
      const dk = normalizeKey(d.key);
      if (dk === ok || dk.startsWith(ok + ' ') || ok.startsWith(dk + ' '))
        found.push(`${o.command} (${o.key}) clashes with ${d.command} (${d.key}${d.when ? ` when ${d.when}` : ''})`);
    }
  }
  return found;
}
