// The files a conversation's answers name, and the answer texts Apply searches for a block's info string.

// ---------------------------------------------------------------- what the conversation names

/** The parts of a conversation Apply reads (structurally: a transcript Conversation fits). */
export interface ConversationLike {
  messages: readonly (
    | { role: 'user'; attachments: readonly { kind: string; label: string }[] }
    | {
        role: 'assistant';
        // thinking: the model's reasoning, never what Apply takes; images: files a tool saved
        parts: readonly (
          | { kind: 'text'; text: string }
          | { kind: 'tool'; call: { name: string; arguments: string } }
          | { kind: 'thinking'; text: string }
          | { kind: 'images' }
        )[];
      }
  )[];
  pinned: readonly { path: string }[];
  pending: readonly { kind: string; label: string }[];
}

/** The markdown of every answer, oldest first (where the block's fence is looked up). */
export function answerTexts(c: ConversationLike): string[] {
  return c.messages.flatMap((m) => (m.role === 'assistant' ? [m.parts.map((p) => (p.kind === 'text' ? p.text : '\n')).join('')] : []));
}

const READ_TOOLS = new Set(['read_file', 'get_diagnostics']);

/**
 * Files the conversation is about, newest first: files a tool read, files and selections the
 * user attached to messages, files pinned to the conversation, the pending selection.
 * Workspace-relative paths as written; the caller checks each one against the workspace.
 */
export function conversationFiles(c: ConversationLike): string[] {
  const out: string[] = [];
  const add = (p: string | undefined) => {
    if (p && !out.includes(p)) out.push(p);
  };
  const selectionPath = (label: string) => label.replace(/:\d+(?:-\d+)?$/, '');
  for (const a of [...c.pending].reverse()) if (a.kind === 'selection') add(selectionPath(a.label));
  for (let i = c.messages.length - 1; i >= 0; i--) {
    const m = c.messages[i]!;
    if (m.role === 'user') {
      for (const a of m.attachments) if (a.kind === 'selection' || a.kind === 'file') add(selectionPath(a.label));
      continue;
    }
    for (let j = m.parts.length - 1; j >= 0; j--) {
      const p = m.parts[j]!;
      if (p.kind !== 'tool' || !READ_TOOLS.has(p.call.name)) continue;
      try {
        const args = JSON.parse(p.call.arguments) as { path?: unknown };
        if (typeof args.path === 'string') add(args.path);
      } catch {
        // arguments that never parsed name no file
      }
    }
  }
  for (const p of [...c.pinned].reverse()) add(p.path);
  return out;
}
