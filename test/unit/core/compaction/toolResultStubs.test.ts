// Old tool results that a later one replaces become a one-line stub naming what was there; the
// latest of each stays whole, and results of other targets are untouched.
import * as assert from 'node:assert/strict';
import { stubSupersededResults, STUB_PREFIX } from '../../../../src/core/compaction/toolResultStubs';
import { applyStubs, supersededCalls } from '../../../../src/core/compaction/compactedHistory';
import type { ChatMessage } from '../../../../src/core/client/types';

function round(id: string, name: string, args: object, result: string): ChatMessage[] {
  return [
    { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
    { role: 'tool', tool_call_id: id, content: result },
  ];
}
const long = (s: string) => `${s}\n`.repeat(40);

describe('tool result stubs: superseded output shortened to one line', () => {
  const wire: ChatMessage[] = [
    ...round('r1', 'read_file', { path: 'src/a.ts' }, long('old a')),
    ...round('r2', 'read_file', { path: 'src/b.ts' }, long('b')),
    ...round('s1', 'search_text', { query: 'TODO' }, long('src/x.ts:1 TODO')),
    ...round('c1', 'run_command', { command: 'npm test' }, long('1 failing')),
    ...round('r3', 'read_file', { path: 'src/a.ts' }, long('new a')),
    ...round('s2', 'search_text', { query: 'TODO' }, long('src/y.ts:2 TODO')),
    ...round('c2', 'run_command', { command: 'npm test' }, long('all passing')),
  ];

  it('stubs a read of a file read again later, and a search or command run again', () => {
    const { messages, stubbed, savedChars } = stubSupersededResults(wire);
    assert.equal(stubbed, 3);
    assert.ok(savedChars > 0);
    const content = (id: string) => String(messages.find((m) => m.tool_call_id === id)!.content);
    assert.match(
      content('r1'),
      /^\[Shortened: read_file on src\/a\.ts returned 40 lines, 240 characters here; a later read_file on the same target replaced it\. Call read_file again if you need it\.\]$/,
    );
    assert.match(content('s1'), /^\[Shortened: search_text on TODO returned 40 lines/);
    assert.match(content('c1'), /^\[Shortened: run_command on npm test/);
    for (const id of ['r2', 'r3', 's2', 'c2']) assert.ok(!content(id).startsWith(STUB_PREFIX), `${id} stays whole`);
  });

  it('leaves a stub alone and changes nothing without a later call', () => {
    const once = stubSupersededResults(wire).messages;
    assert.equal(stubSupersededResults(once).stubbed, 0);
    const single = round('x', 'read_file', { path: 'a' }, long('a'));
    assert.deepEqual(stubSupersededResults(single).messages, single);
  });

  it('does not stub a result shorter than its stub, nor an edit', () => {
    const w = [
      ...round('e1', 'edit_file', { path: 'a' }, 'Staged.'),
      ...round('e2', 'edit_file', { path: 'a' }, 'Staged.'),
      ...round('r1', 'read_file', { path: 'a' }, 'x'),
      ...round('r2', 'read_file', { path: 'a' }, 'y'),
    ];
    assert.equal(stubSupersededResults(w).stubbed, 0);
  });

  it('stores the stubbed call ids and applies exactly those later', () => {
    const ids = supersededCalls(wire);
    assert.deepEqual(ids, ['r1', 's1', 'c1']);
    const applied = applyStubs(wire, new Set(ids));
    assert.ok(String(applied[1]!.content).startsWith(STUB_PREFIX));
    assert.equal(applied[3], wire[3], 'an untouched message is the same object');
  });
});
