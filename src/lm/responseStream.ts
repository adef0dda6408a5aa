// One vscode.lm request: streams the gateway's answer and hands text and complete tool calls to
// a sink. Pure (the provider's sink wraps them in vscode's part classes), so
// this runs in plain Node tests against the gateway simulator.
// Tool calls are not run here: through vscode.lm the caller runs them and sends the results
// back in its next request.
import type { ChatRequest, GatewayClient, ReasoningField, Usage } from '../core/client/types';
import { parseToolCall } from './lmTools';

export interface LmResponseSink {
  text(text: string): void;
  toolCall(call: { id: string; name: string; input: Record<string, unknown> }): void;
  /** the gateway's token counts; may come before a failure (the tokens are billed all the same) */
  usage(usage: Usage): void;
  /** the model's reasoning, streamed */
  reasoning?(text: string): void;
}

/** What the provider keeps of a response: its reasoning and the tool calls it made. */
export interface LmResponseSummary {
  reasoning?: { text: string; field: ReasoningField };
  calls: { id: string; name: string }[];
}

/** A tool call whose arguments cannot be handed to the caller. */
export class LmToolCallError extends Error {
  override name = 'LmToolCallError';
}

export async function streamLmResponse(
  client: Pick<GatewayClient, 'streamChat'>,
  request: ChatRequest,
  signal: AbortSignal,
  sink: LmResponseSink,
): Promise<LmResponseSummary> {
  const summary: LmResponseSummary = { calls: [] };
  for await (const ev of client.streamChat(request, { signal })) {
    if (ev.type === 'text') {
      if (ev.text) sink.text(ev.text);
    } else if (ev.type === 'reasoning') {
      if (!ev.text) continue;
      summary.reasoning = { text: (summary.reasoning?.text ?? '') + ev.text, field: summary.reasoning?.field ?? ev.field };
      sink.reasoning?.(ev.text);
    } else if (ev.type === 'tool_calls') {
      // Checked as a batch: parallel calls are reported all or none, never a partial set.
      const parsed = ev.calls.map(parseToolCall);
      const bad = parsed.find((p) => !p.ok);
      if (bad && !bad.ok) throw new LmToolCallError(bad.message);
      for (const p of parsed) {
        if (!p.ok) continue;
        summary.calls.push({ id: p.id, name: p.name });
        sink.toolCall({ id: p.id, name: p.name, input: p.input });
      }
    } else if (ev.type === 'usage') {
      sink.usage(ev.usage);
    }
  }
  return summary;
}
