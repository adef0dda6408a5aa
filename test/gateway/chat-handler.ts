// POST /v1/chat/completions: validate, charge, then answer as a stream or one JSON object.
import { ApiError, invalidRequest } from './api-error';
import { decideReply, textReply, type Reply } from './chat-reply';
import { textOf, validateChatRequest, type WireMessage } from './chat-request';
import { buildCompletion, buildStreamEvents, type SseEvent, type WireUsage } from './chat-stream';
import { chatPacing, drawFailure, type Pacing } from './channel-profiles';
import { applyUpfrontFault, sendEndlessLine, sendJsonWithFault, sendKeepAlives, streamErrorBody } from './fault-responses';
import { isUpfront, parseFaultMarker, type ResponseFault } from './faults';
import { sleep } from './http-io';
import { chatCost } from './prices';
import { demoReasoning } from './demo-answers';
import { fimAnswerText, fimQuery } from './fim-answers';
import type { StreamRecord } from './gateway-state';
import { hash32 } from './rng';
import { reasoningFor, refuseMissingReasoning } from './reasoning';
import { replayMarker, replayUsage, sendReplay } from './replay';
import type { RequestContext } from './request-context';
import { ResponseSender } from './response-sender';
import { deepseekTokens, renderMessage, tokensOf } from './tokens';
import type { SimChatModel } from './models';

export function upstreamFailure(status: 502 | 503): ApiError {
  return status === 502
    ? new ApiError(502, 'Bad gateway: the upstream connection failed. Please retry.', 'server_error', null, 'upstream_error')
    : new ApiError(503, 'The channel is overloaded. Please retry later.', 'server_error', null, 'channel_unavailable');
}

/** A channel that does not serve a model answers like an unsupported channel (400). */
export function channelRefuses(model: string, channel: string): ApiError {
  return invalidRequest(
    `The model \`${model}\` is not available on the '${channel}' channel. Pick another channel.`,
    'provider.channel',
    'unsupported_channel',
  );
}

/** A text's tokens as the model counts them (models.ts `tokens`). */
const textTokens = (model: SimChatModel, text: string): number => (model.tokens === 'deepseek' ? deepseekTokens(text) : tokensOf(text));

function completionTokens(model: SimChatModel, reply: Reply): number {
  if (reply.kind === 'text') return textTokens(model, reply.text);
  return reply.calls.reduce((n, c) => n + textTokens(model, c.name) + textTokens(model, c.arguments) + 3, 0);
}

/** The answer as the next request sends it back (the end of DeepSeek's output unit). */
function renderedReply(reply: Reply): string {
  if (reply.kind === 'text') return renderMessage({ role: 'assistant', content: reply.text });
  return renderMessage({ role: 'assistant', content: null, tool_calls: reply.calls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) });
}

export async function handleChat(ctx: RequestContext): Promise<void> {
  const { state, res, signal, key } = ctx;
  const request = validateChatRequest(ctx.body, {
    rejectStreamOptions: state.options.rejectStreamOptions,
    contextShare: (channel) => state.channels[channel].contextShare,
    serves: (id) => !state.options.servedModels || state.options.servedModels.includes(id),
  });
  const profile = state.channels[request.channel];
  const record = state.channelLedger.entry(request.model.id, request.channel);
  if (profile.refuses.includes(request.model.id)) {
    record.refusals++;
    throw channelRefuses(request.model.id, request.channel);
  }

  let fault = ctx.fault;
  const last = request.messages[request.messages.length - 1];
  if (ctx.markersApply && last?.role === 'user') {
    const marked = parseFaultMarker(textOf(last.content));
    if (marked && isUpfront(marked)) {
      if (!(await applyUpfrontFault(marked, res, signal))) return;
    } else if (marked) fault = marked;
  }

  // A thinking model refuses a tool loop that lost its reasoning (before any charge, as DeepSeek
  // does); the demo's model follows Kimi's rule, which covers earlier turns too.
  const demo = state.options.demo;
  const reasoningOf = (messages: readonly WireMessage[]) => {
    const thinking = demo ? demoReasoning(messages) : undefined;
    return reasoningFor(messages, request.model.thinks) ?? (thinking ? { form: 'content' as const, text: thinking } : undefined);
  };
  refuseMissingReasoning(request.messages, reasoningOf, demo);
  state.requireBalance(key);
  record.requests++;
  const failure = drawFailure(state.options.failures, profile, state.rng);
  if (failure) {
    record.failures++;
    throw upstreamFailure(failure.status);
  }

  const replay = ctx.markersApply && last?.role === 'user' ? replayMarker(textOf(last.content)) : undefined;
  if (replay) {
    state.charge(key, chatCost(request.model.id, request.channel, replayUsage(replay), profile.prices[request.model.id]));
    const paced = chatPacing(state.realistic, profile, request.promptTokens, state.rng);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-modelgate-channel': request.channel });
    res.flushHeaders();
    return sendReplay(new ResponseSender(res, signal), replay, paced.chunkMs);
  }

  // The completions mode: a fill-in-the-middle query gets a completion, streamed in token-sized pieces.
  const fim = fimQuery(request);
  const reply: Reply = fim
    ? { ...textReply(request, fimAnswerText(fim)), chunkSeed: hash32(fim.prefix + fim.suffix), chunkMax: 6 }
    : decideReply(request, state.options.demo);
  const model = request.model;
  const reasoning = fim ? undefined : reasoningOf(request.messages);
  const bucket = `${key}\u0000${model.id}\u0000${request.channel}`;
  let cached = 0;
  if (model.caching && model.cacheScheme === 'deepseek') {
    cached = state.units.lookup(bucket, request.rendered);
    state.units.store(bucket, request.rendered, renderedReply(reply));
  } else if (model.caching) cached = state.cache.lookupAndStore(bucket, request.prompt.text);
  // reasoning tokens are part of completion_tokens
  const reasoningTokens = reasoning ? textTokens(model, reasoning.text) : 0;
  const completion = completionTokens(model, reply) + reasoningTokens;
  const usage: WireUsage = {
    prompt_tokens: request.promptTokens,
    completion_tokens: completion,
    total_tokens: request.promptTokens + completion,
    // DeepSeek reports its cache in two fields of its own ("Context Caching": checking cache hits)
    ...(model.cacheScheme === 'deepseek'
      ? { prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: request.promptTokens - cached }
      : { prompt_tokens_details: { cached_tokens: cached } }),
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
  const price = profile.prices[model.id];
  const billed = { prompt_tokens: request.promptTokens, completion_tokens: completion, prompt_tokens_details: { cached_tokens: cached } };
  // A completion is billed as it streams: the prompt now, each token as it is sent (a stream the
  // client closes early stops costing). Other answers are charged whole when they start.
  const billAsStreamed = !!fim && request.stream;
  const upfront = chatCost(model.id, request.channel, billAsStreamed ? { ...billed, completion_tokens: 0 } : billed, price);
  state.charge(key, upfront);
  record.completionTokens += completion;

  const meta = { id: `chatcmpl-${state.nextId()}`, created: Math.floor(Date.now() / 1000), model: request.model.id };
  const planned = chatPacing(state.realistic, profile, request.promptTokens - cached, state.rng);
  record.firstTokenMs.push(planned.firstByteMs);
  const streamed = record.streamMs.push(0) - 1;
  const pacing = {
    firstByteMs: planned.firstByteMs,
    chunkMs: () => {
      const ms = planned.chunkMs();
      record.streamMs[streamed] = (record.streamMs[streamed] ?? 0) + ms;
      return ms;
    },
  };
  const headers = { 'x-request-id': `req_${meta.id}`, 'x-modelgate-channel': request.channel };

  if (!request.stream) {
    const events = buildStreamEvents(meta, reply, undefined, reasoning).filter((e) => e.content).length;
    let wait = pacing.firstByteMs;
    for (let i = 0; i < events; i++) wait += pacing.chunkMs();
    await sleep(wait, signal);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return sendJsonWithFault(res, signal, buildCompletion(meta, reply, usage, reasoning), fault);
  }

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
  res.flushHeaders();
  const events = buildStreamEvents(meta, reply, request.includeUsage ? usage : undefined, reasoning);
  const stream: StreamRecord = {
    id: meta.id,
    model: request.model.id,
    channel: request.channel,
    fim: !!fim,
    ...(request.user !== undefined ? { user: request.user } : {}),
    arrivedAt: ctx.arrivedAt,
    promptTokens: request.promptTokens,
    cachedTokens: cached,
    plannedTokens: completion,
    sentTokens: 0,
    contentChunks: events.filter((e) => e.content).length,
    sentChunks: 0,
    charged: upfront,
  };
  state.streams.push(stream);
  const progress: StreamProgress = { sentChunks: 0, sentText: '', ended: false, faulted: false };
  await sendStream(new ResponseSender(res, signal, fault?.kind === 'drip' ? fault.delayMs : undefined), events, {
    eol: profile.lineEnding,
    pacing,
    fault,
    held: () => state.streamsHeld,
    progress,
  });
  stream.endedAt = performance.timeOrigin + performance.now();
  stream.sentChunks = progress.sentChunks;
  stream.sentTokens = progress.ended ? completion : tokensOf(progress.sentText);
  if (!progress.ended && !progress.faulted) stream.closedEarly = progress.sentChunks > 0 ? 'streaming' : 'waiting';
  if (billAsStreamed && stream.sentTokens > 0) {
    const sent = { prompt_tokens: 0, completion_tokens: stream.sentTokens, prompt_tokens_details: { cached_tokens: 0 } };
    const cost = chatCost(request.model.id, request.channel, sent, price);
    state.charge(key, cost);
    stream.charged += cost;
  }
}

/** What a stream delivered: content chunks and their text, whether it reached its end, whether a fault ended it. */
interface StreamProgress {
  sentChunks: number;
  sentText: string;
  ended: boolean;
  faulted: boolean;
}

async function sendStream(
  sender: ResponseSender,
  events: SseEvent[],
  how: { eol: string; pacing: Pacing; fault: ResponseFault | undefined; held?: () => Promise<void> | undefined; progress?: StreamProgress },
): Promise<void> {
  const { eol, pacing, fault } = how;
  const progress = how.progress ?? { sentChunks: 0, sentText: '', ended: false, faulted: false };
  const end = eol + eol;
  await sender.stall(pacing.firstByteMs);
  let contentSent = 0;
  let faulted = false;
  for (const event of events) {
    if (sender.gone) return;
    // Chunk-counting faults fire before the first chunk past N (or before the finish chunk
    // when the answer has fewer than N chunks).
    if (fault && 'afterChunks' in fault && !faulted && (event.content || event.finish) && contentSent >= fault.afterChunks) {
      faulted = true;
      progress.faulted = true;
      switch (fault.kind) {
        case 'drop':
          return sender.drop();
        case 'stallAfter':
          await sender.stall(fault.ms);
          break;
        case 'malformed':
          await sender.write(`data: {not json${end}`);
          break;
        case 'streamError':
          await sender.write(`data: ${JSON.stringify(streamErrorBody(fault.message))}${end}`);
          sender.end();
          return;
        case 'keepAlive':
          return sendKeepAlives(sender, fault.intervalMs);
        case 'endlessLine':
          return sendEndlessLine(sender, 'data: {"choices":[{"index":0,"delta":{"content":"', fault.maxBytes);
      }
    }
    await sender.write(event.text + end);
    if (sender.gone) return;
    if (event.content) {
      contentSent++;
      progress.sentChunks = contentSent;
      progress.sentText += event.piece ?? '';
      await sender.stall(pacing.chunkMs());
      const held = contentSent === 1 ? how.held?.() : undefined;
      if (held) await sender.until(held);
    }
  }
  if (sender.gone) return;
  progress.ended = true;
  sender.end();
}
