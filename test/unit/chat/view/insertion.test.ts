// Insert puts a code block on lines of its own (at the end of a file it was once glued to
// the last line, and the file lost its final line break).
import * as assert from 'node:assert/strict';
import { insertionText, type InsertionPoint } from '../../../../src/chat/view/insertion';

const at = (over: Partial<InsertionPoint>): InsertionPoint => ({ before: '', after: '', atEnd: false, eol: '\n', ...over });

/** The document after inserting `code` at `offset` of `text`, the way insertCode computes it. */
function insert(text: string, offset: number, code: string): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset);
  const point = at({ before: text.slice(lineStart, offset), after: text.slice(offset, lineEnd), atEnd: offset === text.length });
  return text.slice(0, offset) + insertionText(code, point) + text.slice(offset);
}

describe('chat/view/insertion: Insert puts code on lines of its own', () => {
  it('at the end of a file whose last line has text: a new line first, and the file ends with a line break', () => {
    const file = 'export const a = 1;';
    assert.equal(insert(file, file.length, 'export const b = 2;'), 'export const a = 1;\nexport const b = 2;\n');
  });

  it('at the end of a file that ends with a line break: the code, then a line break', () => {
    const file = 'const a = 1;\n';
    assert.equal(insert(file, file.length, 'const b = 2;'), 'const a = 1;\nconst b = 2;\n');
  });

  it('on an empty line in the middle: the code alone, nothing added around it', () => {
    const file = 'a\n\nc\n';
    assert.equal(insert(file, 2, 'b'), 'a\nb\nc\n');
  });

  it('before text on the line: that text moves to the next line; a block that ends with a break adds none', () => {
    assert.equal(insert('x();\n', 0, 'y();'), 'y();\nx();\n');
    assert.equal(insert('x();\n', 0, 'y();\n'), 'y();\nx();\n');
  });

  it('keeps the document’s CRLF line breaks', () => {
    assert.equal(insertionText('a\nb', at({ before: 'x', atEnd: true, eol: '\r\n' })), '\r\na\r\nb\r\n');
  });
});
