// A tool call inside an assistant message: a <details> whose summary names the tool, its main
// arguments and its status; the result stays collapsed until the user opens it.
import type { ToolCallView as ToolCall } from '../chat/protocol';
import { h } from './dom';
import { l10n } from './panelL10n';
import { icon } from './icons';

const STATUS_TEXT: Record<ToolCall['status'], string> = {
  running: l10n.t('running…'),
  done: l10n.t('done'),
  error: l10n.t('failed'),
  denied: l10n.t('not run'),
};

const SHORT_ARGS_MAX = 60;

/** `{"path":"src/a.ts","startLine":3}` -> `src/a.ts, 3`: what a person scans for in a summary. */
export function shortArguments(json: string): string {
  let shown: string;
  try {
    const v: unknown = JSON.parse(json);
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      shown = Object.values(v as Record<string, unknown>)
        .filter((x) => ['string', 'number', 'boolean'].includes(typeof x))
        .map(String)
        .join(', ');
    } else shown = JSON.stringify(v);
  } catch {
    shown = json;
  }
  shown = shown.replace(/\s+/g, ' ').trim();
  return shown.length > SHORT_ARGS_MAX ? `${shown.slice(0, SHORT_ARGS_MAX - 1)}…` : shown;
}

function prettyArguments(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

export class ToolCallElement {
  readonly element: HTMLDetailsElement;
  private readonly statusEl: HTMLElement;
  private readonly argsEl: HTMLElement;
  private readonly argsFull: HTMLElement;
  private readonly resultEl: HTMLElement;

  constructor(doc: Document, call: ToolCall) {
    this.statusEl = h(doc, 'span', { className: 'tool-status' });
    this.argsEl = h(doc, 'span', { className: 'tool-args' });
    this.argsFull = h(doc, 'pre', { className: 'tool-args-full' });
    this.resultEl = h(doc, 'pre', { className: 'tool-result' });
    this.element = h(doc, 'details', { className: 'tool-call', attrs: { 'data-tool-call-id': call.id } }, [
      h(doc, 'summary', {}, [icon(doc, 'tool'), h(doc, 'span', { className: 'tool-name', text: call.name }), this.argsEl, this.statusEl]),
      h(doc, 'div', { className: 'tool-body' }, [
        h(doc, 'div', { className: 'tool-section-label', text: l10n.t('Arguments') }),
        this.argsFull,
        h(doc, 'div', { className: 'tool-section-label', text: l10n.t('Result') }),
        this.resultEl,
      ]),
    ]);
    this.update(call);
  }

  update(call: ToolCall): void {
    this.element.className = `tool-call tool-${call.status}`;
    this.statusEl.textContent = STATUS_TEXT[call.status] ?? call.status;
    const short = shortArguments(call.arguments ?? '');
    this.argsEl.textContent = short;
    this.argsEl.title = short;
    this.argsFull.textContent = prettyArguments(call.arguments ?? '');
    this.resultEl.textContent = call.result ?? (call.status === 'running' ? l10n.t('Waiting for the result…') : l10n.t('(no result)'));
  }
}
