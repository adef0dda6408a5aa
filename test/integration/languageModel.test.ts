// Modelgate's models through vscode.lm inside a real VS Code extension host: this suite runs in
// the test-runner extension, so it is "another extension" that finds the models with
// selectChatModels and talks to them with sendRequest, and the requests reach the gateway
// simulator started in-process. Covers: the model list, its limits and change events, streamed
// text, the System role, usage and cost, the channel on the wire, a tool round, image input
// rules, cancellation (down to the gateway socket), token counts, and the error without a key.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as vscode from 'vscode';
import { costOf } from '../../src/core/spend/cost';
import type { ChatMessage } from '../../src/core/client/types';
import { wordsAnswer } from '../gateway/answers';
import { config, until, useModelgate } from './helpers';
import { modelFamily } from '../../src/lm/modelFamily';

const VENDOR = 'modelgate';
/** a real 1x1 PNG */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const LOOKUP: vscode.LanguageModelChatTool = {
  name: 'lookup',
  description: 'Looks a word up',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
};

interface Collected {
  text: string;
  parts: unknown[];
}

async function collect(response: vscode.LanguageModelChatResponse): Promise<Collected> {
  const out: Collected = { text: '', parts: [] };
  for await (const part of response.stream) {
    out.parts.push(part);
    if (part instanceof vscode.LanguageModelTextPart) out.text += part.value;
  }
  return out;
}

/** A loopback TCP relay to the simulator that remembers which sockets carried which bytes. */
async function startRelay(targetPort: string): Promise<{ port: number; closedCarrying(text: string): boolean; close(): Promise<void> }> {
  const sockets: { sent: string; closed: boolean; client: net.Socket }[] = [];
  const server = net.createServer((client) => {
    const entry = { sent: '', closed: false, client };
    sockets.push(entry);
    const upstream = net.connect(Number(targetPort), '127.0.0.1');
    client.on('data', (d) => (entry.sent += d.toString('latin1')));
    client.pipe(upstream).pipe(client);
    const end = () => {
      entry.closed = true;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    closedCarrying: (text) => sockets.some((s) => s.closed && s.sent.includes(text)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.client.destroy(); // pooled keep-alive sockets would hold close() up
      }),
  };
}

describe('language model provider (vscode.lm, real VS Code)', function () {
  this.timeout(60_000);
  const mg = useModelgate({
    key: 'sk-test',
    restores: ['channel', 'models'],
    requires: () => typeof vscode.lm?.registerLanguageModelChatProvider === 'function',
  });
  const chatRequests = () => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions'));
  const lastRequest = () =>
    chatRequests().at(-1)!.body as {
      model: string;
      messages: ChatMessage[];
      tools?: { function: { name: string; parameters: unknown } }[];
      tool_choice?: unknown;
      provider?: unknown;
    };

  async function model(id: string): Promise<vscode.LanguageModelChat> {
    const [m] = await vscode.lm.selectChatModels({ vendor: VENDOR, id });
    assert.ok(m, `vscode.lm has the Modelgate model ${id}`);
    return m;
  }

  async function setChannel(channel: string): Promise<void> {
    await config().update('channel', channel === 'default' ? undefined : channel, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().channel === channel, `channel = ${channel}`);
  }

  it('lists the catalogue chat models with their names, limits and capabilities', async () => {
    // The gateway's GET /models (which adds reasoner and small-window to the built-in models) is
    // fetched once the key is stored, after the suite's set-up, and VS Code asks the provider again
    // only after the change event: wait until vscode.lm shows the catalogue with the listed models.
    const sortedIds = (ms: readonly { id: string }[]) => ms.map((m) => m.id).sort();
    const models = await until(async () => {
      const listed = await vscode.lm.selectChatModels({ vendor: VENDOR });
      const shown = sortedIds(listed);
      return shown.includes('reasoner') && shown.join() === sortedIds(mg.api.catalogue().chatModels()).join() ? listed : undefined;
    }, 'vscode.lm lists the same chat models as the catalogue, the gateway-listed reasoner included');
    const ids = sortedIds(models);
    assert.ok(ids.includes('flagship-text') && ids.includes('long-context-tools'), ids.join(', '));
    assert.ok(!ids.includes('image-restricted'), 'image models are not chat models');
    for (const m of models) {
      const info = mg.api.catalogue().chatModel(m.id)!;
      assert.equal(m.vendor, VENDOR);
      assert.equal(m.name, info.label);
      assert.equal(m.family, modelFamily(m.id)); // the simulator's ids are families of their own
      assert.equal(m.version, '1');
      // window minus the output reserve: min(max output, 8192, window / 4)
      assert.equal(m.maxInputTokens, info.contextWindow - Math.min(info.maxOutput, 8_192, Math.floor(info.contextWindow / 4)));
    }
    assert.equal(models.find((m) => m.id === 'flagship-text')!.maxInputTokens, 991_808);
    assert.equal(models.find((m) => m.id === 'long-context-tools')!.maxInputTokens, 1_991_808);
  });

  it('tells VS Code when the catalogue changes (a model added in the settings appears, then goes)', async () => {
    const changed = new Promise<void>((resolve) => {
      const sub = vscode.lm.onDidChangeChatModels(() => {
        sub.dispose();
        resolve();
      });
    });
    await config().update(
      'models',
      { 'my-model': { label: 'My model', contextWindow: 32_000, maxOutput: 4_000, imageInput: true } },
      vscode.ConfigurationTarget.Global,
    );
    await changed;
    const mine = await until(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'my-model' }))[0], 'my-model listed by vscode.lm');
    assert.equal(mine.name, 'My model');
    assert.equal(mine.maxInputTokens, 28_000);
    await config().update('models', undefined, vscode.ConfigurationTarget.Global);
    await until(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'my-model' })).length === 0, 'my-model gone');
  });

  it('reports a context window the gateway named in an overflow error as the model’s maxInputTokens (VS Code re-reads it), and the error says that window', async () => {
    // learned windows are kept in globalState across reloads and runs: a model of this run's own
    const id = `learned-window-${Date.now().toString(36)}`;
    await config().update('models', { [id]: { label: 'Learned window', contextWindow: 64_000, maxOutput: 2_000 } }, vscode.ConfigurationTarget.Global);
    try {
      const before = await until(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id }))[0], `${id} listed by vscode.lm`);
      assert.equal(before.maxInputTokens, 62_000, 'the settings’ 64K window minus the output reserve');
      const overflow =
        "This model's maximum context length is 16000 tokens. However, you requested 30000 tokens (28000 in the messages, 2000 in the completion). Please reduce the length of the messages or completion.";
      mg.gw.injectFault({
        kind: 'status',
        status: 400,
        body: JSON.stringify({ error: { message: overflow, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }),
      });
      const cts = new vscode.CancellationTokenSource();
      await assert.rejects(
        async () => {
          const response = await before.sendRequest([vscode.LanguageModelChatMessage.User('a long request')], {}, cts.token);
          for await (const part of response.stream) void part;
        },
        (err: Error) => err.message.includes(`does not fit the context window of ${id}, 16,000 tokens (the answer included)`),
      );
      cts.dispose();
      // VS Code keeps what the provider last told it: only the change event makes it read the new window
      const after = await until(async () => {
        const m = (await vscode.lm.selectChatModels({ vendor: VENDOR, id }))[0];
        return m && m.maxInputTokens !== 62_000 ? m : undefined;
      }, 'the learned window reported to vscode.lm');
      assert.equal(after.maxInputTokens, 14_000, '16,000 minus the output reserve (the 2,000 max output)');
    } finally {
      await config().update('models', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('streams the answer as text parts, sends no provider field on the default channel, and records usage', async () => {
    const flagship = await model('flagship-text');
    const before = chatRequests().length;
    const prompt = 'hello [[words:12]]';
    const response = await flagship.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, new vscode.CancellationTokenSource().token);
    const got = await collect(response);
    assert.equal(got.text, wordsAnswer(prompt, 12));
    assert.equal(got.text.split(' ').length, 12);
    assert.ok(
      got.parts.slice(0, -1).every((p) => p instanceof vscode.LanguageModelTextPart),
      'text parts, then the usage data part',
    );
    assert.equal(chatRequests().length, before + 1, 'one request reached the gateway');
    const body = lastRequest();
    assert.equal(body.model, 'flagship-text');
    assert.deepEqual(body.messages, [{ role: 'user', content: prompt }]);
    assert.equal('provider' in body, false, 'no provider field on the default channel');
    assert.equal('tools' in body, false);
    const usage = mg.api.lastUsage();
    assert.equal(usage?.source, 'chat');
    assert.equal(usage?.model, 'flagship-text');
    assert.ok(usage?.usage && usage.usage.completionTokens > 0 && usage.usage.promptTokens > 0, JSON.stringify(usage));
  });

  it('ends the answer with a usage data part (OpenAI shape, cached tokens included) that VS Code passes to the caller', async () => {
    const flagship = await model('flagship-text');
    const long = Array.from({ length: 300 }, (_, i) => `line ${i}: a prefix the cache keeps`).join('\n');
    const ask = async (tail: string) =>
      collect(await flagship.sendRequest([vscode.LanguageModelChatMessage.User(`${long}\n${tail}`)], {}, new vscode.CancellationTokenSource().token));
    await ask('first [[words:5]]');
    const got = await ask('second [[words:7]]');
    const last = got.parts.at(-1) as { mimeType?: string; data?: Uint8Array };
    assert.equal(last?.mimeType, 'usage', `the last part is the usage data part: ${got.parts.map((p) => p?.constructor?.name).join(', ')}`);
    const reported = JSON.parse(new TextDecoder().decode(last.data)) as {
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens: number;
      prompt_tokens_details: { cached_tokens: number };
    };
    const recorded = mg.api.lastUsage()!.usage!;
    assert.deepEqual(reported, {
      prompt_tokens: recorded.promptTokens,
      completion_tokens: recorded.completionTokens,
      total_tokens: recorded.promptTokens + recorded.completionTokens,
      prompt_tokens_details: { cached_tokens: recorded.cachedTokens },
    });
    assert.ok(reported.prompt_tokens_details.cached_tokens > 0, 'the second request read its prefix from the cache');
    assert.equal(got.text.split(' ').length, 7, 'the text is unchanged');
  });

  it('sends a System-role message (role 3, newer than the stable typings) as a system message', async () => {
    const flagship = await model('flagship-text');
    const system = new vscode.LanguageModelChatMessage(3 as vscode.LanguageModelChatMessageRole, 'Be brief.');
    const got = await collect(
      await flagship.sendRequest([system, vscode.LanguageModelChatMessage.User('hi [[words:3]]')], {}, new vscode.CancellationTokenSource().token),
    );
    assert.equal(got.text.split(' ').length, 3);
    assert.deepEqual(lastRequest().messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi [[words:3]]' },
    ]);
  });

  it("sends the channel setting as provider.channel and records the cost at that channel's price", async () => {
    const price = { input: 1.2, output: 4.8 };
    await config().update('models', { 'flagship-text': { prices: { economical: price } } }, vscode.ConfigurationTarget.Global);
    await until(() => !!mg.api.catalogue().price('flagship-text', 'economical'), 'price applied');
    await setChannel('economical');
    try {
      const flagship = await model('flagship-text');
      const got = await collect(
        await flagship.sendRequest([vscode.LanguageModelChatMessage.User('price me [[words:30]]')], {}, new vscode.CancellationTokenSource().token),
      );
      assert.equal(got.text.split(' ').length, 30);
      assert.deepEqual(lastRequest().provider, { channel: 'economical' });
      const usage = mg.api.lastUsage()!;
      assert.equal(usage.channel, 'economical');
      assert.ok(usage.usage);
      assert.equal(usage.cost, costOf(usage.usage, price));
      assert.ok(usage.cost! > 0);
    } finally {
      await setChannel('default');
      await config().update('models', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('runs a tool round: a tool call part with parsed input, then the result goes back and the summary comes back', async () => {
    const lct = await model('long-context-tools');
    const ask = vscode.LanguageModelChatMessage.User('find x [[call:lookup {"q":"x"}]]');
    const first = await collect(await lct.sendRequest([ask], { tools: [LOOKUP] }, new vscode.CancellationTokenSource().token));
    const calls = first.parts.filter((p): p is vscode.LanguageModelToolCallPart => p instanceof vscode.LanguageModelToolCallPart);
    assert.equal(calls.length, 1, JSON.stringify(first.parts));
    assert.equal(calls[0]!.name, 'lookup');
    assert.equal(calls[0]!.callId, 'call_1');
    assert.deepEqual(calls[0]!.input, { q: 'x' });
    const offered = lastRequest();
    assert.deepEqual(offered.tools, [{ type: 'function', function: { name: 'lookup', description: 'Looks a word up', parameters: LOOKUP.inputSchema } }]);
    assert.equal(offered.tool_choice, undefined);

    const result = 'x: the unknown\nsecond line';
    const second = await collect(
      await lct.sendRequest(
        [
          ask,
          vscode.LanguageModelChatMessage.Assistant([calls[0]!]),
          vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(calls[0]!.callId, [new vscode.LanguageModelTextPart(result)])]),
        ],
        { tools: [LOOKUP] },
        new vscode.CancellationTokenSource().token,
      ),
    );
    assert.equal(second.text, `Tool lookup returned ${result.length} characters. First line: \`x: the unknown\``);
    const wire = lastRequest().messages;
    assert.deepEqual(wire.slice(1), [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: result },
    ]);
  });

  it('forces a tool call with toolMode Required (tool_choice "required")', async () => {
    const flagship = await model('flagship-text');
    const got = await collect(
      await flagship.sendRequest(
        [vscode.LanguageModelChatMessage.User('no marker here')],
        { tools: [LOOKUP], toolMode: vscode.LanguageModelChatToolMode.Required },
        new vscode.CancellationTokenSource().token,
      ),
    );
    assert.equal(lastRequest().tool_choice, 'required');
    const calls = got.parts.filter((p) => p instanceof vscode.LanguageModelToolCallPart);
    assert.equal(calls.length, 1);
  });

  it('reports tool arguments that are not JSON as an error', async () => {
    const flagship = await model('flagship-text');
    const attempt = (async () =>
      collect(
        await flagship.sendRequest(
          [vscode.LanguageModelChatMessage.User('[[call:lookup {"q": ]]')],
          { tools: [LOOKUP] },
          new vscode.CancellationTokenSource().token,
        ),
      ))();
    await assert.rejects(attempt, /tool "lookup" with arguments that are not valid JSON/);
  });

  it('sends an image to the model with image input and refuses it for the text-only model', async function () {
    const DataPart = (vscode as unknown as { LanguageModelDataPart?: new (data: Uint8Array, mimeType: string) => unknown }).LanguageModelDataPart;
    if (!DataPart) this.skip(); // not in this VS Code's API
    const message = () =>
      new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.User, ['what is this?', new DataPart(new Uint8Array(PNG), 'image/png')] as never);
    const lct = await model('long-context-tools');
    const got = await collect(await lct.sendRequest([message()], {}, new vscode.CancellationTokenSource().token));
    assert.match(got.text, new RegExp(`I received 1 image: image/png \\(${PNG.length} bytes\\)`));
    const content = lastRequest().messages[0]!.content as { type: string; image_url?: { url: string } }[];
    assert.equal(content[1]!.image_url!.url, `data:image/png;base64,${PNG.toString('base64')}`);

    const before = chatRequests().length;
    const flagship = await model('flagship-text');
    // refused before the provider returns, so sendRequest itself rejects
    await assert.rejects(
      Promise.resolve(flagship.sendRequest([message()], {}, new vscode.CancellationTokenSource().token)),
      /Flagship \(text\) \(flagship-text\) accepts text only/,
    );
    assert.equal(chatRequests().length, before, 'nothing was sent');
  });

  it('stops streaming when the caller cancels, and closes the connection to the gateway', async () => {
    // Through a TCP relay that sees the sockets: VS Code stops delivering parts after a cancel
    // whatever the provider does, so only the socket shows that the request itself was stopped.
    const relay = await startRelay(new URL(mg.gw.baseUrl).port);
    const relayBase = mg.gw.baseUrl.replace(/:\d+\//, `:${relay.port}/`);
    await config().update('baseUrl', relayBase, vscode.ConfigurationTarget.Global);
    await until(() => mg.api.settings().baseUrl === relayBase, 'base URL = relay');
    await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test'); // keys are per origin
    try {
      const flagship = await model('flagship-text');
      // drip: the answer arrives a few bytes at a time, so it is far from done when cancelled
      const prompt = 'go on [[words:300]] [[fault:drip:5]] cancel-me-7f3a';
      const full = wordsAnswer(prompt, 300);
      const cts = new vscode.CancellationTokenSource();
      const response = await flagship.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, cts.token);
      let text = '';
      let ended: 'done' | 'threw' = 'done';
      try {
        for await (const part of response.text) {
          text += part;
          cts.cancel();
        }
      } catch {
        ended = 'threw';
      }
      assert.ok(text.length > 0, 'some text arrived before the cancel');
      assert.ok(text.length < full.length, `stopped early (${text.length} of ${full.length} characters, iteration ${ended})`);
      assert.ok(full.startsWith(text), 'what arrived is the start of the answer');
      // the whole dripped answer would take over a minute: a closed socket means the request was aborted
      await until(() => relay.closedCarrying('cancel-me-7f3a'), 'the socket of the cancelled request closed', 10_000);
      console.log(
        `      cancelled after ${text.length} of ${full.length} characters; iteration ${ended === 'done' ? 'ended normally' : 'threw'}; gateway socket closed`,
      );
    } finally {
      await vscode.commands.executeCommand('modelgate.clearApiKey');
      await config().update('baseUrl', mg.gw.baseUrl, vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().baseUrl === mg.gw.baseUrl, 'base URL restored');
      await relay.close();
    }
  });

  it("counts tokens with the extension's estimate", async () => {
    const flagship = await model('flagship-text');
    assert.equal(await flagship.countTokens('abcd'), 1);
    assert.equal(await flagship.countTokens('f(a, b);'), 3); // symbols count half a token
    assert.equal(await flagship.countTokens(vscode.LanguageModelChatMessage.User('abcd')), 5); // 4 framing + 1
  });

  it("counts an OpenAI family's tokens with its public tokenizer, loaded on the first count (o200k_base, cl100k_base)", async () => {
    // Counts published by OpenAI for tiktoken (OpenAI Cookbook, "How to count tokens with tiktoken"):
    // "tiktoken is great!" is 6 tokens in both encodings, "お誕生日おめでとう" 9 in cl100k_base, 8 in o200k_base.
    await config().update(
      'models',
      { 'openai/gpt-4o-2024-08-06': { contextWindow: 128_000, maxOutput: 16_384 }, 'openai/gpt-4-0613': { contextWindow: 8_192, maxOutput: 8_192 } },
      vscode.ConfigurationTarget.Global,
    );
    try {
      const gpt4o = await until(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'openai/gpt-4o-2024-08-06' }))[0], 'gpt-4o listed');
      const gpt4 = await until(async () => (await vscode.lm.selectChatModels({ vendor: VENDOR, id: 'openai/gpt-4-0613' }))[0], 'gpt-4 listed');
      assert.equal(gpt4o.family, 'gpt-4o');
      // the window minus the output reserve (8,192 at most, a quarter of the window at most)
      assert.equal(gpt4o.maxInputTokens, 128_000 - 8_192);
      assert.equal(gpt4.maxInputTokens, 8_192 - 2_048);
      assert.equal(await gpt4o.countTokens('tiktoken is great!'), 6);
      assert.equal(await gpt4o.countTokens('お誕生日おめでとう'), 8);
      assert.equal(await gpt4.countTokens('お誕生日おめでとう'), 9);
      assert.equal(await gpt4o.countTokens('<|endoftext|>'), 7); // spelled out, as the model reads it
      // a message: OpenAI's 3 framing tokens + the text
      assert.equal(await gpt4o.countTokens(vscode.LanguageModelChatMessage.User('tiktoken is great!')), 9);
      // the simulator's own models keep the estimate (the flagship's estimate of the same text is 5)
      assert.equal(await (await model('flagship-text')).countTokens('tiktoken is great!'), 5);
    } finally {
      await config().update('models', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('on a 402 names the balance, points at the console (or the setting) and not at a channel switch', async () => {
    const flagship = await model('flagship-text');
    const failure = async (): Promise<string> => {
      try {
        await collect(await flagship.sendRequest([vscode.LanguageModelChatMessage.User('hello while poor')], {}, new vscode.CancellationTokenSource().token));
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
      assert.fail('a request without balance must fail');
    };
    mg.gw.setBalance('sk-test', 0);
    try {
      let message = await failure();
      assert.match(message, /balance is too low/);
      assert.match(message, /modelgate\.consoleUrl/);
      assert.match(message, /switching channels does not help/);
      assert.doesNotMatch(message, /sk-test|Bearer/);
      await config().update('consoleUrl', 'https://console.example.com/billing', vscode.ConfigurationTarget.Global);
      await until(() => config().get('consoleUrl') === 'https://console.example.com/billing', 'console URL applied');
      message = await failure();
      assert.match(message, /Console: https:\/\/console\.example\.com\/billing/);
    } finally {
      mg.gw.setBalance('sk-test', 100);
      await config().update('consoleUrl', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('without a key, rejects with a message naming "Set API Key" and sends nothing', async () => {
    await vscode.commands.executeCommand('modelgate.clearApiKey');
    try {
      assert.equal(await mg.api.hasKey(), false); // also lets the provider's own read of the key finish first
      const before = chatRequests().length;
      const flagship = await model('flagship-text');
      // sendRequest itself rejects: the provider knows the key is missing before it returns
      await assert.rejects(
        Promise.resolve(flagship.sendRequest([vscode.LanguageModelChatMessage.User('hello')], {}, new vscode.CancellationTokenSource().token)),
        (e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          assert.match(message, /Set API Key/);
          assert.doesNotMatch(message, /sk-test|Bearer/);
          return true;
        },
      );
      assert.equal(chatRequests().length, before, 'no request without a key');
    } finally {
      await vscode.commands.executeCommand('modelgate.setApiKey', 'sk-test');
    }
  });
});
