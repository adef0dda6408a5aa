// Tool results from VS Code's tools (src/agentTools/vscodeTools) through the answer loop, against the
// simulator: images a tool returned follow the tool messages as one user message (a tool message
// carries text only), and a call the user declined shows as not run.
import * as assert from 'node:assert/strict';
import { runAnswer, type AnswerOptions } from '../../../../src/chat/answers/answerLoop';
import { layoutPrompt, userMessage } from '../../../../src/core/prompt/promptLayout';
import type { ChatMessage, ToolDefinition } from '../../../../src/core/client/types';
import type { ToolResult } from '../../../../src/agentTools/chatTools';
import { streamingRecord, useSimulatorClient } from '../../simulatorClient';

const TOOLS: ToolDefinition[] = [{ type: 'function', function: { name: 'mcp_s_badge', parameters: { type: 'object', properties: {} } } }];
const PNG = 'data:image/png;base64,iVBORw==';

describe('chat: answer loop with tool results from VS Code’s tools', function () {
  this.timeout(20_000);
  const sim = useSimulatorClient();

  async function run(result: ToolResult) {
    const record = streamingRecord();
    const o: AnswerOptions = {
      client: sim.client,
      model: 'long-context-tools', // takes image input
      channel: 'default',
      messages: layoutPrompt({ systemPrompt: 'sys', pinned: [], history: [userMessage('Badge [[call:mcp_s_badge {}]]')] }),
      tools: TOOLS,
      maxToolRounds: 2,
      signal: new AbortController().signal,
      runTools: async (calls) => calls.map(() => result),
      describeError: (err) => ({ message: String(err), actions: [] }),
      record,
      events: { text: () => undefined, toolCall: () => undefined },
    };
    await runAnswer(o);
    const last = sim.gw.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!.body as { messages: ChatMessage[] };
    return { record, messages: last.messages };
  }

  it('sends the images after the tool results, as a user message with image_url parts', async () => {
    const { record, messages } = await run({ content: 'A badge:\n[Image 1 (image/png) follows in the next message.]', isError: false, modelImages: [PNG] });
    assert.equal(record.status, 'done', record.error?.message);
    const i = messages.findIndex((m) => m.role === 'tool');
    const next = messages[i + 1]!;
    assert.equal(next.role, 'user');
    assert.ok(Array.isArray(next.content));
    assert.deepEqual(
      next.content.filter((p) => p.type === 'image_url'),
      [{ type: 'image_url', image_url: { url: PNG } }],
    );
  });

  it('a declined call shows as not run; no image message without images', async () => {
    const { record, messages } = await run({ content: 'The user skipped this tool call', isError: false, denied: true });
    const tool = record.parts.find((p) => p.kind === 'tool') as { call: { status: string } } | undefined;
    assert.equal(tool?.call.status, 'denied');
    assert.equal(messages.at(-1)!.role, 'tool');
  });
});
