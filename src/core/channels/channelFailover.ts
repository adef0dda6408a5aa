// Opt-in failover between channels, and the measurements channel health is made of. Wraps the
// shared client's streamChat: a request that fails BEFORE its first streamed content with an
// error another channel may not have (5xx, no connection, idle timeout, a rate limit the retry
// policy did not wait out, or the gateway refusing the channel for this model) is sent again on
// the next channel of `modelgate.fallbackChannels`. Never after content (text, reasoning or a
// tool call): a retry then would repeat or contradict what the user already has. Every attempt is measured and recorded
// against the channel that made it, failures included. Pure.
import type { ChannelChoice, Price } from '../catalogue/modelCatalogue';
import { errorKindOf, type HealthSample } from './channelHealth';
import { formatUsd } from '../spend/cost';
import { GatewayError, toGatewayError } from '../client/gatewayError';
import type { Channel, ChatRequest, ChatStreamEvent, GatewayClient, RequestOptions, Usage } from '../client/types';
import { CHANNELS } from '../client/types';
import { l10n } from '../l10n';

export interface ChannelSwitch {
  from: ChannelChoice;
  to: ChannelChoice;
  /** why `from` was left */
  error: GatewayError;
}

export interface FailoverOptions {
  /** `modelgate.fallbackChannels`, in order (empty: no failover) */
  fallbackChannels: readonly Channel[];
  /** every measured attempt, against the channel that made it */
  record?(model: string, channel: ChannelChoice, sample: HealthSample): void;
  /** a request is being sent again on another channel */
  onSwitch?(change: ChannelSwitch): void;
  now?: () => number;
}

/** The channels to try, in order: the chosen one, then the fallbacks not already in the list. */
export function channelChain(first: ChannelChoice, fallbacks: readonly Channel[]): ChannelChoice[] {
  const chain: ChannelChoice[] = [first];
  for (const c of fallbacks) if (!chain.includes(c)) chain.push(c);
  return chain;
}

/** Whether another channel might answer where this one failed (before any content). */
export function failoverEligible(error: GatewayError): boolean {
  if (error.afterContent) return false;
  switch (error.kind) {
    case 'server':
    case 'network':
    case 'timeout':
    // A short Retry-After was already waited out on this channel by the retry policy; what
    // reaches here is a wait it would not honour, or a limit that outlasted the retries.
    case 'rate_limit':
      return true;
    case 'unsupported':
    case 'bad_request':
      // the gateway refusing the channel for this model
      return error.code === 'unsupported_channel' || error.param === 'provider.channel' || /\bchannel\b/i.test(error.serverMessage ?? '');
    default:
      return false; // key, balance (every channel shares it), bad request, unknown model, cancelled
  }
}

/** Rough output tokens of a text when the gateway reports no usage (4 characters a token). */
const roughTokens = (chars: number) => Math.ceil(chars / 4);

/** Below this, a stream is too short to say anything about throughput. */
const MIN_STREAM_MS = 50;

/**
 * A client whose streamChat fails over and measures. Keep one per answer: after a switch, the
 * later requests of the answer (tool rounds) stay on the channel that served it.
 */
export class FailoverClient implements Pick<GatewayClient, 'streamChat'> {
  /** the channel that served the last request, once one did */
  served: ChannelChoice | undefined;
  /** the channel asked for first, and the switches made, for the usage line and the note */
  readonly switches: ChannelSwitch[] = [];
  private readonly now: () => number;

  constructor(
    private readonly client: Pick<GatewayClient, 'streamChat'>,
    private readonly options: FailoverOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async *streamChat(request: ChatRequest, requestOptions: RequestOptions = {}): AsyncGenerator<ChatStreamEvent> {
    const asked: ChannelChoice = request.provider?.channel ?? 'default';
    let chain = channelChain(asked, this.options.fallbackChannels);
    if (this.served && chain.includes(this.served)) chain = chain.slice(chain.indexOf(this.served));
    const signal = requestOptions.signal;
    for (let i = 0; i < chain.length; i++) {
      const channel = chain[i] as ChannelChoice;
      const attempt: ChatRequest = { ...request };
      if (channel === 'default') delete attempt.provider;
      else attempt.provider = { ...request.provider, channel };
      let started = this.now();
      let first: number | undefined;
      let last: number | undefined;
      let chars = 0;
      let usage: Usage | undefined;
      let delivered = false;
      try {
        const events = this.client.streamChat(attempt, {
          ...requestOptions,
          onRetry: (error, delayMs) => {
            this.record(request.model, channel, { at: this.now(), ok: false, error: errorKindOf(error) });
            started = this.now() + delayMs;
            requestOptions.onRetry?.(error, delayMs);
          },
        });
        for await (const ev of events) {
          // Reasoning is delivered content like text: the user has seen it (a retry elsewhere
          // would show other thinking), and it is the first token the channel sent.
          if ((ev.type === 'text' || ev.type === 'reasoning') && ev.text) {
            first ??= this.now();
            last = this.now();
            chars += ev.text.length;
            delivered = true;
          } else if (ev.type === 'tool_calls') {
            last = this.now();
            delivered = true;
          } else if (ev.type === 'usage') {
            usage = ev.usage;
          }
          yield ev;
        }
        this.served = channel;
        const sample: HealthSample = { at: this.now(), ok: true };
        if (first !== undefined) sample.firstTokenMs = Math.max(0, first - started);
        if (first !== undefined && last !== undefined && last - first >= MIN_STREAM_MS) {
          const tokens = usage?.completionTokens ?? roughTokens(chars);
          sample.tokensPerSecond = tokens / ((last - first) / 1000);
        }
        this.record(request.model, channel, sample);
        return;
      } catch (caught) {
        const error = toGatewayError(caught);
        if (signal?.aborted || error.kind === 'aborted') throw caught; // the user stopped it: not the channel's fault
        this.record(request.model, channel, { at: this.now(), ok: false, error: errorKindOf(error) });
        if (!(caught instanceof GatewayError)) throw caught;
        const next = chain[i + 1];
        if (delivered || next === undefined || !failoverEligible(error)) {
          if (this.switches.length && !delivered) error.message = `${error.message} (Tried ${chain.slice(0, i + 1).join(', ')}.)`;
          throw error;
        }
        const change: ChannelSwitch = { from: channel, to: next, error };
        this.switches.push(change);
        this.options.onSwitch?.(change);
      }
    }
  }

  private record(model: string, channel: ChannelChoice, sample: HealthSample): void {
    try {
      this.options.record?.(model, channel, sample);
    } catch {
      // health is a side record: it never fails a request
    }
  }
}

/** Channel names the setting may hold. */
export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}

/** Reads `modelgate.fallbackChannels`: the channels in order, and a clear problem for a bad value. */
export function parseFallbackChannels(raw: unknown): { channels: Channel[]; problem?: string } {
  if (raw === undefined || raw === null) return { channels: [] };
  const allowed = CHANNELS.join(', ');
  if (!Array.isArray(raw))
    return {
      channels: [],
      problem: l10n.t('"modelgate.fallbackChannels" must be a list of channels ({0}), for example ["stable"]. Failover is off.', allowed),
    };
  const channels: Channel[] = [];
  const bad: string[] = [];
  for (const v of raw) {
    if (isChannel(v)) {
      if (!channels.includes(v)) channels.push(v);
    } else bad.push(JSON.stringify(v));
  }
  if (bad.length) {
    const what =
      bad.length === 1
        ? l10n.t('"modelgate.fallbackChannels" has {0}, which is not a channel; allowed: {1}.', bad[0]!, allowed)
        : l10n.t('"modelgate.fallbackChannels" has {0}, which are not channels; allowed: {1}.', bad.join(', '), allowed);
    return { channels, problem: `${what} ${channels.length ? l10n.t('Using {0}.', channels.join(', ')) : l10n.t('Failover is off.')}` };
  }
  return { channels };
}

const CHANNEL_LABEL: Record<ChannelChoice, string> = { default: 'the default channel', direct: 'direct', stable: 'stable', economical: 'economical' };

/**
 * The once-per-conversation note about a switch: which channel failed and why, which one served,
 * and what the switch cost in prompt cache (another channel has its own cache, so the prompt
 * was billed uncached there). `cacheBuilt`: an earlier answer of the conversation put its prompt
 * in the first channel's cache; on a conversation's first answer nothing was cached anywhere, so
 * the note says nothing about a cache.
 */
export function switchNote(
  switches: readonly ChannelSwitch[],
  served: ChannelChoice,
  usage: Usage | undefined,
  price: Price | undefined,
  cacheBuilt = true,
): string {
  const failed = switches.map((s) => `${CHANNEL_LABEL[s.from]} (${errorKindOf(s.error)})`).join(', then ');
  let note = `This answer came from ${CHANNEL_LABEL[served]}: ${failed} failed before answering (“modelgate.fallbackChannels”).`;
  if (usage && cacheBuilt) {
    const uncached = Math.max(0, usage.promptTokens - usage.cachedTokens);
    note += ` Each channel has its own prompt cache, so ${uncached.toLocaleString('en-US')} prompt tokens were billed uncached on ${CHANNEL_LABEL[served]}`;
    if (price && price.cacheRead !== undefined && uncached > 0) {
      note += `: ${formatUsd((uncached * (price.input - price.cacheRead)) / 1_000_000)} more than if ${CHANNEL_LABEL[served]} had held them in its cache.`;
    } else note += '.';
  }
  note += ' Later answers start on your channel again.';
  return note;
}
