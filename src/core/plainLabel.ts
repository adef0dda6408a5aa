// Text shown as a one-line label in VS Code (a quick pick's label and detail, a status bar entry,
// the panel's title) when it comes from a conversation or a model: nothing in it can hide, reorder
// or draw. Pure.

/**
 * Control characters, bidi overrides and isolates (U+202A-202E, U+2066-2069) and other invisible
 * format characters: a title or snippet that carries them can reorder or hide what the list shows.
 */
const HIDDEN_CHARS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * Text shown as a label (quick pick label and detail, the panel's title): hidden characters out,
 * whitespace collapsed, and no `$(icon)` syntax (VS Code would draw `$(name)` as an icon): a
 * zero-width space goes between `$` and `(`.
 */
export function plainLabel(text: string): string {
  return text.replace(HIDDEN_CHARS, '').replace(/\s+/g, ' ').trim().replace(/\$\(/g, '$\u200b(');
}
