// The composer's picker of tools from VS Code (src/webview/toolPicker.ts) in jsdom: what it says
// each tool and the switched-on ones add to every request (tokens, and their cost at the model's
// price, in the panel's money format; never "$0" when no price is known), when it asks the host for
// a fresh list (the panel or its message box gets the focus, the picker opens), and that an
// unchanged list is updated in place (the focused checkbox stays, a click is not lost).
import * as assert from 'node:assert/strict';
import type { VscodeToolView, WebviewMessage } from '../../../src/chat/protocol';
import { formatToolCost, ToolPicker } from '../../../src/webview/toolPicker';
import { newWindow } from './jsdomEnv';

const row = (name: string, tokens: number, on: boolean, cost?: number): VscodeToolView => ({
  name,
  label: name,
  source: 'From MCP server “mgtest”',
  tokens,
  on,
  ...(cost !== undefined ? { cost } : {}),
});

function picker() {
  const win = newWindow();
  const doc = win.document;
  const posted: WebviewMessage[] = [];
  const p = new ToolPicker(doc, (m) => void posted.push(m));
  const input = doc.createElement('textarea');
  input.className = 'message-input';
  doc.body.append(p.element, input);
  const summary = () => p.element.querySelector('summary')!.textContent;
  const metas = () => Array.from(p.element.querySelectorAll('.tool-picker-meta')).map((m) => m.textContent);
  const note = () => p.element.querySelector<HTMLElement>('.tool-picker-note')!;
  const refreshes = () => posted.filter((m) => m.type === 'refreshVscodeTools').length;
  return { win, doc, p, input, posted, summary, metas, note, refreshes };
}

describe('webview tool picker: size and cost per request, refresh on focus', () => {
  it('formats a rough cost like the panel’s other money figures, never as $0', () => {
    assert.equal(formatToolCost(0.0006), '~$0.0006');
    assert.equal(formatToolCost(0.00123), '~$0.00123');
    assert.equal(formatToolCost(0.0123), '~$0.0123');
    assert.equal(formatToolCost(0.000002), '<$0.00001', 'what would round to $0.00');
  });

  it('shows tokens and cost per tool and for the switched-on ones', () => {
    const t = picker();
    // 200 and 100 tokens at $3 per 1M input tokens
    t.p.setTools([row('mcp_a', 200, true, 0.0006), row('mcp_b', 100, false, 0.0003)]);
    assert.equal(t.p.element.hidden, false);
    assert.equal(t.summary(), 'Tools from VS Code: 1 of 2 on (~200 tokens, ~$0.0006 per request)');
    assert.deepEqual(t.metas(), [
      'From MCP server “mgtest” · ~200 tokens, ~$0.0006 per request',
      'From MCP server “mgtest” · ~100 tokens, ~$0.0003 per request',
    ]);
    assert.equal(t.note().hidden, true);
    t.p.setTools([row('mcp_a', 200, true, 0.0006), row('mcp_b', 100, true, 0.0003)]);
    assert.equal(t.summary(), 'Tools from VS Code: 2 of 2 on (~300 tokens, ~$0.0009 per request)');
    t.p.setTools([row('mcp_a', 200, false, 0.0006), row('mcp_b', 100, false, 0.0003)]);
    assert.equal(t.summary(), 'Tools from VS Code: none on (2 available)');
  });

  it('says the cost is unknown when no price is known, and shows no cost for a free model; never $0', () => {
    const t = picker();
    t.p.setTools([row('mcp_a', 200, true), row('mcp_b', 100, false)]);
    assert.equal(t.summary(), 'Tools from VS Code: 1 of 2 on (~200 tokens per request, cost unknown)');
    assert.deepEqual(t.metas(), ['From MCP server “mgtest” · ~200 tokens per request', 'From MCP server “mgtest” · ~100 tokens per request']);
    assert.equal(t.note().hidden, false);
    assert.match(t.note().textContent ?? '', /No price is known for this model/);
    t.p.setTools([row('mcp_a', 200, true, 0), row('mcp_b', 100, false, 0)]);
    assert.equal(t.summary(), 'Tools from VS Code: 1 of 2 on (~200 tokens per request)');
    assert.equal(t.note().hidden, true);
    assert.doesNotMatch(t.p.element.textContent ?? '', /\$0(\.0+)?(?![\d.])/, 'no $0 anywhere');
    t.p.setTools([]);
    assert.equal(t.p.element.hidden, true, 'hidden while VS Code lists none');
  });

  it('asks the host for a fresh list when the panel or its message box gets the focus, and when opened', () => {
    const t = picker();
    t.p.setTools([]);
    assert.equal(t.refreshes(), 0);
    t.win.dispatchEvent(new t.win.FocusEvent('focus')); // back in the panel from elsewhere in VS Code
    assert.equal(t.refreshes(), 1);
    t.input.focus(); // into the message box
    assert.equal(t.refreshes(), 2);
    t.p.setTools([row('mcp_a', 200, false)]);
    const box = t.p.element.querySelector('input')!;
    box.focus(); // a checkbox of the picker: no refresh (its toggle posts)
    assert.equal(t.refreshes(), 2);
    t.p.element.open = true;
    t.p.element.dispatchEvent(new t.win.Event('toggle'));
    assert.equal(t.refreshes(), 3);
  });

  it('updates an unchanged list in place (same elements, focus kept); a new list keeps the focused tool focused', () => {
    const t = picker();
    t.p.setTools([row('mcp_a', 200, false, 0.0006), row('mcp_b', 100, false, 0.0003)]);
    const [a, b] = Array.from(t.p.element.querySelectorAll('input'));
    b!.focus();
    t.p.setTools([row('mcp_a', 200, true, 0.0006), row('mcp_b', 100, false, 0.0003)]);
    const [a2, b2] = Array.from(t.p.element.querySelectorAll('input'));
    assert.equal(a2, a, 'the same checkbox');
    assert.equal(b2, b);
    assert.equal(a2!.checked, true);
    assert.equal(t.doc.activeElement, b);
    // an MCP server started: a new row; the focus stays on mcp_b
    t.p.setTools([row('mcp_a', 200, true, 0.0006), row('mcp_new', 50, false, 0.00015), row('mcp_b', 100, false, 0.0003)]);
    assert.equal(t.p.element.querySelectorAll('input').length, 3);
    assert.equal(t.doc.activeElement?.getAttribute('data-vscode-tool'), 'mcp_b');
    t.p.element.querySelector<HTMLInputElement>('[data-vscode-tool="mcp_new"]')!.click();
    assert.deepEqual(
      t.posted.filter((m) => m.type === 'toggleVscodeTool'),
      [{ type: 'toggleVscodeTool', name: 'mcp_new' }],
    );
  });

  it('a tool too large to offer has its checkbox disabled and the host’s note instead of its size', () => {
    const t = picker();
    const note = 'Not offered: its description has 10485760 characters (the limit is 8000), and it would be sent with every request.';
    t.p.setTools([row('mcp_a', 200, true, 0.0006), { ...row('mcp_huge', 2_621_440, false, 7.86), refused: note }]);
    const [a, huge] = Array.from(t.p.element.querySelectorAll('input'));
    assert.equal(a!.disabled, false);
    assert.equal(huge!.disabled, true);
    assert.equal(huge!.checked, false);
    assert.deepEqual(
      Array.from(t.p.element.querySelectorAll('label')).map((l) => l.classList.contains('tool-picker-refused')),
      [false, true],
      'the refused row is marked, so its name reads as unavailable',
    );
    assert.deepEqual(t.metas(), ['From MCP server “mgtest” · ~200 tokens, ~$0.0006 per request', `From MCP server “mgtest” · ${note}`]);
    assert.equal(t.summary(), 'Tools from VS Code: 1 of 2 on (~200 tokens, ~$0.0006 per request)');
  });
});
