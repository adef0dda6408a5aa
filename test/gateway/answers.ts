// Deterministic answers: the same question always gets the same markdown, so tests can assert
// on it and benchmarks are repeatable. The default answer has every block a chat view has to
// render (heading, paragraph, fenced code with a language, table, list) and a few non-ASCII
// characters, so that UTF-8 split across network chunks is exercised.
import { hash32, pick, seededRng, type Rng } from './rng';

const WORDS = [
  'gateway',
  'stream',
  'token',
  'buffer',
  'channel',
  'request',
  'answer',
  'cache',
  'prefix',
  'model',
  'latency',
  'socket',
  'chunk',
  'parser',
  'render',
  'workspace',
  'editor',
  'balance',
  'image',
  'prompt',
  'retry',
  'signal',
  'header',
  'payload',
  'schema',
  'value',
  'record',
  'window',
  'context',
  'budget',
] as const;

const LANGUAGES = [
  {
    lang: 'ts',
    code: (n: string) =>
      `export function ${n}(input: string): number {\n  // counts the words of the input\n  return input.split(/\\s+/).filter(Boolean).length;\n}`,
  },
  { lang: 'python', code: (n: string) => `def ${n}(items):\n    """Sum the lengths of the items."""\n    return sum(len(i) for i in items)` },
  { lang: 'rust', code: (n: string) => `fn ${n}(xs: &[u32]) -> u32 {\n    xs.iter().copied().max().unwrap_or(0)\n}` },
  { lang: 'go', code: (n: string) => `func ${n}(s string) int {\n\treturn len(strings.Fields(s))\n}` },
  { lang: 'bash', code: (n: string) => `${n}() {\n  grep -c '' "$1"\n}` },
  { lang: 'json', code: (n: string) => `{\n  "name": "${n}",\n  "enabled": true,\n  "limits": [1, 2, 3]\n}` },
] as const;

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(rng, WORDS));
  const s = out.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

function identifier(question: string, rng: Rng): string {
  const word = /[A-Za-z]{3,}/.exec(question)?.[0]?.toLowerCase() ?? pick(rng, WORDS);
  return `${word}${pick(rng, ['Count', 'Total', 'Size', 'Score'])}`.replace(/^[^a-z]/, 'x');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The default answer to a question. */
export function defaultAnswer(question: string, imageNotes: string[] = []): string {
  const rng = seededRng(hash32(question));
  const topic = oneLine(question, 60).replace(/[`*_#|[\]<>]/g, '') || 'your question';
  const { lang, code } = pick(rng, LANGUAGES);
  const name = identifier(question, rng);
  const parts = [
    `## ${pick(rng, ['About', 'On', 'Notes on', 'Answer:'])} ${topic}`,
    ...(imageNotes.length ? [imageNotes.join(' ')] : []),
    `${sentence(rng, 8)} ${sentence(rng, 10)} The key idea: keep the ${pick(rng, WORDS)} small and the ${pick(rng, WORDS)} stable.`,
    '```' + lang + '\n' + code(name) + '\n```',
    `| Aspect | Detail |\n| --- | --- |\n| Topic | ${pick(rng, WORDS)} |\n| Question length | ${question.length} characters |\n| Digest | \`${hash32(question).toString(16).padStart(8, '0')}\` |`,
    `- ${sentence(rng, 5)}\n- ${sentence(rng, 6)}\n- Naïve → robust: café ✓ 🚀`,
  ];
  return parts.join('\n\n');
}

/** Exactly `n` words separated by single spaces. */
export function wordsAnswer(question: string, n: number): string {
  const rng = seededRng(hash32(`words:${question}`));
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(rng, WORDS));
  return out.join(' ');
}

/** `n` blocks: two paragraphs, then a code block, repeating. */
export function longAnswer(question: string, n: number): string {
  const rng = seededRng(hash32(`long:${question}`));
  const blocks: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 3 === 2) {
      const { lang, code } = LANGUAGES[i % LANGUAGES.length] as (typeof LANGUAGES)[number];
      blocks.push('```' + lang + '\n' + code(`block${i}`) + '\n```');
    } else {
      blocks.push(`Paragraph ${i + 1}: ${sentence(rng, 12)} ${sentence(rng, 14)} ${sentence(rng, 9)}`);
    }
  }
  return blocks.join('\n\n');
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** What the model says about tool results, so tests can see each result reached it. */
export function toolResultSummary(results: { name: string; content: string }[]): string {
  return results
    .map(({ name, content }) => {
      const firstLine = content.split(/\r?\n/, 1)[0] ?? '';
      const head = `Tool ${name} returned ${content.length} characters.`;
      return firstLine ? `${head} First line: ${codeSpan(oneLine(firstLine, 80))}` : head;
    })
    .join('\n\n');
}
