// A thinking model through vscode.lm in a real VS Code: the simulator plays DeepSeek's rule
// ([[reasoning:passback]]: a tool-loop request whose assistant message with tool_calls lacks its
// reasoning_content is refused with "The reasoning_content in the thinking mode must be passed
// back to the API"), and the caller, like most extensions, passes back only the tool call and
// its result. The provider remembers the reasoning per tool-call id and puts it back, so the
// loop succeeds; later turns keep it on the earlier tool-call messages ([[reasoning:kimi]]: Kimi
// refuses a request whose earlier tool-call messages lack it), also after a window reload, when
// only the thinking parts VS Code's chat stores with its conversations can bring it back. Where
// the running VS Code has LanguageModelThinkingPart, the reasoning is reported as such parts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatMessage } from '../../src/core/client/types';
import type { ModelgateApi } from '../../src/extension';
import { startGateway, type RunningGateway } from '../gateway/index';
import { reasoningText } from '../gateway/reasoning';
import { until } from './helpers';

const EXTENSION_ID = 'modelgate.modelgate';
const WEATHER: vscode.LanguageModelChatTool = {
  name: 'weather_lookup',
  description: 'Looks the weather up',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

async function collect(response: vscode.LanguageModelChatResponse): Promise<{ text: string; parts: unknown[] }> {
  const out = { text: '', parts: [] as unknown[] };
  for await (const part of response.stream) {
    out.parts.push(part);
    if (part instanceof vscode.LanguageModelTextPart) out.text += part.value;
  }
  return out;
}

describe('reasoning models through vscode.lm (real VS Code)', function () {
  this.timeout(60_000);
  let gw: RunningGateway;
  const config = () => vscode.workspace.getConfiguration('modelgate');
  const chatBodies = () =>
    gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions')).map((r) => r.body as { messages: ChatMessage[] });

  before(async function () {
    if (typeof vscode.lm?.registerLanguageModelChatProvider !== 'function') this.skip();
    gw = await startGateway();
    const ext = vscode.extensions.getExtension<ModelgateApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    const api = await ext.activate();
    await config().update('baseUrl', gw.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => api.settings().baseUrl === gw.baseUrl, 'base URL applied');
    await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
  });

  after(async () => {
    if (!gw) return;
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await gw.close();
  });

  it('a tool loop succeeds when the caller passes back only the tool call and its result', async () => {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'long-context-tools' });
    assert.ok(model, 'the model is listed');
    const question = 'Weather in Oslo? [[reasoning:passback]] [[call:weather_lookup {"city":"Oslo"}]]';
    const ask = vscode.LanguageModelChatMessage.User(question);
    const token = () => new vscode.CancellationTokenSource().token;

    const first = await collect(await model.sendRequest([ask], { tools: [WEATHER] }, token()));
    const calls = first.parts.filter((p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart);
    assert.equal(calls.length, 1, JSON.stringify(first.parts));
    // Reasoning as thinking parts where this VS Code has the class (detected at runtime), never as text.
    const Thinking = (vscode as unknown as Record<string, (abstract new (...a: never[]) => unknown) | undefined>).LanguageModelThinkingPart;
    const thinking = Thinking ? first.parts.filter((p) => p instanceof Thinking) : [];
    console.log(`[reasoning] LanguageModelThinkingPart in this VS Code: ${Thinking ? 'yes' : 'no'}; thinking parts received: ${thinking.length}`);
    if (Thinking) {
      const text = thinking
        .map((p) => {
          const v = (p as { value: string | string[] }).value;
          return Array.isArray(v) ? v.join('') : v;
        })
        .join('');
      assert.equal(text, reasoningText(question, 0), 'the reasoning arrives as LanguageModelThinkingPart');
    }
    assert.ok(!first.text.includes('Let me think'), 'reasoning is not text');

    // The caller's next request: the call and the result only (no thinking part), as most extensions send it.
    const second = await collect(
      await model.sendRequest(
        [
          ask,
          vscode.LanguageModelChatMessage.Assistant([calls[0]!]),
          vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(calls[0]!.callId, [new vscode.LanguageModelTextPart('Sunny, 21 °C')])]),
        ],
        { tools: [WEATHER] },
        token(),
      ),
    );
    assert.match(second.text, /^Tool weather_lookup returned 12 characters/);
    const sent = chatBodies().at(-1)!.messages;
    const assistant = sent.find((m) => m.role === 'assistant' && m.tool_calls)!;
    assert.equal(assistant.reasoning_content, reasoningText(question, 0), 'the provider put the reasoning back');

    // Next turn, under Kimi's rule: the earlier turn's tool-call message keeps its reasoning.
    const history = [
      ask,
      vscode.LanguageModelChatMessage.Assistant([calls[0]!]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(calls[0]!.callId, [new vscode.LanguageModelTextPart('Sunny, 21 °C')])]),
      vscode.LanguageModelChatMessage.Assistant(second.text),
    ];
    const third = await collect(
      await model.sendRequest([...history, vscode.LanguageModelChatMessage.User('And tomorrow? [[reasoning:kimi]]')], { tools: [WEATHER] }, token()),
    );
    assert.ok(third.text.length > 0);
    const next = chatBodies().at(-1)!.messages;
    assert.equal(next.find((m) => m.tool_calls)?.reasoning_content, reasoningText(question, 0), 'the earlier turn keeps its reasoning');
    assert.ok(
      next.every((m) => m.tool_calls || (m.reasoning_content === undefined && m.reasoning === undefined)),
      'no reasoning on messages without tool calls',
    );
  });

  it("after a reload (tool calls this provider never made), the thinking parts VS Code's chat passes back keep a Kimi-style conversation going", async function () {
    const Thinking = (vscode as unknown as Record<string, (new (value: string) => unknown) | undefined>).LanguageModelThinkingPart;
    if (!Thinking) this.skip();
    const [model] = await vscode.lm.selectChatModels({ vendor: 'modelgate', id: 'long-context-tools' });
    assert.ok(model, 'the model is listed');
    const question = 'Weather in Bergen? [[reasoning:kimi]] [[call:weather_lookup {"city":"Bergen"}]]';
    // A conversation of an earlier window: call ids the provider's memory has never seen.
    const call = new vscode.LanguageModelToolCallPart('call_before_reload_1', 'weather_lookup', { city: 'Bergen' });
    const history = [
      vscode.LanguageModelChatMessage.User(question),
      vscode.LanguageModelChatMessage.Assistant([new Thinking!(reasoningText(question, 0)) as vscode.LanguageModelTextPart, call]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart('Rain, 12 °C')])]),
      vscode.LanguageModelChatMessage.Assistant('Rain, 12 °C in Bergen.'),
      vscode.LanguageModelChatMessage.User('And tomorrow? [[reasoning:kimi]]'),
    ];
    const out = await collect(await model.sendRequest(history, { tools: [WEATHER] }, new vscode.CancellationTokenSource().token));
    assert.ok(out.text.length > 0);
    const sent = chatBodies().at(-1)!.messages;
    assert.equal(sent.find((m) => m.tool_calls)?.reasoning_content, reasoningText(question, 0));
  });
});
