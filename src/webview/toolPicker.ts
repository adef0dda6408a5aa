// The composer's picker of tools from VS Code (MCP servers, other extensions): one checkbox per
// tool, off until the user switches it on for this conversation, with its source and roughly what
// it adds to every request: tokens, and what they cost at the model's input price when a price is
// known (src/agentTools/vscodeTools; never "$0" for an unknown price). Hidden while VS Code lists none.
// VS Code 1.139 tells extensions nothing when its tools change (an MCP server started), so the
// picker asks the host for the current list whenever the panel or its message box gets the focus
// and when it is opened; the host answers only when the list changed. While the list is the same
// the rows are updated in place, so an answer never takes a click or the focus from a checkbox.
// A tool too large to offer (its description or schema would go with every request) is listed with
// its checkbox disabled and the host's note why.
// Names and sources come from other extensions and MCP servers: textContent only.
import type { VscodeToolView, WebviewMessage } from '../chat/protocol';
import { clear, h } from './dom';
import { formatUsd } from './format';
import { l10n } from './panelL10n';

/** "~$0.0006" (the panel's money format, as a rough figure); "<$0.00001" where that would read $0.00. */
export function formatToolCost(usd: number): string {
  return usd < 0.000005 ? `<${formatUsd(0.00001)}` : `~${formatUsd(usd)}`;
}

interface Row {
  box: HTMLInputElement;
  label: HTMLElement;
  name: HTMLElement;
  meta: HTMLElement;
}

export class ToolPicker {
  readonly element: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLElement;
  private readonly note: HTMLElement;
  /** the rows shown, by VS Code's name of the tool, in the host's order */
  private rows = new Map<string, Row>();

  constructor(
    private readonly doc: Document,
    post: (m: WebviewMessage) => void,
  ) {
    this.summary = h(doc, 'summary', { className: 'tool-picker-summary' });
    this.list = h(doc, 'div', { className: 'tool-picker-list', attrs: { role: 'group', 'aria-label': l10n.t('Tools from VS Code') } });
    this.note = h(doc, 'div', { className: 'tool-picker-note' });
    this.note.hidden = true;
    this.element = h(doc, 'details', { className: 'tool-picker' }, [this.summary, this.list, this.note]);
    this.element.hidden = true;
    const refresh = () => post({ type: 'refreshVscodeTools' });
    this.element.addEventListener('toggle', () => {
      if (this.element.open) refresh();
    });
    // back in the panel (from the command palette, MCP: List Servers, an editor), or into the message box
    doc.defaultView?.addEventListener('focus', refresh);
    doc.addEventListener('focusin', (e) => {
      if ((e.target as Element | null)?.classList?.contains('message-input')) refresh();
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
    // one price for all of them: the model's; unknown when a row has none
    const priced = rows.every((t) => t.cost !== undefined);
    const cost = on.reduce((n, t) => n + (t.cost ?? 0), 0);
    this.summary.textContent =
      on.length === 0
        ? l10n.t('Tools from VS Code: none on ({0} available)', rows.length)
        : !priced
          ? l10n.t('Tools from VS Code: {0} of {1} on (~{2} tokens per request, cost unknown)', on.length, rows.length, tokens)
          : cost > 0
            ? l10n.t('Tools from VS Code: {0} of {1} on (~{2} tokens, {3} per request)', on.length, rows.length, tokens, formatToolCost(cost))
            : l10n.t('Tools from VS Code: {0} of {1} on (~{2} tokens per request)', on.length, rows.length, tokens);
    this.summary.title = this.summary.textContent; // the row may cut it short
    this.note.textContent = priced ? '' : l10n.t('No price is known for this model, so what each tool costs per request is not shown.');
    this.note.hidden = priced || rows.length === 0;

    const shown = [...this.rows.keys()];
    const same = rows.length === shown.length && rows.every((t, i) => shown[i] === t.name);
    if (!same) this.rebuild(rows);
    for (const t of rows) {
      const row = this.rows.get(t.name)!;
      if (row.box.checked !== t.on) row.box.checked = t.on;
      row.box.disabled = t.refused !== undefined;
      row.label.classList.toggle('tool-picker-refused', t.refused !== undefined);
      row.name.textContent = t.label;
      row.meta.textContent =
        t.refused !== undefined
          ? l10n.t('{0} · {1}', t.source, t.refused)
          : t.cost !== undefined && t.cost > 0
            ? l10n.t('{0} · ~{1} tokens, {2} per request', t.source, t.tokens, formatToolCost(t.cost))
            : l10n.t('{0} · ~{1} tokens per request', t.source, t.tokens);
      row.label.title = `${t.name}\n${row.meta.textContent}`; // VS Code's name, which the label may not be
    }
  }

  /** New rows for a new list; the focus stays on the same tool's checkbox if it was on one. */
  private rebuild(tools: readonly VscodeToolView[]): void {
    const focused = this.doc.activeElement?.getAttribute('data-vscode-tool');
    clear(this.list);
    this.rows = new Map();
    for (const t of tools) {
      const box = h(this.doc, 'input', { attrs: { type: 'checkbox', 'data-vscode-tool': t.name } });
      const name = h(this.doc, 'span', { className: 'tool-picker-name' });
      const meta = h(this.doc, 'span', { className: 'tool-picker-meta' });
      const label = h(this.doc, 'label', { className: 'tool-picker-row' }, [box, name, meta]);
      this.list.appendChild(label);
      this.rows.set(t.name, { box, label, name, meta });
    }
    if (focused) this.rows.get(focused)?.box.focus();
  }
}
