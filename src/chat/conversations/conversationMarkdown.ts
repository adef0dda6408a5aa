// A conversation as one Markdown file (Export Conversation to Markdown): every stored message,
// compacted or not, in order; tool calls with their whole results (the record's wire, not the
// panel's shortened view); the compaction's summary where the compaction cut the history. The
// file is the user's record, in English like the rest of what is stored. Plain Node.
import type { ChatMessage } from '../../core/client/types';
import type { AssistantRecord, Conversation, MessageRecord } from './conversationTranscript';

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}\n${fence}`;
}

const when = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** The full text of a tool result: the wire message of the call when the record has it. */
function toolResult(rec: AssistantRecord, id: string, shown: string | undefined): string {
  const m = rec.wire.find((w: ChatMessage) => w.role === 'tool' && w.tool_call_id === id);
  return typeof m?.content === 'string' ? m.content : (shown ?? '');
}

function messageMarkdown(m: MessageRecord): string {
  if (m.role === 'user') {
    const files = m.attachments.length ? `\n\n_Attached: ${m.attachments.map((a) => a.label).join(', ')}_` : '';
    return `## You (${when(m.createdAt)})\n\n${m.text}${files}`;
  }
  const out = [`## ${m.model} (${m.channel}, ${when(m.createdAt)})`];
  for (const p of m.parts) {
    if (p.kind === 'text') out.push(p.text);
    else if (p.kind === 'thinking') out.push(`<details><summary>Thinking</summary>\n\n${fenced(p.text)}\n\n</details>`);
    else if (p.kind === 'tool')
      out.push(
        `**Tool call** \`${p.call.name}\` (${p.call.status})\n\n${fenced(p.call.arguments, 'json')}\n\n${fenced(toolResult(m, p.call.id, p.call.result))}`,
      );
    else if (p.kind === 'images') out.push(`_Images: ${p.paths.join(', ')}_`);
  }
  if (m.status !== 'done')
    out.push(
      `_The answer ${m.status === 'streaming' ? 'was interrupted' : m.status === 'stopped' ? 'was stopped' : 'ended with an error'}${m.error ? `: ${m.error.message}` : ''}._`,
    );
  if (m.usage) {
    const u = m.usage;
    out.push(
      `_${u.promptTokens} prompt tokens (${u.cachedTokens} cached), ${u.completionTokens} completion${u.cost !== undefined ? `, $${u.cost.toFixed(4)}` : ''}_`,
    );
  }
  return out.join('\n\n');
}

/** The whole conversation as Markdown. */
export function conversationMarkdown(c: Conversation): string {
  const out = [
    `# ${c.title}`,
    `_Exported from Modelgate. Started ${when(c.createdAt)}; ${c.messages.length} messages${c.totalCost !== undefined ? `; $${c.totalCost.toFixed(4)} spent` : ''}._`,
  ];
  for (const m of c.messages) {
    if (c.compaction && m.id === c.compaction.cutId) {
      const k = c.compaction;
      out.push(
        `---\n\n**Compacted here** (${when(k.createdAt)}, ${k.model} on ${k.channel}${k.cost !== undefined ? `, $${k.cost.toFixed(4)}` : ''}): the messages above are sent to the model as this summary.\n\n${fenced(k.summary, 'markdown')}\n\n---`,
      );
    }
    out.push(messageMarkdown(m));
  }
  return out.join('\n\n') + '\n';
}

/** A file name from a title: letters, digits, spaces and dashes, at most 60 characters. */
export function exportFileName(title: string): string {
  const base = title
    .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60)
    .trim();
  return `${base || 'conversation'}.md`;
}
