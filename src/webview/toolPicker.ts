// The composer's picker of tools from VS Code (MCP servers, other extensions): one checkbox per
// tool, off until the user switches it on for this conversation, with its source and roughly how
// many tokens it adds to every request (src/chat/vscodeTools). Hidden while VS Code lists none.
// Names and sources come from other extensions and MCP servers: textContent only.
import type { VscodeToolView, WebviewMessage } from '../chat/protocol';
import { clear, h } from './dom';
import { l10n } from './l10n';

export class ToolPicker {
  readonly element: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLElement;

  constructor(
    private readonly doc: Document,
    post: (m: WebviewMessage) => void,
  ) {
    this.summary = h(doc, 'summary', { className: 'tool-picker-summary' });
    this.list = h(doc, 'div', { className: 'tool-picker-list', attrs: { role: 'group', 'aria-label': l10n.t('Tools from VS Code') } });
    this.element = h(doc, 'details', { className: 'tool-picker' }, [this.summary, this.list]);
    this.element.hidden = true;
    // VS Code 1.139 tells extensions nothing when its tools change (an MCP server started): ask for
    // the current list each time the picker opens
    this.element.addEventListener('toggle', () => {
      if (this.element.open) post({ type: 'refreshVscodeTools' });
    });
    this.list.addEventListener('change', (e) => {
      const box = e.target as HTMLInputElement | null;
      const name = box?.getAttribute('data-vscode-tool');
      if (name) post({ type: 'toggleVscodeTool', name });
    });
  }

  setTools(tools: readonly VscodeToolView[] | undefined): void {
    const rows = tools ?? [];
    this.element.hidden = rows.length === 0;
    const on = rows.filter((t) => t.on);
    const tokens = on.reduce((n, t) => n + t.tokens, 0);
    this.summary.textContent =
      on.length === 0
        ? l10n.t('Tools from VS Code: none on ({0} available)', rows.length)
        : l10n.t('Tools from VS Code: {0} of {1} on (~{2} tokens per request)', on.length, rows.length, tokens);
    this.summary.title = this.summary.textContent; // the row may cut it short
    clear(this.list);
    for (const t of rows) {
      const box = h(this.doc, 'input', { attrs: { type: 'checkbox', 'data-vscode-tool': t.name } });
      box.checked = t.on;
      this.list.appendChild(
        h(this.doc, 'label', { className: 'tool-picker-row', attrs: { title: t.name } }, [
          box,
          h(this.doc, 'span', { className: 'tool-picker-name', text: t.label }),
          h(this.doc, 'span', { className: 'tool-picker-meta', text: l10n.t('{0} · ~{1} tokens per request', t.source, t.tokens) }),
        ]),
      );
    }
  }
}
