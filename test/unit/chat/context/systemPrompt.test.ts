// The system prompt per mode (src/chat/context/systemPrompt.ts): what it tells the model of its
// tools matches the tools the request offers, and the same tools always give the same bytes (it
// is the start of the cached prefix).
import * as assert from 'node:assert/strict';
import type { ToolDefinition } from '../../../../src/core/client/types';
import { systemPrompt } from '../../../../src/chat/context/systemPrompt';
import { TOOL_DEFINITIONS } from '../../../../src/agentTools/schemas';

const only = (...names: string[]): ToolDefinition[] => TOOL_DEFINITIONS.filter((d) => names.includes(d.function.name));
const READ = ['read_file', 'list_files', 'search_text', 'get_selection', 'get_diagnostics'];
const EDIT = ['edit_file', 'create_file', 'delete_file'];
const vscodeTool: ToolDefinition = { type: 'function', function: { name: 'vscode_search', description: 'x', parameters: { type: 'object' } } };

describe('the system prompt per mode', () => {
  const desktop = systemPrompt(only(...READ, ...EDIT, 'run_command'));
  const web = systemPrompt(only(...READ, ...EDIT));
  const readOnly = systemPrompt(only(...READ));
  const none = systemPrompt(undefined);

  it('starts with the same introduction in every mode', () => {
    for (const p of [desktop, web, readOnly, none]) assert.match(p, /^You are Modelgate, a coding assistant inside Visual Studio Code\.\n/);
  });

  it('desktop, trusted: edits are staged for Keep or Undo and not on disk until kept; run_command runs on the disk', () => {
    assert.match(desktop, /edit tools \(edit_file, create_file, delete_file\) stage changes for the user to review/);
    assert.match(desktop, /Keep or Undo/);
    assert.match(desktop, /Nothing is on disk until the user keeps it/);
    assert.match(desktop, /run_command runs a command on the files on disk, and only after the user approves it/);
    assert.match(desktop, /not on disk, so a build or a test run does not see it/);
    assert.doesNotMatch(desktop, /cannot write|read-only\)|You cannot change files|run_command is not offered/);
  });

  it('web extension host: the edit tools, and run_command is not offered (the model tells the user what to run)', () => {
    assert.match(web, /stage changes for the user to review/);
    assert.match(web, /run_command is not offered here .*not in VS Code for the Web.*Tell the user what to run\./);
    assert.doesNotMatch(web, /run_command runs a command/);
  });

  it('read-only tools: the model cannot change files and never claims to have', () => {
    assert.match(readOnly, /Your tools read the workspace/);
    assert.match(readOnly, /You cannot change files: the user applies changes from your code blocks\. Never claim to have changed files\./);
    assert.doesNotMatch(readOnly, /stage changes/);
  });

  it('no tools (Restricted Mode, a model without tools): nothing can be read, changed or run', () => {
    assert.equal(systemPrompt([]), none);
    assert.match(none, /No workspace tools are offered in this conversation \(for example in Restricted Mode/);
    assert.match(none, /Never claim to have changed files or run commands/);
    assert.doesNotMatch(none, /edit_file|run_command|read_file/);
  });

  it('is a function of which of its own tools are offered only: byte-identical across calls, order and tools from VS Code', () => {
    assert.equal(systemPrompt(only(...READ, ...EDIT, 'run_command')), desktop);
    assert.equal(systemPrompt([...only(...READ, ...EDIT, 'run_command')].reverse()), desktop, 'the order of the tools does not matter');
    assert.equal(systemPrompt([...only(...READ, ...EDIT, 'run_command'), vscodeTool]), desktop, 'tools from VS Code do not change it');
    assert.equal(systemPrompt([vscodeTool]), none, 'tools from VS Code alone: none of its own');
    assert.equal(new Set([desktop, web, readOnly, none]).size, 4, 'each mode has its own wording');
  });
});
