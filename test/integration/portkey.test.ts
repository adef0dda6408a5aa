// A real third-party gateway in front of the simulator: the open-source
// Portkey AI Gateway from the npm registry (docs/gateways.md) runs on 127.0.0.1, and Modelgate
// reaches the simulator through it, configured the way a user would: `modelgate.baseUrl` is
// Portkey's, and `modelgate.requestHeaders` carries Portkey's routing headers
// (`x-portkey-provider: openai`, `x-portkey-custom-host: <the simulator>`). Through the real
// extension: a streamed chat with a thinking model and a tool round, the model list, an image,
// and the error shapes Portkey produces (its own refusals, an upstream that fails or is down).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as vscode from 'vscode';
import type { ChatController } from '../../src/chat';
import type { ChatMessage } from '../../src/core/client/types';
import { reasoningText } from '../gateway/reasoning';
import { answerText, config, lastAssistant, until, useModelgate } from './helpers';
import { startPortkey, type RunningPortkey } from './portkeyGateway';

// (no 8 characters in common with Portkey's messages: Modelgate redacts every 8-character piece of the key)
const KEY = 'sk-pk-suite-7c41d09e';
/** listed by the simulator's GET /models only: seen in the catalogue = the list came through */
const LISTED_ONLY_UPSTREAM = 'portkey-upstream/listed-model';

/** a loopback port that nothing listens on (bound, then released) */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Portkey AI Gateway in front of the simulator (real VS Code)', function () {
  this.timeout(60_000);
  let portkey: RunningPortkey | undefined;
  before(async () => {
    portkey = await startPortkey();
  });
  after(async () => {
    await portkey?.close();
  });

  const headersFor = (upstream: string) => ({ 'x-portkey-provider': 'openai', 'x-portkey-custom-host': upstream });
  const mg = useModelgate({
    gateway: { keys: { [KEY]: { balance: 100 } }, extraModels: [{ id: LISTED_ONLY_UPSTREAM, object: 'model', owned_by: 'upstream' }] },
    settings: (gw) => ({
      baseUrl: portkey!.baseUrl,
      requestHeaders: headersFor(gw!.baseUrl),
      channel: 'default',
      'chat.model': 'long-context-tools',
    }),
    ready: (api) => api.settings().chatModel === 'long-context-tools',
    key: KEY,
    chat: true,
  });
  const chat = (): ChatController => mg.api.chat.controller;
  const upstream = (suffix: string) => mg.gw.requests.filter((r) => r.server === 'api' && r.path.endsWith(suffix));

  /** sends `text` and returns the answer's error message (the answer must have failed) */
  async function failedWith(text: string): Promise<string> {
    await chat().newChat();
    await chat().send(text);
    const a = await lastAssistant(chat());
    assert.equal(a.status, 'error', `expected an error, got: ${answerText(a).slice(0, 200)}`);
    return a.error!.message;
  }

  async function useHeaders(headers: Record<string, string>): Promise<void> {
    await config().update('requestHeaders', headers, vscode.ConfigurationTarget.Global);
    await until(() => JSON.stringify(mg.api.settings().requestHeaders) === JSON.stringify(headers), 'the request headers applied');
  }

  it('streams a thinking model through a tool round; the reasoning goes back through Portkey', async () => {
    await chat().newChat();
    const before = upstream('/chat/completions').length;
    const question = 'What does src/a.ts export? [[reasoning:passback]] [[call:read_file {"path":"src/a.ts"}]]';
    await chat().send(question);
    const a = await lastAssistant(chat());
    assert.equal(a.status, 'done', a.error?.message);
    // The reasoning of both requests (before the call, after the result), streamed and shown.
    const thinking = a.parts.flatMap((p) => (p.kind === 'thinking' ? [p.text] : []));
    assert.equal(thinking.join(''), reasoningText(question, 0) + reasoningText(question, 1));
    const tools = a.parts.flatMap((p) => (p.kind === 'tool' ? [p.call] : []));
    assert.equal(tools.length, 1);
    assert.equal(tools[0]!.status, 'done');
    assert.match(tools[0]!.result ?? '', /export function add/);
    assert.match(answerText(a), /^Tool read_file returned \d+ characters/);
    assert.ok(a.usage && a.usage.completionTokens > 0, 'usage came through the stream');

    // The simulator got both requests from Portkey, streamed, with the reasoning passed back.
    const sent = upstream('/chat/completions').slice(before);
    assert.equal(sent.length, 2, 'the question and the tool result');
    const second = sent[1]!.body as { stream?: boolean; messages: ChatMessage[] };
    assert.equal(second.stream, true);
    const call = second.messages.find((m) => m.role === 'assistant' && m.tool_calls);
    assert.equal(call?.reasoning_content, reasoningText(question, 0));
    // Portkey's routing headers stop at Portkey; the key goes on to the upstream.
    for (const r of sent) {
      assert.equal(r.headers['x-portkey-provider'], undefined);
      assert.equal(r.headers['x-portkey-custom-host'], undefined);
      assert.equal(r.headers.authorization, `Bearer ${KEY}`);
    }
  });

  it('does not pass the channel on: Portkey drops the provider field (docs/gateways.md)', async () => {
    await config().update('channel', 'direct', vscode.ConfigurationTarget.Global);
    try {
      await until(() => mg.api.settings().channel === 'direct', 'channel = direct');
      await chat().newChat();
      await chat().send('Which channel? [[words:3]]');
      assert.equal((await lastAssistant(chat())).status, 'done');
      const body = upstream('/chat/completions').at(-1)!.body as Record<string, unknown>;
      assert.equal(body.model, 'long-context-tools');
      assert.equal('provider' in body, false, 'Portkey forwards OpenAI parameters only');
    } finally {
      await config().update('channel', 'default', vscode.ConfigurationTarget.Global);
      await until(() => mg.api.settings().channel === 'default', 'channel = default');
    }
  });

  it('lists the models the gateway lists behind Portkey', async () => {
    const before = upstream('/models').length;
    await mg.api.refreshCatalogue();
    assert.ok(upstream('/models').length > before, 'GET /models reached the simulator');
    await until(() => mg.api.catalogue().get(LISTED_ONLY_UPSTREAM), 'the model only the simulator lists is in the catalogue');
  });

  it('generates an image through Portkey and downloads it from the image host without the headers', async () => {
    const folder = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'mg-portkey-images');
    try {
      const uris = await vscode.commands.executeCommand<vscode.Uri[]>('modelgate.generateImage', {
        prompt: 'A lighthouse at dusk',
        folder,
        model: 'image-small',
        size: '256x256',
        format: 'url',
        open: false,
      });
      assert.equal(uris?.length, 1);
      const png = fs.readFileSync(uris[0]!.fsPath);
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      assert.equal(upstream('/images/generations').length, 1);
      const downloads = mg.gw.requests.filter((r) => r.server === 'images');
      assert.equal(downloads.length, 1);
      for (const name of ['authorization', 'x-portkey-provider', 'x-portkey-custom-host']) assert.equal(downloads[0]!.headers[name], undefined, name);
    } finally {
      await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    }
  });

  it("shows Portkey's error shapes as clear messages", async () => {
    // The upstream's own error, passed on by Portkey (`openai error: ` prefixed), with its action.
    let message = await failedWith('Which model? [[fault:status:401]]');
    assert.match(message, /\(401\): openai error: Simulated status 401\./);
    assert.equal((await lastAssistant(chat())).error!.actions.includes('setKey'), true);

    // An upstream that answers a proxy's HTML page: Portkey wraps it in {"html-message": ...}.
    message = await failedWith('through a broken proxy [[fault:html502]]');
    assert.equal(message, 'The gateway (or a proxy in front of it) returned an HTML error page (502 Bad Gateway | edge.example). Try again in a moment.');

    // An empty upstream body: the same wrapper, empty. No JSON in the message.
    message = await failedWith('an empty 503 [[fault:empty:503]]');
    assert.match(message, /\(503 Service Unavailable, no message\)/);
    assert.doesNotMatch(message, /html-message|[{}]/);

    // An upstream that is down: Portkey's own fetch failure, in the same wrapper.
    const port = await closedPort();
    try {
      await useHeaders(headersFor(`http://127.0.0.1:${port}/v1`));
      message = await failedWith('nobody home');
      assert.match(message, /had a problem \(500\): Message: fetch failed Cause: Error: connect ECONNREFUSED 127\.0\.0\.1:\d+/);
      assert.doesNotMatch(message, /html-message|[{}]/);

      // Portkey's own refusal of a request without its routing header.
      await useHeaders({ 'x-portkey-custom-host': mg.gw.baseUrl });
      message = await failedWith('no provider header');
      assert.match(message, /\(400\): Either x-portkey-config or x-portkey-provider header is required\.$/);
    } finally {
      await useHeaders(headersFor(mg.gw.baseUrl));
    }
  });
});
