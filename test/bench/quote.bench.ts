// `npm run bench -- quote`: how close the quote before a send comes to what the gateway then
// bills. The scripted conversations (quoteScripts.ts) run against the simulator, which bills
// prompt caching as OpenAI and DeepSeek document it, through the panel's answer loop; before each
// send the quote is made exactly as the panel makes it (QuoteSession: the request counted, the
// cache predicted from the previous request, the answer from the conversation's history), and
// after it the session learns from the gateway's usage as the panel does. Printed per kind and
// overall: the median of |quoted - billed| / billed and the share of sends whose billed cost fell
// inside the quoted range. Then the longest task the quote adds per keystroke in a conversation of
// 100K tokens. Figures for people to read; nothing here asserts.
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ToolResult } from '../../src/agentTools/chatTools';
import { TOOL_DEFINITIONS } from '../../src/agentTools/schemas';
import { runAnswer } from '../../src/chat/answers/answerLoop';
import { systemPrompt } from '../../src/chat/context/systemPrompt';
import type { AssistantRecord } from '../../src/chat/conversations/conversationTranscript';
import { ModelCatalogue, type ChannelChoice } from '../../src/core/catalogue/modelCatalogue';
import { createGatewayClient } from '../../src/core';
import type { ChatMessage, ChatRequest, GatewayClient, ToolDefinition, Usage } from '../../src/core/client/types';
import { layoutPrompt, userMessage, type PinnedFile } from '../../src/core/prompt/promptLayout';
import type { AnswerUsage, RequestUsage } from '../../src/core/quote/answerHistory';
import type { PreviousRequest } from '../../src/core/quote/cachePrediction';
import { boundedCount, ESTIMATE_RULE, tokenizerRule, type TokenRule } from '../../src/core/quote/promptCount';
import { emptyLearning } from '../../src/core/quote/quoteLearning';
import { QuoteSession, type QuoteModel } from '../../src/core/quote/quoteSession';
import { PRICE_CARD, startGateway, type RunningGateway } from '../gateway/index';
import { codeText, scripts, type Script, type SendKind } from './quoteScripts';
import { figure } from './report';

/** The panel's own tools, as a trusted workspace offers them (their definitions are part of every request). */
const TOOLS: ToolDefinition[] = [...TOOL_DEFINITIONS];
const CHANNELS: ChannelChoice[] = ['direct', 'stable', 'economical'];
const MAX_ROUNDS = 10;

function catalogue(): ModelCatalogue {
  const overrides: Record<string, unknown> = {};
  for (const [model, card] of Object.entries(PRICE_CARD.chat)) overrides[model] = { prices: { ...card, default: card.stable } };
  return ModelCatalogue.build({ gatewayIds: Object.keys(PRICE_CARD.chat), overrides });
}

interface SendResult {
  kinds: SendKind[];
  quoted: number;
  low: number;
  high: number;
  billed: number;
  /** what went into the figures, for MODELGATE_BENCH_QUOTE_SENDS=1 (test-results/quote-sends.json) */
  detail?: Record<string, unknown>;
}

interface Recorded {
  messages: ChatMessage[];
  /** when it went (the simulator's clock) */
  at: number;
  usage?: Usage;
}

/** A client that notes each request's messages, time and usage (as the client reads it: OpenAI's or DeepSeek's fields). */
function recording(client: GatewayClient, gw: RunningGateway, log: Recorded[]): Pick<GatewayClient, 'streamChat'> {
  return {
    streamChat: async function* (request: ChatRequest, options) {
      const entry: Recorded = { messages: request.messages, at: gw.now() };
      log.push(entry);
      for await (const ev of client.streamChat(request, options)) {
        if (ev.type === 'usage') entry.usage = ev.usage;
        yield ev;
      }
    },
  };
}

async function runScript(script: Script, gw: RunningGateway, client: GatewayClient, session: QuoteSession, cat: ModelCatalogue): Promise<SendResult[]> {
  const results: SendResult[] = [];
  const history: ChatMessage[] = [];
  const pinned: PinnedFile[] = [...script.pinned];
  const answers: AnswerUsage[] = [];
  let channel = script.channel;
  let previous: PreviousRequest | undefined;
  const info = cat.chatModelOrDefaults(script.model);
  const model: QuoteModel = { id: info.id, caching: info.caching, maxOutput: info.maxOutput };
  const system = systemPrompt(TOOLS);
  let version = 0;
  for (const [i, send] of script.sends.entries()) {
    gw.advanceClock(send.pauseMs);
    if (send.channel) channel = send.channel;
    if (send.pin) {
      pinned.push({ ...send.pin, at: history.length });
      version++;
    }
    const message = userMessage(send.text, send.contexts ?? [], send.images ?? []);
    const base = () => layoutPrompt({ systemPrompt: system, pinned, history });
    const q = session.quote({
      model,
      channel,
      channels: CHANNELS,
      price: (c) => cat.price(model.id, c as ChannelChoice),
      tools: TOOLS,
      base,
      baseKey: `${script.name}#${history.length}#${version}`,
      message,
      answers,
      ...(previous ? { previous } : {}),
      toolsOffered: true,
      maxRounds: MAX_ROUNDS,
      now: gw.now(),
    });
    const log: Recorded[] = [];
    const record: AssistantRecord = { id: `a${i}`, role: 'assistant', parts: [], status: 'streaming', model: model.id, channel, createdAt: 0, wire: [] };
    let round = 0;
    const outcome = await runAnswer({
      client: recording(client, gw, log),
      model: model.id,
      channel: channel as ChannelChoice,
      messages: layoutPrompt({ systemPrompt: system, pinned, history: [...history, message] }),
      tools: TOOLS,
      maxToolRounds: MAX_ROUNDS,
      signal: new AbortController().signal,
      runTools: async (calls) =>
        calls.map((c): ToolResult => ({ content: codeText(i * 100 + round++, send.resultBytes?.[round - 1] ?? 2_000) + `\n// ${c.name}`, isError: false })),
      describeError: (e) => ({ message: String(e), actions: [] }),
      price: cat.price(model.id, channel as ChannelChoice)!,
      record,
      events: { text: () => {}, toolCall: () => {} },
    });
    if (record.status !== 'done') throw new Error(`${script.name} send ${i}: ${record.status} ${record.error?.message ?? ''}`);
    // learn per request, as the panel does when each request's usage arrives
    const requests: RequestUsage[] = [];
    log.forEach((r, k) => {
      const usage = r.usage!;
      previous = session.requestDone({ model: model.id, channel, messages: r.messages, tools: TOOLS, at: r.at, usage, ...(previous ? { previous } : {}) });
      requests.push({
        at: r.at,
        channel,
        promptTokens: usage.promptTokens,
        cachedTokens: usage.cachedTokens,
        completionTokens: usage.completionTokens,
        calls: k < log.length - 1,
      });
    });
    const a: AnswerUsage = { model: model.id, tools: true, requests };
    answers.push(a);
    session.answerDone(a);
    history.push(message, ...record.wire);
    const usd = q.selected.usd!;
    const sel = q.selected;
    results.push({
      kinds: send.kinds,
      quoted: usd.expected,
      low: usd.low,
      high: usd.high,
      billed: outcome.cost!,
      detail: {
        script: script.name,
        send: i,
        model: model.id,
        channel,
        quotedPrompt: sel.promptTokens,
        billedPrompt: requests[0]!.promptTokens,
        quotedCached: sel.cached.likely,
        cacheRange: [sel.cached.least, sel.cached.most],
        cacheReason: sel.cached.reason,
        billedCached: requests[0]!.cachedTokens,
        quotedRequests: q.answer.requests,
        billedRequests: requests.length,
        quotedOutput: q.answer.output,
        billedOutput: requests.at(-1)!.completionTokens,
        basis: q.answer.basis,
        expectedTokens: sel.expectedTokens,
        billedTokens: {
          prompt: requests.reduce((n, r) => n + r.promptTokens, 0),
          cached: requests.reduce((n, r) => n + r.cachedTokens, 0),
          output: requests.reduce((n, r) => n + r.completionTokens, 0),
        },
      },
    });
  }
  return results;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function accuracyFigures(results: SendResult[]): void {
  const kinds: (SendKind | 'overall')[] = ['plain', 'attachment', 'switch', 'agent', 'reasoning', 'overall'];
  for (const kind of kinds) {
    const rs = kind === 'overall' ? results : results.filter((r) => r.kinds.includes(kind));
    if (!rs.length) continue;
    const errors = rs.map((r) => Math.abs(r.quoted - r.billed) / r.billed);
    const inside = rs.filter((r) => r.billed >= r.low * (1 - 1e-9) && r.billed <= r.high * (1 + 1e-9)).length / rs.length;
    figure({
      name: `quote.${kind}.medianError`,
      value: median(errors) * 100,
      unit: '%',
      peerName: 'target',
      peer: 15,
      target: '< 1',
      note: `${rs.length} sends`,
    });
    figure({ name: `quote.${kind}.insideRange`, value: inside * 100, unit: '%', peerName: 'target', peer: 90, target: '>= 1', note: `${rs.length} sends` });
  }
}

/** A conversation of about 100K tokens (flagship-text, estimate): the quote per keystroke. */
function keystrokeFigures(label: string, rule: TokenRule): void {
  const session = new QuoteSession(() => rule, emptyLearning());
  const cat = catalogue();
  const pinned: PinnedFile[] = [{ path: 'src/big.ts', language: 'ts', content: codeText(9, 60_000) }];
  const history: ChatMessage[] = [];
  for (let i = 0; history.length < 240; i++) {
    history.push(userMessage(`Question ${i} about the code ${codeText(i, 300)}`));
    history.push({ role: 'assistant', content: `Answer ${i}. ${codeText(i + 1000, 2_000)}` });
  }
  const system = systemPrompt(TOOLS);
  const base = () => layoutPrompt({ systemPrompt: system, pinned, history });
  const info = cat.chatModelOrDefaults('flagship-text');
  const send = (text: string, key: string) =>
    session.quote({
      model: { id: info.id, caching: info.caching, maxOutput: info.maxOutput },
      channel: 'stable',
      channels: CHANNELS,
      price: (c) => cat.price(info.id, c as ChannelChoice),
      tools: TOOLS,
      base,
      baseKey: key,
      message: userMessage(text),
      answers: [],
      toolsOffered: true,
      maxRounds: MAX_ROUNDS,
      now: 0,
    });
  let t = performance.now();
  const tokens = send('', 'k0').selected.promptTokens;
  const cold = performance.now() - t;
  // a new turn: the conversation changed (two messages more), counted again: only the new texts are counted
  history.push(userMessage('One more question'), { role: 'assistant', content: codeText(77, 2_000) });
  t = performance.now();
  send('', 'k1');
  const nextTurn = performance.now() - t;
  const times: number[] = [];
  const cpu: number[] = [];
  let draft = '';
  const typed = 'How would I make the quote cheaper when the cache has expired? Please explain step by step. '.repeat(5);
  for (const ch of typed) {
    draft += ch;
    const c = process.cpuUsage();
    t = performance.now();
    send(draft, 'k1');
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  t = performance.now();
  send(`${draft}\n${codeText(5, 4_000)}`, 'k1'); // a paste of 4 KB
  const paste = performance.now() - t;
  if (process.env.MODELGATE_BENCH_QUOTE_SENDS === '1')
    console.log(
      `  ${label}: slowest keystrokes ${times
        .map((v, i) => [v, i] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 6)
        .map(([v, i]) => `#${i} ${v.toFixed(1)} ms`)
        .join(', ')}`,
    );
  figure({
    name: `quote.keystroke.${label}.longest.cpu`,
    value: Math.max(...cpu),
    unit: 'ms',
    peerName: 'target',
    peer: 16,
    target: '< 1',
    note: `CPU time of the process, ${times.length} keystrokes, conversation of ${Math.round(tokens / 1000)}K tokens`,
  });
  figure({
    name: `quote.keystroke.${label}.longest.clock`,
    value: Math.max(...times),
    unit: 'ms',
    note: 'the clock (counts waiting for a core on a shared machine, and collections)',
  });
  figure({ name: `quote.keystroke.${label}.median`, value: median(times), unit: 'ms' });
  figure({ name: `quote.keystroke.${label}.paste4KB`, value: paste, unit: 'ms' });
  figure({ name: `quote.${label}.firstCount`, value: cold, unit: 'ms', note: 'the whole conversation counted once (on open, not per keystroke)' });
  figure({ name: `quote.${label}.nextTurnCount`, value: nextTurn, unit: 'ms', note: 'after an answer: only its new texts are counted' });
}

export async function benchQuote(): Promise<void> {
  const gw = await startGateway();
  const client = createGatewayClient({ baseUrl: gw.baseUrl, apiKey: 'sk-test', retryBaseDelayMs: 1, retryMaxDelayMs: 2 });
  const session = new QuoteSession(() => ESTIMATE_RULE, emptyLearning());
  const cat = catalogue();
  const results: SendResult[] = [];
  const all = scripts();
  try {
    for (const script of all) results.push(...(await runScript(script, gw, client, session, cat)));
  } finally {
    await gw.close();
  }
  console.log(`  ${all.length} conversations, ${results.length} sends`);
  if (process.env.MODELGATE_BENCH_QUOTE_SENDS === '1') {
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/quote-sends.json', JSON.stringify(results, null, 1));
  }
  accuracyFigures(results);
  keystrokeFigures('estimate', ESTIMATE_RULE);
  const count = boundedCount((text) => o200k.countTokens(text, { allowedSpecial: new Set(), disallowedSpecial: new Set() }));
  keystrokeFigures('o200k', tokenizerRule('o200k_base', count));
}
