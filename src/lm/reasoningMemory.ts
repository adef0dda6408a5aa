// Reasoning of the tool calls this provider produced, by tool-call id. DeepSeek and Kimi refuse
// the next request of a tool loop when the assistant message with `tool_calls` lacks its
// `reasoning_content`, and vscode.lm callers usually pass back only the tool call and its result
// (microsoft/vscode#313904): the provider puts the reasoning back itself, on every assistant
// message with tool calls, of earlier turns too (promptLayout's replay rule: Kimi refuses a request
// whose earlier tool-call messages lack it). What VS Code's chat passes back as thinking parts
// (it stores them with its conversations, so they outlive a window reload, which this memory does
// not) is kept. Pure.
import { replayReasoning } from '../core/prompt/promptLayout';
import type { ChatMessage, ReasoningField } from '../core/client/types';

/** Tool-call ids remembered (oldest forgotten first): far more than any live tool loop needs. */
export const MAX_REMEMBERED_CALLS = 512;

export interface Reasoning {
  text: string;
  field: ReasoningField;
}

/** A call is known by its id and its tool's name (a server that numbers its calls per conversation reuses ids). */
const keyOf = (id: string, name: string): string => `${id}\u0000${name}`;

export class ReasoningMemory {
  private readonly byCall = new Map<string, Reasoning>();

  /** The reasoning of the response that made these calls (a `<think>` block has no field: not kept). */
  remember(calls: readonly { id: string; name: string }[], reasoning: Reasoning | undefined): void {
    if (!reasoning?.text || reasoning.field === 'think') return;
    for (const c of calls) {
      const key = keyOf(c.id, c.name);
      this.byCall.delete(key);
      this.byCall.set(key, reasoning);
    }
    while (this.byCall.size > MAX_REMEMBERED_CALLS) this.byCall.delete(this.byCall.keys().next().value!);
  }

  get size(): number {
    return this.byCall.size;
  }

  /**
   * The request's messages with the reasoning put back: on each assistant message with tool
   * calls whose reasoning is remembered (by any of its call ids), in the field the model used.
   * Reasoning the caller passed back (a thinking part) is kept, in the remembered field when
   * known. Then the replay rule drops reasoning from messages without tool calls.
   */
  restore(messages: readonly ChatMessage[]): ChatMessage[] {
    const out = messages.map((m) => {
      if (m.role !== 'assistant' || !m.tool_calls?.length) return m;
      const known = m.tool_calls.map((c) => this.byCall.get(keyOf(c.id, c.function.name))).find((r) => r !== undefined);
      const given = m.reasoning_content ?? m.reasoning;
      if (!known && given === undefined) return m;
      const { reasoning_content: _content, reasoning: _reasoning, ...rest } = m;
      const field = known?.field ?? (m.reasoning !== undefined ? 'reasoning' : 'reasoning_content');
      const text = given || known!.text;
      return field === 'reasoning' ? { ...rest, reasoning: text } : { ...rest, reasoning_content: text };
    });
    return replayReasoning(out);
  }
}
