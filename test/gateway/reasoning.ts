// Reasoning models, as the simulator plays them. A marker in the last user message picks the
// form (the model id stays one of the simulator's):
//   [[reasoning:content]]   DeepSeek's form, after api-docs.deepseek.com "Reasoning Model
//                           (deepseek-reasoner)" and "Thinking Mode": `delta.reasoning_content`
//                           chunks (with `content: null`) before the content or tool-call chunks;
//                           `message.reasoning_content` when not streamed.
//   [[reasoning:field]]     OpenRouter's form, after openrouter.ai/docs "Reasoning Tokens":
//                           `delta.reasoning` with the same text in `delta.reasoning_details`
//                           ([{type: "reasoning.text", text, format: "unknown", index: 0}]);
//                           vLLM's "Reasoning Outputs" (docs.vllm.ai) sends the `reasoning` part.
//   [[reasoning:tags]]      Qwen's form when served without a reasoning parser (Qwen3 model card,
//                           "Thinking mode"): `<think>\n…\n</think>\n\n` at the start of `content`,
//                           streamed in random pieces so the tags split anywhere.
//   [[reasoning:passback]]  DeepSeek's form plus its rule for tool calls in thinking mode
//                           ("Thinking Mode", tool calls): every assistant message with
//                           `tool_calls` of the tool loop in progress must carry its
//                           `reasoning_content` back, else a 400 with DeepSeek's wording.
//   [[reasoning:kimi]]      the same form plus Kimi's stricter rule (platform.moonshot.ai, "Use the
//                           thinking model", multi-turn tool calls: keep `reasoning_content` on
//                           every earlier assistant message with `tool_calls`): a request whose
//                           tool-call messages, of this turn or any earlier one, lack the reasoning
//                           the simulator gave them is refused with the same 400. The demo's
//                           scripted model follows this rule too.
// A model with `thinks` (models.ts: `reasoner`) reasons on every request in DeepSeek's form without
// a marker; `[[think:N]]` makes its reasoning N words (default THINK_WORDS).
// Reasoning tokens are reported in `usage.completion_tokens_details.reasoning_tokens` and are
// part of `completion_tokens` (OpenAI's usage object; DeepSeek and OpenRouter follow it).
import { invalidRequest } from './api-error';
import type { WireMessage } from './chat-request';
import { textOf } from './chat-request';
import { wordsAnswer } from './answers';

/** Words of a thinking model's reasoning when the question does not say (`[[think:N]]`). */
export const THINK_WORDS = 150;

export type ReasoningForm = 'content' | 'field' | 'tags' | 'passback' | 'kimi';

/** DeepSeek's message when a tool loop's reasoning was not passed back (microsoft/vscode#313904). */
export const PASSBACK_REFUSAL = 'The reasoning_content in the thinking mode must be passed back to the API.';

export function reasoningMarker(text: string): ReasoningForm | undefined {
  const m = /\[\[reasoning:(content|field|tags|passback|kimi)\]\]/.exec(text);
  return m ? (m[1] as ReasoningForm) : undefined;
}

function lastUserIndex(messages: readonly WireMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

/** The reasoning of round `round` (0 = the first request of the turn): deterministic, so a pass-back can be checked. */
export function reasoningText(userText: string, round: number): string {
  const asked = userText
    .replace(/\[\[[^\]]*\]\]/g, '')
    .trim()
    .slice(0, 60);
  return round === 0
    ? `The user asks: "${asked}". Let me think about which facts I need, step by step.`
    : `Round ${round}: the tool results are in. I check them before I answer.`;
}

/**
 * The form and text of this request's reasoning, or undefined for a model that does not reason.
 * `thinks`: a reasoning model, which reasons without a marker (DeepSeek's form, `[[think:N]]` words).
 */
export function reasoningFor(messages: readonly WireMessage[], thinks = false): { form: ReasoningForm; text: string } | undefined {
  const userIndex = lastUserIndex(messages);
  if (userIndex < 0) return undefined;
  const userText = textOf(messages[userIndex]!.content);
  const round = messages.slice(userIndex + 1).filter((m) => m.role === 'assistant' && m.tool_calls).length;
  const form = reasoningMarker(userText);
  if (form) return { form, text: reasoningText(userText, round) };
  if (!thinks) return undefined;
  const words = /\[\[think:(\d+)\]\]/.exec(userText);
  const n = words ? Math.min(20_000, Number(words[1])) : THINK_WORDS;
  return { form: 'content', text: `${reasoningText(userText, round)} ${wordsAnswer(`${userText}\u0000${round}`, n)}` };
}

/** What the simulator's reasoning was for a request of these messages (as `reasoningFor`, or the demo's). */
export type ReasoningOf = (messages: readonly WireMessage[]) => { form: ReasoningForm; text: string } | undefined;

const refusal = (i: number) => invalidRequest(PASSBACK_REFUSAL, `messages[${i}].reasoning_content`, 'invalid_request_error');

/**
 * DeepSeek's rule (`passback`): the tool loop in progress must carry its reasoning_content back.
 * Kimi's rule (`kimi`, or `kimi` set: the demo's model): every assistant message with tool_calls of
 * the conversation must carry the reasoning_content the simulator gave it (found by asking
 * `reasoningOf` what the request that produced it got; a turn without reasoning needs none).
 */
export function refuseMissingReasoning(messages: readonly WireMessage[], reasoningOf: ReasoningOf = reasoningFor, kimi = false): void {
  const userIndex = lastUserIndex(messages);
  if (userIndex < 0) return;
  const userText = textOf(messages[userIndex]!.content);
  const marker = reasoningMarker(userText);
  if (kimi || marker === 'kimi') {
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]!;
      if (m.role !== 'assistant' || !m.tool_calls) continue;
      const given = reasoningOf(messages.slice(0, i));
      if (!given || given.form === 'field' || given.form === 'tags') continue;
      if ((m as Record<string, unknown>).reasoning_content !== given.text) throw refusal(i);
    }
    return;
  }
  if (marker !== 'passback') return;
  let round = 0;
  for (let i = userIndex + 1; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.tool_calls) continue;
    const sent = (m as Record<string, unknown>).reasoning_content;
    if (sent !== reasoningText(userText, round)) throw refusal(i);
    round++;
  }
}

/** Delta fields of one reasoning piece in the streamed form. */
export function reasoningDelta(form: ReasoningForm, piece: string): object {
  if (form === 'field')
    return { role: 'assistant', content: '', reasoning: piece, reasoning_details: [{ type: 'reasoning.text', text: piece, format: 'unknown', index: 0 }] };
  return { content: null, reasoning_content: piece };
}

/** Message fields of the reasoning in the non-streamed form (`tags` goes into content instead). */
export function reasoningMessageFields(form: ReasoningForm, text: string): object {
  if (form === 'field') return { reasoning: text, reasoning_details: [{ type: 'reasoning.text', text, format: 'unknown', index: 0 }] };
  if (form === 'tags') return {};
  return { reasoning_content: text };
}

export function thinkBlock(text: string): string {
  return `<think>\n${text}\n</think>\n\n`;
}
