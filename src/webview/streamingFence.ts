// An open top-level code fence while its answer streams (streamingMarkdown.ts): it is not re-lexed
// at all; new lines are appended to its <code> as text nodes, in segments of lines so the browser
// re-lays out only the last one, and its source is parsed once, when it closes.
import { codeElementOf, createCodeBlock, highlightCodeBlock } from './codeBlock';
import { h } from './dom';
import { isClosingFence, langFromInfo, md, type MdToken } from './markdown';

export interface FenceOptions {
  /** lines per streaming segment */
  segmentLines: number;
  highlight: boolean;
  /** colour on idle time (a streaming answer), not at once (a finished message rendered in one go) */
  deferHighlight: boolean;
  /** the renderer's counters: parses, parsed characters, fence appends, committed blocks */
  stats: { parses: number; parsedChars: number; fenceAppends: number; committedBlocks: number };
}

export class OpenCodeFence {
  readonly block: HTMLElement;
  private readonly code: HTMLElement;
  private readonly marker: string;
  private readonly indent: number;
  /** raw source of the fence (opening line included), re-parsed once when it closes */
  private readonly raw: string[];
  /** the incomplete last line, raw */
  private partialLine = '';
  /** text nodes showing the partial line (one per flush, so no node is ever rewritten) */
  private partialNodes: Text[] = [];
  private segment: HTMLElement;
  private segmentLines = 0;

  constructor(
    private readonly doc: Document,
    token: MdToken,
    opening: string,
    private readonly options: FenceOptions,
  ) {
    this.block = createCodeBlock(doc, langFromInfo(token.info), '');
    this.block.classList.add('streaming');
    this.code = codeElementOf(this.block)!;
    this.segment = h(doc, 'span', { className: 'code-segment' });
    this.code.appendChild(this.segment);
    this.marker = token.markup;
    this.indent = /^ */.exec(opening)![0].length;
    this.raw = [opening, '\n'];
  }

  /**
   * Appends text. Returns the text after the closing line (the fence is then final), or null
   * while it stays open. With `final`, the fence ends with the text.
   */
  feed(added: string, final: boolean): string | null {
    this.options.stats.fenceAppends++;
    let start = 0;
    const lines: string[] = [];
    let closedAt = -1;
    for (let nl = added.indexOf('\n'); nl >= 0; nl = added.indexOf('\n', start)) {
      // Only the newly arrived text is scanned; a partial line is joined once, when it ends.
      const line = this.partialLine ? this.partialLine + added.slice(start, nl) : added.slice(start, nl);
      this.partialLine = '';
      if (isClosingFence(line, this.marker)) {
        this.raw.push(line, '\n');
        closedAt = nl + 1;
        break;
      }
      this.raw.push(line, '\n');
      lines.push(stripIndent(line, this.indent));
      start = nl + 1;
    }
    if (lines.length) this.appendLines(lines);
    if (closedAt >= 0) {
      this.close();
      return added.slice(closedAt);
    }
    const rest = added.slice(start);
    if (rest) {
      this.partialLine += rest;
      const node = this.doc.createTextNode(this.partialNodes.length === 0 ? stripIndent(rest, this.indent) : rest);
      this.partialNodes.push(node);
      this.segment.appendChild(node);
    }
    if (final) {
      if (this.partialLine) this.raw.push(this.partialLine);
      this.close();
      return '';
    }
    return null;
  }

  private appendLines(lines: string[]): void {
    for (const n of this.partialNodes) n.remove();
    this.partialNodes = [];
    const max = this.options.segmentLines;
    let i = 0;
    while (i < lines.length) {
      if (this.segmentLines >= max) {
        this.segment = h(this.doc, 'span', { className: 'code-segment' });
        this.code.appendChild(this.segment);
        this.segmentLines = 0;
      }
      const take = Math.min(lines.length - i, max - this.segmentLines);
      this.segment.appendChild(this.doc.createTextNode(`${lines.slice(i, i + take).join('\n')}\n`));
      this.segmentLines += take;
      i += take;
    }
  }

  /** The fence is final: one parse of its source gives exactly the content a full render would. */
  private close(): void {
    const { stats } = this.options;
    // parsed directly: a fence's content is not inline-parsed, so it is never pathological
    const raw = this.raw.join('');
    stats.parses++;
    stats.parsedChars += raw.length;
    const tokens = md.parse(raw, {});
    const token = tokens.find((t) => t.type === 'fence');
    this.code.textContent = token ? token.content : '';
    this.block.classList.remove('streaming');
    if (this.options.highlight) highlightCodeBlock(this.block, undefined, this.options.deferHighlight);
    stats.committedBlocks++;
  }
}

function stripIndent(line: string, indent: number): string {
  if (indent === 0) return line;
  let i = 0;
  while (i < indent && line.charCodeAt(i) === 0x20) i++;
  return line.slice(i);
}
