// The fill-in-the-middle prompt: the window around the cursor within its token budget (cut at
// whole lines, its start moving in steps so the prompt cache holds), the layout with the stable
// part first, the mode, stop sequence, max_tokens and effort of the request.
import * as assert from 'node:assert/strict';
import { documentWindow, linesOf, WINDOW_STEP_LINES } from '../../../../src/core/completions/documentWindow';
import {
  buildFimPrompt,
  completionMode,
  COMPLETION_CLOSE,
  DEFAULT_FIM_BUDGET,
  FIM_HOLE,
  FIM_SYSTEM_PROMPT,
  fimRequest,
  fitSnippets,
  MAX_TOKENS,
} from '../../../../src/core/completions/fimPrompt';
import { estimateTokens } from '../../../../src/core/prompt/tokens';
import { commonPrefixLength } from '../../../gateway/prompt-cache';

/** A file of `n` numbered lines of about 10 tokens each. */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `const value${i} = compute(${i}); // ${i}`).join('\n');

describe('documentWindow', () => {
  it('sends a small file whole, split at the cursor', () => {
    const doc = linesOf('function f() {\n  return 1;\n}\n');
    const w = documentWindow(doc, { line: 1, character: 9 }, { prefixTokens: 500, suffixTokens: 200 });
    assert.equal(w.prefix, 'function f() {\n  return ');
    assert.equal(w.suffix, '1;\n}\n');
    assert.equal(w.lineBefore, '  return ');
    assert.equal(w.lineAfter, '1;');
    assert.equal(w.cutAbove, false);
    assert.equal(w.cutBelow, false);
  });

  it('keeps prefix and suffix within their budgets, cut at whole lines', () => {
    const doc = linesOf(numbered(2000));
    const budget = { prefixTokens: 300, suffixTokens: 100 };
    const w = documentWindow(doc, { line: 1000, character: 5 }, budget);
    assert.ok(estimateTokens(w.prefix) <= budget.prefixTokens + 40, `prefix ${estimateTokens(w.prefix)} tokens`);
    assert.ok(estimateTokens(w.suffix) <= budget.suffixTokens + 20, `suffix ${estimateTokens(w.suffix)} tokens`);
    assert.ok(w.prefix.startsWith('const value'), 'the prefix starts at the beginning of a line');
    assert.ok(w.suffix.endsWith(`// ${w.lastLine}`), 'the suffix ends at the end of a line');
    assert.ok(w.cutAbove && w.cutBelow);
    assert.ok(w.tokens <= budget.prefixTokens + budget.suffixTokens);
  });

  it('reads only the lines that fit, however long the file', () => {
    const read = new Set<number>();
    const doc = { lineCount: 1_000_000, lineAt: (i: number) => (read.add(i), `line ${i} of a long generated file`) };
    documentWindow(doc, { line: 500_000, character: 0 }, { prefixTokens: 400, suffixTokens: 100 });
    assert.ok(read.size < 200, `read ${read.size} lines`);
  });

  it('gives the suffix budget it does not use to the prefix (a cursor near the end of a file)', () => {
    const doc = linesOf(numbered(400));
    const atEnd = documentWindow(doc, { line: 399, character: 0 }, { prefixTokens: 200, suffixTokens: 200 });
    const inMiddle = documentWindow(doc, { line: 200, character: 0 }, { prefixTokens: 200, suffixTokens: 200 });
    assert.ok(atEnd.prefix.length > inMiddle.prefix.length * 1.5, `${atEnd.prefix.length} vs ${inMiddle.prefix.length}`);
  });

  it('starts the window on a step boundary, so typing on keeps the same start (prompt cache)', () => {
    const lines = numbered(300).split('\n');
    const budget = { prefixTokens: 600, suffixTokens: 100 };
    const starts = new Set<number>();
    // the user types a new line below line 200, one character at a time, and then the next line
    let text = lines.slice(0, 201).join('\n') + '\n';
    for (const ch of 'const added = compute(1);\nconst more = 2;') {
      text += ch;
      const doc = linesOf(text + '\n' + lines.slice(201).join('\n'));
      const all = text.split('\n');
      const w = documentWindow(doc, { line: all.length - 1, character: all[all.length - 1]!.length }, budget);
      starts.add(w.firstLine);
      assert.equal(w.firstLine % WINDOW_STEP_LINES, 0, `start ${w.firstLine}`);
    }
    assert.equal(starts.size, 1, `starts: ${[...starts].join(', ')}`);
  });

  it('cuts one enormous cursor line from the left, keeping the text next to the cursor', () => {
    const line = 'x'.repeat(50_000) + 'TAIL';
    const w = documentWindow(linesOf(line), { line: 0, character: line.length }, { prefixTokens: 100, suffixTokens: 50 });
    assert.ok(w.prefix.endsWith('TAIL'));
    assert.ok(w.prefix.length <= 400, `${w.prefix.length} characters`);
    assert.equal(w.cutAbove, true);
  });

  it('clamps a cursor past the end of its line or of the file', () => {
    const w = documentWindow(linesOf('ab\ncd'), { line: 9, character: 99 }, { prefixTokens: 100, suffixTokens: 50 });
    assert.equal(w.prefix, 'ab\ncd');
    assert.equal(w.suffix, '');
  });
});

describe('buildFimPrompt', () => {
  const file = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function mean(xs: number[]): number {\n  return \n}\n';
  const input = { path: 'src/math.ts', languageId: 'typescript', lines: linesOf(file), cursor: { line: 5, character: 9 } };

  it('puts the fixed instruction first and the text around the cursor, with the hole, in the user message', () => {
    const p = buildFimPrompt(input);
    assert.equal(p.messages[0]!.role, 'system');
    assert.equal(p.messages[0]!.content, FIM_SYSTEM_PROMPT);
    const user = p.messages[1]!.content as string;
    assert.ok(user.includes('<FILE path="src/math.ts" language="typescript">'));
    assert.ok(user.includes(`<QUERY>\n${file.slice(0, file.indexOf('  return \n') + 9)}${FIM_HOLE}\n}\n`), user);
    assert.equal(p.stop[0], COMPLETION_CLOSE);
  });

  it('is the same up to the cursor on the next keystroke: the cached part grows with the file', () => {
    const a = buildFimPrompt(input);
    const typed = file.replace('  return \n', '  return x\n');
    const b = buildFimPrompt({ ...input, lines: linesOf(typed), cursor: { line: 5, character: 10 } });
    const sa = JSON.stringify(a.messages);
    const sb = JSON.stringify(b.messages);
    const shared = commonPrefixLength(sa, sb);
    assert.ok(sa.slice(0, shared).endsWith('  return '), `shared up to: ${JSON.stringify(sa.slice(shared - 20, shared))}`);
  });

  it('puts related snippets before the file, each cut to whole lines within what is left, leaving out what does not fit', () => {
    const related = [
      { path: 'src/a.ts', text: 'export const A = 1;\nexport const B = 2;' },
      { path: 'src/huge.ts', text: numbered(500) },
      { path: 'src/c.ts', text: numbered(3) },
      { path: 'src/d.ts', text: 'export const D = 4;' },
    ];
    const p = buildFimPrompt({ ...input, related, budget: { ...DEFAULT_FIM_BUDGET, snippetTokens: 250 } });
    const user = p.messages[1]!.content as string;
    assert.ok(user.indexOf('<SNIPPET path="src/a.ts">') < user.indexOf('<FILE'));
    assert.deepEqual(
      p.snippets.map((s) => s.path),
      ['src/a.ts', 'src/huge.ts', 'src/c.ts'],
    );
    assert.ok(estimateTokens(p.snippets[1]!.text) <= 200, 'a snippet is cut to its own cap');
    assert.ok(p.snippets[1]!.text.endsWith('// ' + (p.snippets[1]!.text.split('\n').length - 1)), 'cut at a whole line');
    assert.ok(p.snippets[2]!.text.split('\n').length < 3, 'the last one is cut to what is left');
    assert.ok(!user.includes('src/d.ts'), 'what no longer fits is left out');
  });

  it('does not send an empty snippet, and escapes quotes in paths', () => {
    assert.deepEqual(fitSnippets([{ path: 'a', text: '\n\n' }], 100), []);
    const p = buildFimPrompt({ ...input, path: 'we"ird\nname.ts' });
    assert.ok((p.messages[1]!.content as string).includes('<FILE path="we\\"ird\\nname.ts"'));
  });

  it('asks for the rest of the line when text follows the cursor, for a block at the end of a line', () => {
    assert.equal(completionMode(''), 'block');
    assert.equal(completionMode('   '), 'block');
    assert.equal(completionMode(');'), 'block');
    assert.equal(completionMode('}'), 'block');
    assert.equal(completionMode(' + b;'), 'line');
    assert.equal(completionMode('xs.length'), 'line');
    const line = buildFimPrompt({ ...input, lines: linesOf('const x = foo(a, b);\n'), cursor: { line: 0, character: 14 } });
    assert.equal(line.mode, 'line');
    assert.equal(line.maxTokens, MAX_TOKENS.line);
    assert.match(line.messages[1]!.content as string, /rest of its line only/);
    const block = buildFimPrompt(input);
    assert.equal(block.mode, 'block');
    assert.equal(block.maxTokens, MAX_TOKENS.block);
  });

  it('estimates the prompt within a few percent of the budget it was given', () => {
    const p = buildFimPrompt({ ...input, lines: linesOf(numbered(3000)), cursor: { line: 1500, character: 3 } });
    const b = DEFAULT_FIM_BUDGET;
    assert.ok(p.promptTokens <= estimateTokens(FIM_SYSTEM_PROMPT) + b.prefixTokens + b.suffixTokens + 120, `${p.promptTokens}`);
  });
});

describe('fimRequest', () => {
  const prompt = buildFimPrompt({ path: 'a.ts', languageId: 'typescript', lines: linesOf('let x = '), cursor: { line: 0, character: 8 } });

  it('asks for a small answer with the stop sequence, on the chosen channel', () => {
    const r = fimRequest(prompt, { model: 'flagship-text', channel: 'economical' });
    assert.equal(r.model, 'flagship-text');
    assert.deepEqual(r.provider, { channel: 'economical' });
    assert.equal(r.max_tokens, MAX_TOKENS.block);
    assert.deepEqual(r.stop, [COMPLETION_CLOSE]);
    assert.equal(r.reasoning_effort, undefined);
  });

  it('asks for the lowest effort where the model has an effort control, and sends no channel for the default', () => {
    const r = fimRequest(prompt, { model: 'thinker', reasoning: true });
    assert.equal(r.reasoning_effort, 'low');
    assert.equal(r.provider, undefined);
  });
});
