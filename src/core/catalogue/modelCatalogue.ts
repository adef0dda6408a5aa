// The model catalogue: the one place that knows what each model can do and what it costs.
// Pickers, the status bar, chat and image generation all read from here.
// Sources, in increasing priority: the built-in defaults below (the models of the service
// interface), the ids the gateway lists at GET /models, and the user's `modelgate.models`.
import { l10n } from '../l10n';
import { CHANNELS, type Channel, type ImageSize } from '../client/types';
import type { GatewayModelFacts } from './modelFacts';
import type { ModelRequestParams } from '../client/modelParams';
import { parseModelOverride, type ImagePrices, type ModelOverride, type Price } from './modelOverrides';

export type { ImagePrices, ModelOverride, Price } from './modelOverrides';

/** 'default' = no provider field; the gateway picks the channel. */
export type ChannelChoice = 'default' | Channel;
export const CHANNEL_CHOICES: readonly ChannelChoice[] = ['default', ...CHANNELS];

export interface ChannelInfo {
  id: ChannelChoice;
  label: string;
  detail: string;
}

/**
 * What each channel means, for pickers and tooltips. Getters, so the texts are translated when
 * read (the translator is wired in activate, after this module loaded).
 */
export const CHANNEL_INFO: Record<ChannelChoice, ChannelInfo> = {
  default: {
    id: 'default',
    get label() {
      return l10n.t('Default');
    },
    get detail() {
      return l10n.t('The gateway picks the channel (no provider field is sent).');
    },
  },
  direct: {
    id: 'direct',
    get label() {
      return l10n.t('Direct');
    },
    get detail() {
      return l10n.t('Direct upstream connection: native behaviour and the full context window. Usually the lowest latency.');
    },
  },
  stable: {
    id: 'stable',
    get label() {
      return l10n.t('Stable');
    },
    get detail() {
      return l10n.t('Routed for reliability: fewest failed requests, at a moderate price.');
    },
  },
  economical: {
    id: 'economical',
    get label() {
      return l10n.t('Economical');
    },
    get detail() {
      return l10n.t('Routed for the lowest price; can be slower and less reliable.');
    },
  },
};

export interface ChatModelInfo {
  kind: 'chat';
  id: string;
  label: string;
  contextWindow: number;
  maxOutput: number;
  imageInput: boolean;
  tools: boolean;
  caching: boolean;
  prices: Partial<Record<ChannelChoice, Price>>;
  /** where each price came from: the gateway's /models or the user's settings (the picker says) */
  priceSources?: Partial<Record<ChannelChoice, 'gateway' | 'settings'>>;
  /** the model takes `reasoning_effort` (the gateway says so, or the user set one) */
  reasoning?: boolean;
  /** request parameters from `modelgate.models.<id>` */
  params?: ModelRequestParams;
  /** where the entry came from, for the picker's description */
  source: 'builtin' | 'gateway' | 'settings';
  /** the gateway's list is known and does not name it: kept only because the user set it */
  unlisted?: true;
}

export interface ImageModelInfo {
  kind: 'image';
  id: string;
  label: string;
  sizes: ImageSize[];
  maxN: number;
  quality: boolean;
  style: boolean;
  /** USD per image by quality and size; absent = no known price */
  prices?: ImagePrices;
  source: 'builtin' | 'gateway' | 'settings';
  /**
   * true: the gateway lists the model (or the user named it) but nothing says which options it
   * accepts, so the caller's options are sent as asked and the gateway's answer is shown.
   */
  rulesUnknown?: boolean;
  /** the gateway's list is known and does not name it: kept only because the user set it */
  unlisted?: true;
}

export type ModelInfo = ChatModelInfo | ImageModelInfo;

/**
 * Built-in entries: the models the service interface describes, under the ids the gateway
 * simulator serves. Real deployments name their models in `modelgate.models` or through
 * GET /models. No prices are built in: the price card is per account and per channel, and a
 * made-up price would show a wrong cost. Cost is shown once prices are configured.
 */
export const BUILTIN_MODELS: readonly ModelInfo[] = [
  {
    kind: 'chat',
    id: 'flagship-text',
    label: 'Flagship (text)',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    imageInput: false,
    tools: true,
    caching: true,
    prices: {},
    source: 'builtin',
  },
  {
    kind: 'chat',
    id: 'long-context-tools',
    label: 'Long context + images',
    contextWindow: 2_000_000,
    maxOutput: 2_000_000,
    imageInput: true,
    tools: true,
    caching: true,
    prices: {},
    source: 'builtin',
  },
  {
    kind: 'image',
    id: 'image-restricted',
    label: 'Image (3rd gen)',
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    maxN: 1,
    quality: true,
    style: true,
    source: 'builtin',
  },
  {
    kind: 'image',
    id: 'image-small',
    label: 'Image (2nd gen, small)',
    sizes: ['256x256', '512x512', '1024x1024'],
    maxN: 10,
    quality: false,
    style: false,
    source: 'builtin',
  },
];

/** Defaults for a chat model the gateway lists but nothing else describes. */
export const UNKNOWN_CHAT: Omit<ChatModelInfo, 'id' | 'label' | 'source'> = {
  kind: 'chat',
  contextWindow: 128_000,
  maxOutput: 16_000,
  imageInput: false,
  tools: true,
  caching: false,
  prices: {},
};

/** Heuristic for ids listed by the gateway only: image models are named so by convention. */
function looksLikeImageModel(id: string): boolean {
  return /image|dall|diffusion|flux|imagen/i.test(id);
}

/** An image model whose rules nobody told us: sizes/n/quality/style are the gateway's call. */
export function unknownImageModel(id: string, source: 'gateway' | 'settings'): ImageModelInfo {
  return { kind: 'image', id, label: id, sizes: ['1024x1024'], maxN: 1, quality: false, style: false, source, rulesUnknown: true };
}

export interface CatalogueProblem {
  modelId: string;
  message: string;
}

export class ModelCatalogue {
  private constructor(
    private readonly models: ReadonlyMap<string, ModelInfo>,
    /** entries of the setting that did not validate, reported to the user */
    readonly problems: readonly CatalogueProblem[],
    /** the gateway's model list is known: what it does not list is not served */
    readonly listed = false,
  ) {}

  static build(input: { gatewayIds?: readonly string[]; gatewayModels?: readonly GatewayModelFacts[]; overrides?: unknown }): ModelCatalogue {
    const models = new Map<string, ModelInfo>(BUILTIN_MODELS.map((m) => [m.id, m]));
    const listed: GatewayModelFacts[] = [...(input.gatewayIds ?? []).map((id) => ({ id })), ...(input.gatewayModels ?? [])];
    for (const facts of listed) {
      const id = facts.id;
      const known = models.get(id);
      // per-image prices the gateway lists (the user's modelgate.models still wins)
      const imagePrices = facts.imagePrices ? (facts.imagePrices as ImagePrices) : undefined;
      if (known?.kind === 'image') {
        if (imagePrices) models.set(id, { ...known, prices: { ...known.prices, ...imagePrices } });
        continue;
      }
      // Facts name a chat model (a context window, a price) even when the id says "image".
      const hasChatFacts = facts.contextWindow !== undefined || facts.price !== undefined || facts.maxOutput !== undefined;
      if (!known && (imagePrices || looksLikeImageModel(id)) && !hasChatFacts) {
        models.set(id, { ...unknownImageModel(id, 'gateway'), ...(imagePrices ? { prices: imagePrices } : {}) });
        continue;
      }
      const b: ChatModelInfo = known ?? { ...UNKNOWN_CHAT, id, label: id, source: 'gateway' };
      models.set(id, withFacts(b, facts));
    }
    const problems: CatalogueProblem[] = [];
    const overrides = input.overrides && typeof input.overrides === 'object' ? (input.overrides as Record<string, unknown>) : {};
    for (const [id, raw] of Object.entries(overrides)) {
      const parsed = parseModelOverride(id, raw);
      if (!parsed.success) {
        problems.push({ modelId: id, message: parsed.message });
        continue;
      }
      const o = parsed.data;
      const base = models.get(id);
      if (o.kind === 'image') {
        const b = base?.kind === 'image' ? base : undefined;
        models.set(id, {
          kind: 'image',
          id,
          label: o.label ?? b?.label ?? id,
          sizes: o.sizes ?? b?.sizes ?? ['1024x1024'],
          maxN: o.maxN ?? b?.maxN ?? 1,
          quality: o.quality ?? b?.quality ?? false,
          style: o.style ?? b?.style ?? false,
          ...(o.prices || b?.prices ? { prices: { ...b?.prices, ...o.prices } } : {}),
          source: 'settings',
        });
      } else {
        const b = base?.kind === 'chat' ? base : { ...UNKNOWN_CHAT, id, label: id, source: 'settings' as const };
        models.set(id, {
          ...b,
          label: o.label ?? b.label,
          contextWindow: o.contextWindow ?? b.contextWindow,
          maxOutput: o.maxOutput ?? b.maxOutput,
          imageInput: o.imageInput ?? b.imageInput,
          tools: o.tools ?? b.tools,
          caching: o.caching ?? b.caching,
          prices: { ...b.prices, ...(o.prices ?? {}) },
          priceSources: { ...b.priceSources, ...Object.fromEntries(Object.keys(o.prices ?? {}).map((c) => [c, 'settings' as const])) },
          reasoning: (b.reasoning ?? false) || o.reasoningEffort !== undefined,
          params: paramsOf(o),
          source: 'settings',
        });
      }
    }
    return new ModelCatalogue(models, problems);
  }

  /** A catalogue of these entries (servedModels.ts narrows one to what the gateway lists). */
  static of(models: readonly ModelInfo[], problems: readonly CatalogueProblem[], listed: boolean): ModelCatalogue {
    return new ModelCatalogue(new Map(models.map((m) => [m.id, m])), problems, listed);
  }

  /** Every entry, chat and image, in catalogue order. */
  entries(): ModelInfo[] {
    return [...this.models.values()];
  }

  get(id: string): ModelInfo | undefined {
    return this.models.get(id);
  }

  chatModel(id: string): ChatModelInfo | undefined {
    const m = this.models.get(id);
    return m?.kind === 'chat' ? m : undefined;
  }

  /** The model's entry, or conservative defaults for one nothing describes (the gateway may still serve it). */
  chatModelOrDefaults(id: string): ChatModelInfo {
    return this.chatModel(id) ?? { ...UNKNOWN_CHAT, id, label: id, source: 'gateway' };
  }

  imageModel(id: string): ImageModelInfo | undefined {
    const m = this.models.get(id);
    return m?.kind === 'image' ? m : undefined;
  }

  chatModels(): ChatModelInfo[] {
    return [...this.models.values()].filter((m): m is ChatModelInfo => m.kind === 'chat');
  }

  imageModels(): ImageModelInfo[] {
    return [...this.models.values()].filter((m): m is ImageModelInfo => m.kind === 'image');
  }

  /** USD for `n` images of `size` at `quality` (absent = the gateway's default, standard); undefined = no known price. */
  imageCost(modelId: string, size: ImageSize, n: number, quality: 'standard' | 'hd' = 'standard'): number | undefined {
    const each = this.imageModel(modelId)?.prices?.[quality]?.[size];
    return each === undefined ? undefined : each * n;
  }

  /** Where `price(modelId, channel)` came from; undefined when there is no price. */
  priceSource(modelId: string, channel: ChannelChoice): 'gateway' | 'settings' | undefined {
    const m = this.chatModel(modelId);
    if (!m) return undefined;
    const at = m.prices[channel] ? channel : m.prices.default ? 'default' : undefined;
    return at ? (m.priceSources?.[at] ?? 'settings') : undefined;
  }

  /** Price for a model on a channel: the channel's own entry, else the model's `default` entry. */
  price(modelId: string, channel: ChannelChoice): Price | undefined {
    const m = this.chatModel(modelId);
    return m?.prices[channel] ?? m?.prices.default;
  }
}

/** A chat entry with what the gateway's /models says on top (the settings come later and win). */
function withFacts(b: ChatModelInfo, f: GatewayModelFacts): ChatModelInfo {
  return {
    ...b,
    contextWindow: f.contextWindow ?? b.contextWindow,
    maxOutput: f.maxOutput ?? b.maxOutput,
    imageInput: f.imageInput ?? b.imageInput,
    tools: f.tools ?? b.tools,
    reasoning: f.reasoning ?? b.reasoning,
    ...(f.price ? { prices: { ...b.prices, default: f.price }, priceSources: { ...b.priceSources, default: 'gateway' as const } } : {}),
  };
}

function paramsOf(o: Extract<ModelOverride, { kind?: 'chat' }>): ModelRequestParams | undefined {
  const p: ModelRequestParams = {
    ...(o.maxOutputTokens !== undefined ? { maxOutputTokens: o.maxOutputTokens } : {}),
    ...(o.maxTokensField !== undefined ? { maxTokensField: o.maxTokensField } : {}),
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    ...(o.reasoningEffort !== undefined ? { reasoningEffort: o.reasoningEffort } : {}),
    ...(o.extraBody !== undefined ? { extraBody: o.extraBody } : {}),
  };
  return Object.keys(p).length ? p : undefined;
}
