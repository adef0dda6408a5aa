// The chat webview's strings: `l10n.t('English message with {0}', arg)`, like vscode.l10n.t on
// the host. The host puts its loaded translation (vscode.l10n.bundle; none for English) into the
// page as `data-l10n` (src/chat/view/chatHtml.ts); it is read once, on the first call, so labels
// built while the bundle's modules load are translated too. Anything but a flat object of
// strings is ignored: the panel then speaks English. Results go into textContent and attributes,
// never into HTML.
type Args = Array<string | number | boolean>;

let bundle: Record<string, string> | undefined;

function valid(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, s] of Object.entries(v)) {
    if (typeof s === 'string') out[k] = s;
    else if (typeof s === 'object' && s !== null && typeof (s as { message?: unknown }).message === 'string') out[k] = (s as { message: string }).message;
  }
  return out;
}

/** The translation the host put into `doc` (empty when none or not valid). */
export function readL10nBundle(doc: Document | undefined): Record<string, string> {
  const raw = doc?.body?.getAttribute('data-l10n');
  if (!raw) return {};
  try {
    return valid(JSON.parse(raw));
  } catch {
    return {};
  }
}

/** Sets the translation (tests; undefined reads the page's again on the next call). */
export function setL10nBundle(contents: unknown): void {
  bundle = contents === undefined ? undefined : valid(contents);
}

export const l10n = {
  t(message: string, ...args: Args): string {
    bundle ??= readL10nBundle(typeof document === 'undefined' ? undefined : document);
    const text = Object.prototype.hasOwnProperty.call(bundle, message) ? bundle[message] : message;
    return text.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
  },
};
