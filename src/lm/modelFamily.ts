// The `family` of a Modelgate model in vscode.lm. VS Code's chat (and the extensions that build
// on it) pick their tuned prompts and behaviours by family prefix (`gpt-4.1`, `gpt-5`, `o4-mini`,
// `claude-sonnet-4`, `gemini-2.5-pro`, ...), so a gateway id such as `openai/gpt-4o-2024-08-06`
// or `anthropic/claude-sonnet-4-20250514` is reported as the family it belongs to. An id of no
// known family keeps its own (cleaned) name. Pure, unit-tested in plain Node.

/** `vendor/model:tag` → `model`, lower case, without a trailing date or `-latest`. */
export function baseModelId(id: string): string {
  let s = id.trim().toLowerCase();
  s = s.slice(s.lastIndexOf('/') + 1);
  s = s.replace(/:.*$/, '');
  s = s.replace(/-(latest|preview)$/, '');
  s = s.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, '');
  return s;
}

const FAMILIES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^gpt-5(?:\.(\d+))?(-mini|-nano|-codex)?/, (m) => `gpt-5${m[1] ? `.${m[1]}` : ''}${m[2] ?? ''}`],
  [/^gpt-4\.1(-mini|-nano)?/, (m) => `gpt-4.1${m[1] ?? ''}`],
  [/^gpt-4o(-mini)?/, (m) => `gpt-4o${m[1] ?? ''}`],
  [/^o([134])(-mini|-pro)?(?![\w.])/, (m) => `o${m[1]}${m[2] ?? ''}`],
  // claude-sonnet-4-5, claude-opus-4.1, claude-haiku-4
  [/^claude-(opus|sonnet|haiku)-(\d+)(?:[.-](\d)(?!\d))?/, (m) => `claude-${m[1]}-${m[2]}${m[3] ? `.${m[3]}` : ''}`],
  // claude-3-5-sonnet, claude-3.7-sonnet, claude-3-opus
  [/^claude-(\d)(?:[.-](\d))?-(opus|sonnet|haiku)/, (m) => `claude-${m[1]}${m[2] ? `.${m[2]}` : ''}-${m[3]}`],
  [/^gemini-(\d+(?:\.\d+)?)-(pro|flash-lite|flash)/, (m) => `gemini-${m[1]}-${m[2]}`],
];

export function modelFamily(id: string): string {
  const base = baseModelId(id);
  for (const [re, name] of FAMILIES) {
    const m = re.exec(base);
    if (m) return name(m);
  }
  return base || id;
}
