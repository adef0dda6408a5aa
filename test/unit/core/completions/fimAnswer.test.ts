// Cleaning a chat model's answer to the fill-in-the-middle prompt: tags, code fences, the cursor
// line typed again, text that already follows the cursor, trailing whitespace, and answers that
// add nothing.
import * as assert from 'node:assert/strict';
import { cleanCompletion, repeatedPrefixLength, withoutRepeatedSuffix } from '../../../../src/core/completions/fimAnswer';
import { FIM_HOLE } from '../../../../src/core/completions/fimPrompt';

const block = (prefix: string, suffix = '') => ({ prefix, suffix, mode: 'block' as const });
const line = (prefix: string, suffix: string) => ({ prefix, suffix, mode: 'line' as const });

describe('cleanCompletion', () => {
  it('takes the text between the completion tags, with or without the closing tag', () => {
    assert.equal(cleanCompletion('<COMPLETION>a + b;</COMPLETION>', block('  return ')), 'a + b;');
    assert.equal(cleanCompletion('<COMPLETION>a + b;', block('  return ')), 'a + b;');
    assert.equal(cleanCompletion('Sure! <COMPLETION>a + b;</COMPLETION> Hope this helps.', block('  return ')), 'a + b;');
    assert.equal(cleanCompletion('a + b;', block('  return ')), 'a + b;');
  });

  it('unwraps a code fence, also one that max_tokens cut before it closed', () => {
    assert.equal(cleanCompletion('```typescript\na + b;\n```', block('  return ')), 'a + b;');
    assert.equal(cleanCompletion('\n```ts\na + b;\n  more();', block('  return ')), 'a + b;\n  more();');
    assert.equal(cleanCompletion('<COMPLETION>```\nx\n```</COMPLETION>', block('let y = ')), 'x');
    assert.equal(cleanCompletion('~~~\nx\n~~~', block('let y = ')), 'x');
  });

  it('drops the cursor line when the model typed it again, with or without its indentation', () => {
    const prefix = 'function mean(xs) {\n  return xs.re';
    assert.equal(cleanCompletion('<COMPLETION>  return xs.reduce(add, 0);</COMPLETION>', block(prefix)), 'duce(add, 0);');
    assert.equal(cleanCompletion('<COMPLETION>return xs.reduce(add, 0);</COMPLETION>', block(prefix)), 'duce(add, 0);');
    // the line above and the cursor line
    assert.equal(cleanCompletion('function mean(xs) {\n  return xs.reduce(add, 0);', block(prefix)), 'duce(add, 0);');
  });

  it('drops indentation given again on a blank line, and lines just above the cursor given again', () => {
    assert.equal(cleanCompletion('    return total;', block('  function f() {\n    ')), 'return total;');
    assert.equal(cleanCompletion('for (const x of xs) {\n  total += x;', block('let total = 0;\nfor (const x of xs) {\n')), '  total += x;');
  });

  it('keeps text that only happens to start like the cursor line', () => {
    // the cursor line is "  x"; an answer "x2" is not the line typed again unless it repeats all of it
    assert.equal(repeatedPrefixLength('= 2;', 'let x'), 0);
    assert.equal(cleanCompletion('<COMPLETION> = 2;</COMPLETION>', block('let x')), ' = 2;');
  });

  it('drops the end of the answer that is already after the cursor on its line', () => {
    assert.equal(cleanCompletion('<COMPLETION>a, b)</COMPLETION>', line('foo(', ')')), 'a, b');
    assert.equal(cleanCompletion('<COMPLETION>a, b);</COMPLETION>', line('foo(', ');')), 'a, b');
    assert.equal(cleanCompletion('<COMPLETION>[1, 2, 3])</COMPLETION>', line('console.log(mean(', '));')), '[1, 2, 3]');
    assert.equal(cleanCompletion('<COMPLETION>0) / xs.length;</COMPLETION>', line('return xs.reduce(add, ', ') / xs.length;')), '0');
  });

  it('keeps a closing bracket the line needs (the one after the cursor closes an outer call)', () => {
    assert.equal(withoutRepeatedSuffix('x)', 'f(g(', ')'), 'x)');
    assert.equal(cleanCompletion('<COMPLETION>x)</COMPLETION>', line('f(g(', ')')), 'x)');
  });

  it('drops whole lines at the end that equal the lines after the cursor, indentation included', () => {
    const prefix = 'function f(xs) {\n  ';
    assert.equal(cleanCompletion('const n = xs.length;\n  return n;\n}', block(prefix, '\n}\n')), 'const n = xs.length;\n  return n;');
    // an inner block's closing brace is not the function's
    assert.equal(cleanCompletion('if (!xs.length) {\n    return 0;\n  }', block(prefix, '\n}\n')), 'if (!xs.length) {\n    return 0;\n  }');
  });

  it('removes trailing whitespace of every line and blank lines at the end', () => {
    assert.equal(cleanCompletion('<COMPLETION>a;  \n  b;\t\n\n\n</COMPLETION>', block('x')), 'a;\n  b;');
    assert.equal(cleanCompletion('<COMPLETION>a;\r\nb;\r\n</COMPLETION>', block('x')), 'a;\nb;');
  });

  it('keeps only the first line when the rest of a line was asked for', () => {
    assert.equal(cleanCompletion('<COMPLETION>a, b\nmore lines</COMPLETION>', line('foo(', ')')), 'a, b');
    assert.equal(cleanCompletion('<COMPLETION>\na, b</COMPLETION>', line('foo(', ')')), 'a, b');
  });

  it('lets a completion at the end of a line start on the next line', () => {
    assert.equal(cleanCompletion('<COMPLETION>\n  return 1;</COMPLETION>', block('function f() {', '\n}')), '\n  return 1;');
  });

  it('drops answers that add nothing: empty, whitespace, the query echoed, or only what follows the cursor', () => {
    assert.equal(cleanCompletion('<COMPLETION></COMPLETION>', block('x')), undefined);
    assert.equal(cleanCompletion('<COMPLETION>   \n  </COMPLETION>', block('x')), undefined);
    assert.equal(cleanCompletion('', block('x')), undefined);
    assert.equal(cleanCompletion(`<COMPLETION>let a = ${FIM_HOLE};</COMPLETION>`, block('let a = ')), undefined);
    assert.equal(cleanCompletion('<COMPLETION>)</COMPLETION>', line('foo(a', ')')), undefined);
    assert.equal(cleanCompletion('<COMPLETION>\n  return total;\n}</COMPLETION>', block('  total += 1;', '\n  return total;\n}\n')), undefined);
    assert.equal(cleanCompletion('<COMPLETION>\n}</COMPLETION>', block('  return 1;', '\n}')), undefined);
  });
});
