// The link inserted into the document the command started from: Markdown `![alt](path)` or
// HTML `<img src="path" alt="...">`, with a path relative to the document. Paths are
// percent-encoded per segment (spaces, parentheses, quotes), alt text escaped for its language.
// Pure; paths are POSIX paths (vscode.Uri.path).
import { path } from '../platform/path';

export type LinkLanguage = 'markdown' | 'html';

export function linkLanguage(languageId: string): LinkLanguage | undefined {
  if (languageId === 'markdown' || languageId === 'mdx') return 'markdown';
  if (languageId === 'html') return 'html';
  return undefined;
}

/** Relative URL path from the folder of `documentPath` to `imagePath`, each segment encoded. */
export function relativeLink(documentPath: string, imagePath: string): string {
  const rel = path.posix.relative(path.posix.dirname(documentPath), imagePath);
  return rel
    .split('/')
    .map((segment) =>
      segment === '..' || segment === '.'
        ? segment
        : // encodeURIComponent leaves ( ) ! ' * alone; ( ) end a Markdown link and ' ends an attribute
          encodeURIComponent(segment).replace(/[()!'*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
}

const MAX_ALT = 80;

/** One line, at most 80 characters, cut at a word when possible. */
export function shortAlt(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  if (line.length <= MAX_ALT) return line;
  const cut = line.slice(0, MAX_ALT);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_ALT / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Escapes what would end or change Markdown alt text: brackets, backslashes, emphasis, HTML. */
export function escapeMarkdownAlt(text: string): string {
  return text.replace(/[\\[\]*_`<>]/g, (c) => `\\${c}`);
}

export function escapeHtmlAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The text to insert for the images, one link per line. */
export function imageLinkText(language: LinkLanguage, documentPath: string, imagePaths: readonly string[], prompt: string): string {
  const alt = shortAlt(prompt);
  return imagePaths
    .map((p) => {
      const src = relativeLink(documentPath, p);
      return language === 'markdown' ? `![${escapeMarkdownAlt(alt)}](${src})` : `<img src="${escapeHtmlAttribute(src)}" alt="${escapeHtmlAttribute(alt)}">`;
    })
    .join('\n');
}
