// The demo's scripted model (`startGateway({ demo: true })`, used by `npm start` only): it answers
// about the sample workspace (test/demo/sample) the way a coding model would, so the demo shows
// what Modelgate is for. A question about one of the sample's functions ("What does mean() do?")
// first reads the function's file through the `read_file` tool, then explains the code it read
// and proposes a fix in a fenced block that names the file's path (Apply replaces that function
// only). It thinks before each step, in DeepSeek's `reasoning_content` form (see reasoning.ts).
// Anything else gets a short guide to the demo. The test markers (markers.ts, faults.ts) still
// win: a message with a marker is answered as in the tests.
import { textOf, type ValidChatRequest, type WireMessage } from './chat-request';

/** The sample workspace's functions, the file each lives in, what it does and the fix the demo proposes. */
interface ScriptedFunction {
  file: string;
  explain: string;
  fixNote: string;
  fix: string;
}

const SAMPLE_FUNCTIONS: Record<string, ScriptedFunction> = {
  mean: {
    file: 'src/math.ts',
    explain:
      '`mean(xs)` adds the numbers up with `xs.reduce(add, 0)`, starting from 0, and divides the sum by `xs.length`: `mean([1, 2, 3])` is `2`. ' +
      'One catch: for an empty array it computes `0 / 0` and returns `NaN`, which then spreads silently through every sum or comparison that uses it.',
    fixNote: 'A fix that makes the empty case an error you see at once (only `mean()` changes; `add()` stays as it is):',
    fix:
      'export function mean(xs: number[]): number {\n' +
      "  if (xs.length === 0) throw new RangeError('mean() of an empty array');\n" +
      '  return xs.reduce(add, 0) / xs.length;\n' +
      '}',
  },
  add: {
    file: 'src/math.ts',
    explain: '`add(a, b)` returns `a + b`. `mean()` passes it to `reduce` to sum an array.',
    fixNote: 'It is correct as it is; if you want it to refuse `NaN` inputs, a version that says so:',
    fix:
      'export function add(a: number, b: number): number {\n' +
      "  if (Number.isNaN(a) || Number.isNaN(b)) throw new RangeError('add() of NaN');\n" +
      '  return a + b;\n' +
      '}',
  },
};

/** The sample function a question is about: `mean()`, "mean(", "the mean function". */
export function scriptedFunctionOf(question: string): string | undefined {
  for (const name of Object.keys(SAMPLE_FUNCTIONS)) {
    if (new RegExp(`\\b${name}\\s*\\(|\\b${name}\\b[^.?!]*\\bfunction\\b|\\bfunction\\b[^.?!]*\\b${name}\\b`, 'i').test(question)) return name;
  }
  return undefined;
}

function lastUserIndex(messages: readonly WireMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

export type DemoReply = { kind: 'text'; text: string } | { kind: 'read'; path: string };

const GUIDE = [
  'This is the **Modelgate demo**: the gateway here is a local simulator, and its answers are scripted.',
  'Try one of these, they use the sample workspace:',
  '- *What does `mean()` do?* — reads `src/math.ts` with a tool, explains it and proposes a fix you can **Apply**.',
  '- *Explain the `add` function.*',
  '- **Modelgate: Generate Image Here** from the command palette: an image, with what it cost.',
  'Markers in a message drive the simulator the way the tests do: `[[words:40]]` for a 40-word answer, `[[long:6]]` for a long one, ' +
    '`[[call:list_files {"path":"src"}]]` for a tool call, `[[reasoning:content]]` for visible thinking, `[[fault:status:503]]` for a failing gateway ' +
    '(test/gateway/README.md lists them all).',
  "`[[fault:status:402]]` answers as a gateway whose balance is used up: **Top up balance** on that answer opens the simulator's console page, where *Add $10* tops the demo key up.",
  'To use a real gateway: **Modelgate: Set Gateway Address**, then **Modelgate: Set API Key**.',
].join('\n\n');

/** What the demo model does for this request, or undefined for the ordinary simulator answer. */
export function demoReply(req: ValidChatRequest): DemoReply | undefined {
  const { messages } = req;
  const userIndex = lastUserIndex(messages);
  if (userIndex < 0) return undefined;
  const question = textOf(messages[userIndex]!.content);
  if (/\[\[[a-zA-Z]+[:\]]/.test(question)) return undefined; // a test marker: the test simulator answers
  const name = scriptedFunctionOf(question);
  if (!name) return { kind: 'text', text: GUIDE };
  const fn = SAMPLE_FUNCTIONS[name]!;
  const last = messages[messages.length - 1]!;
  const canRead = req.tools.some((t) => t.function.name === 'read_file') && req.toolChoice !== 'none';
  if (last.role === 'user') {
    if (canRead) return { kind: 'read', path: fn.file };
    return {
      kind: 'text',
      text: `I can only answer about \`${name}()\` after reading \`${fn.file}\`, and no file tools were offered. Turn tools on and ask again.`,
    };
  }
  if (last.role !== 'tool') return undefined;
  const result = textOf(last.content);
  if (!new RegExp(`function\\s+${name}\\s*\\(`).test(result)) {
    return {
      kind: 'text',
      text: `I read \`${fn.file}\`, but it has no \`${name}()\` function any more, so I have nothing to explain. Ask about another function.`,
    };
  }
  const text = [
    `I read \`${fn.file}\`.`,
    fn.explain,
    fn.fixNote,
    '```ts ' + fn.file + '\n' + fn.fix + '\n```',
    'Click **Apply** on the block to see the change as a diff before anything is written.',
  ].join('\n\n');
  return { kind: 'text', text };
}

/** The demo model's thinking for this request (shown in the panel's Thinking block). */
export function demoReasoning(messages: readonly WireMessage[]): string | undefined {
  const userIndex = lastUserIndex(messages);
  if (userIndex < 0) return undefined;
  const question = textOf(messages[userIndex]!.content);
  if (/\[\[[a-zA-Z]+[:\]]/.test(question)) return undefined;
  const name = scriptedFunctionOf(question);
  if (!name) return undefined;
  const file = SAMPLE_FUNCTIONS[name]!.file;
  const last = messages[messages.length - 1]!;
  return last.role === 'tool'
    ? `I have ${file} now. ${name}() is short; I check what it does with unusual input, such as an empty array, before I explain it and suggest a change.`
    : `The question is about ${name}(). I should not guess its code: it lives in ${file}, so I read that file first.`;
}
