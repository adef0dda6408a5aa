// Decides what the simulated model answers: tool calls when the last user message asks for
// them with `[[call:...]]` and the tools were offered, a summary when tool results come back,
// else deterministic markdown chosen by the markers of markers.ts. The demo's scripted answers
// (demo-answers.ts) come first when the simulator runs as the demo.
import { defaultAnswer, longAnswer, toolResultSummary, wordsAnswer } from './answers';
import { imagePartsOf, textOf, type ValidChatRequest, type WireMessage } from './chat-request';
import { stripFaultMarkers } from './faults';
import { callMarkers, chunkingMarker, hasEcho, longMarker, roundsMarker, stripChunks, stripEcho, thenSteps, wordsMarker } from './markers';
import { CHARS_PER_TOKEN } from './tokens';
import { demoReply } from './demo-answers';

export interface ReplyToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type Reply =
  | { kind: 'text'; text: string; finishReason: 'stop' | 'length'; chunkSeed?: number; chunkMax?: number }
  | { kind: 'tools'; calls: ReplyToolCall[]; finishReason: 'tool_calls' };

function lastUserIndex(messages: WireMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

function previousCallCount(messages: WireMessage[]): number {
  return messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.tool_calls?.length ?? 0) : 0), 0);
}

function describeImages(message: WireMessage | undefined): string[] {
  if (!message) return [];
  const images = imagePartsOf(message.content);
  if (!images.length) return [];
  const described = images.map(({ url }) => {
    const m = /^data:(image\/[a-z]+);base64,(.*)$/.exec(url);
    if (!m) return `an image at a URL (not fetched)`;
    return `${m[1]} (${Buffer.from(m[2] as string, 'base64').length} bytes)`;
  });
  return [`I received ${images.length} image${images.length > 1 ? 's' : ''}: ${described.join(', ')}.`];
}

function toolCallsReply(req: ValidChatRequest, wanted: { name: string; arguments: string }[]): Reply {
  const offered = new Set(req.tools.map((t) => t.function.name));
  const known = wanted.filter((c) => offered.has(c.name));
  if (!known.length) {
    const names = [...new Set(wanted.map((c) => c.name))].map((n) => `\`${n}\``).join(', ');
    const list = req.tools.length ? `Offered tools: ${req.tools.map((t) => `\`${t.function.name}\``).join(', ')}.` : 'No tools were offered.';
    return { kind: 'text', text: `I cannot call ${names}: no such tool was offered. ${list}`, finishReason: 'stop' };
  }
  const base = previousCallCount(req.messages);
  return { kind: 'tools', calls: known.map((c, i) => ({ id: `call_${base + i + 1}`, name: c.name, arguments: c.arguments })), finishReason: 'tool_calls' };
}

/** The text up to the first stop sequence (not included), as real services end an answer there. */
export function cutAtStop(text: string, stop: readonly string[]): { text: string; stopped: boolean } {
  let end = text.length;
  for (const s of stop) {
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return { text: text.slice(0, end), stopped: end < text.length };
}

export function textReply(req: ValidChatRequest, whole: string): Extract<Reply, { kind: 'text' }> {
  const text = cutAtStop(whole, req.stop).text;
  const limit = req.maxTokens === undefined ? Infinity : req.maxTokens * CHARS_PER_TOKEN;
  if (text.length <= limit) return { kind: 'text', text, finishReason: 'stop' };
  return { kind: 'text', text: text.slice(0, limit), finishReason: 'length' };
}

/** `demo`: the demo's scripted answers about the sample workspace (demo-answers.ts) before the test answers. */
export function decideReply(req: ValidChatRequest, demo = false): Reply {
  if (demo) {
    const scripted = demoReply(req);
    if (scripted?.kind === 'read') return toolCallsReply(req, [{ name: 'read_file', arguments: JSON.stringify({ path: scripted.path }) }]);
    if (scripted) return textReply(req, scripted.text);
  }
  const { messages } = req;
  const last = messages[messages.length - 1] as WireMessage;
  const userIndex = lastUserIndex(messages);
  const userMessage = userIndex >= 0 ? messages[userIndex] : undefined;
  const userText = textOf(userMessage?.content);

  if (last.role === 'tool') {
    // A further round of the same calls when the user asked for several rounds.
    const roundsDone = messages.slice(userIndex + 1).filter((m) => m.role === 'assistant' && m.tool_calls).length;
    const steps = thenSteps(userText);
    if (steps) {
      // [[then]]: each step's calls are one round, in order
      const next = callMarkers(steps[roundsDone] ?? '');
      if (next.length && req.toolChoice !== 'none') return toolCallsReply(req, next);
    } else {
      const rounds = roundsMarker(userText) ?? 1;
      const calls = callMarkers(userText);
      if (calls.length && roundsDone < rounds && req.toolChoice !== 'none') return toolCallsReply(req, calls);
    }

    const results: { name: string; content: string }[] = [];
    const names = new Map<string, string>();
    for (const m of messages) if (m.role === 'assistant') for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
    for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i--) {
      const m = messages[i] as Extract<WireMessage, { role: 'tool' }>;
      results.unshift({ name: names.get(m.tool_call_id) ?? 'unknown', content: textOf(m.content) });
    }
    return textReply(req, toolResultSummary(results));
  }

  if (last.role === 'user') {
    const calls = callMarkers(thenSteps(userText)?.[0] ?? userText);
    if (calls.length && req.toolChoice !== 'none') return toolCallsReply(req, calls);
    if (req.toolChoice === 'required' || typeof req.toolChoice === 'object') {
      const name = typeof req.toolChoice === 'object' ? req.toolChoice.name : (req.tools[0]?.function.name as string);
      return toolCallsReply(req, [{ name, arguments: '{}' }]);
    }
  }

  if (hasEcho(userText)) {
    const reply = textReply(req, stripFaultMarkers(stripEcho(stripChunks(userText))));
    const chunking = chunkingMarker(userText);
    return chunking === undefined ? reply : ({ ...reply, chunkSeed: chunking.seed, chunkMax: chunking.max } as Reply);
  }
  const words = wordsMarker(userText);
  if (words !== undefined) return textReply(req, wordsAnswer(userText, words));
  const long = longMarker(userText);
  if (long !== undefined) return textReply(req, longAnswer(userText, long));
  return textReply(req, defaultAnswer(stripFaultMarkers(userText), describeImages(userMessage)));
}
