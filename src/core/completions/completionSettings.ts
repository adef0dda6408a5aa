// The settings of completions that are lists or maps, read defensively: the exclude globs and the
// per-language switch. Small on purpose: the settings are read at activation.
import { l10n } from '../l10n';

/** The exclude setting as globs: strings only, trimmed, without empties and repeats, at most 100. */
export function excludeGlobs(raw: unknown): { globs: string[]; problem?: string } {
  if (raw === undefined || raw === null) return { globs: [] };
  if (!Array.isArray(raw))
    return { globs: [], problem: l10n.t('"modelgate.completions.exclude" must be a list of glob patterns, such as ["**/*.md", "secrets/**"].') };
  const strings = raw.filter((g): g is string => typeof g === 'string');
  const globs = [...new Set(strings.map((g) => g.trim()))].filter(Boolean);
  return {
    globs: globs.slice(0, 100),
    ...(strings.length < raw.length ? { problem: l10n.t('"modelgate.completions.exclude" has entries that are not glob strings; they are ignored.') } : {}),
  };
}

/** The per-language switch as given: `{"markdown": false}`; anything but booleans is dropped. */
export function languageSwitches(raw: unknown): Record<string, boolean> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) if (typeof v === 'boolean' && k) out[k] = v;
  return out;
}
