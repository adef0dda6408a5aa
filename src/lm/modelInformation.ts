// What VS Code's chat and vscode.lm consumers are told about each Modelgate chat model. Pure:
// the result has the shape of vscode.LanguageModelChatInformation, built from the catalogue.
import { CHANNEL_INFO, type ChannelChoice, type ChatModelInfo, type Price } from '../core/catalogue/modelCatalogue';
import { outputReserve } from '../core/prompt/tokens';
import { l10n } from '../core/l10n';
import { modelFamily } from './modelFamily';

export interface LmModelInformation {
  id: string;
  name: string;
  family: string;
  version: string;
  detail: string;
  tooltip: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { imageInput: boolean; toolCalling: boolean };
  /**
   * The price, for the Pricing column of VS Code's "Chat: Manage Language Models" (only with a
   * known price). Not in @types/vscode 1.104's LanguageModelChatInformation: VS Code 1.139's
   * extension host copies a provider's `pricing` string into the model's metadata as it is (seen in its
   * extensionHostProcess.js, beside multiplierNumeric and inputCost), and the models editor shows
   * it; older versions ignore the field. Absent when no price is configured.
   *
   * Short ("$2/$8"): the editor writes the string into the first of the column's four cells
   * (a quarter of a 200 px column, made for Copilot's "1x"), so a sentence showed as "$2 i…" (seen
   * in the e2e screenshot). The numeric fields (`inputCost`, ...) would fill all four cells, but
   * VS Code words them as credits, not dollars. The whole price is in the tooltip.
   */
  pricing?: string;
}

/** "$2/$8" (input/output, USD per 1M tokens): what fits in the models editor's Pricing cell. */
export function pricingText(p: Price): string {
  // input/output price per 1M tokens, as short as it goes: keep it about 6 characters
  return l10n.t('${0}/${1}', p.input, p.output);
}

/** "Price per 1M tokens: $2 in, $8 out, $0.25 cached." */
export function priceSentence(p: Price): string {
  return p.cacheRead !== undefined
    ? l10n.t('Price per 1M tokens: ${0} in, ${1} out, ${2} cached.', p.input, p.output, p.cacheRead)
    : l10n.t('Price per 1M tokens: ${0} in, ${1} out.', p.input, p.output);
}

/**
 * Token limits. VS Code computes a model's context window as maxInputTokens + maxOutputTokens
 * (model picker and context widget of 1.139), so the two add up to the catalogue's window: the
 * output gets the same reserve the chat panel keeps free (the model's max output, at most 8K and
 * at most a quarter of the window, see outputReserve), and the prompt gets the rest. Without
 * the cap, a model whose max output equals its window would leave no room for any prompt.
 */
export function tokenLimits(model: Pick<ChatModelInfo, 'contextWindow' | 'maxOutput'>): { maxInputTokens: number; maxOutputTokens: number } {
  const reserve = Math.max(1, outputReserve(model.contextWindow, model.maxOutput));
  return { maxInputTokens: Math.max(1, model.contextWindow - reserve), maxOutputTokens: reserve };
}

function compact(tokens: number): string {
  if (tokens >= 1_000_000) return `${+(tokens / 1_000_000).toFixed(1)}M`;
  if (tokens >= 1_000) return `${+(tokens / 1_000).toFixed(1)}K`;
  return String(tokens);
}

/**
 * `configuredWindow`: the window the settings or the gateway's model list give, when the one in
 * `model` is smaller because the gateway named it in an overflow error (the tooltip says so).
 */
export function modelInformation(model: ChatModelInfo, channel: ChannelChoice, price?: Price, configuredWindow?: number): LmModelInformation {
  const ch = CHANNEL_INFO[channel];
  const abilities = [model.imageInput ? l10n.t('text and images') : l10n.t('text only'), model.tools ? l10n.t('tool calling') : l10n.t('no tool calling')];
  return {
    id: model.id,
    name: model.label,
    family: modelFamily(model.id),
    version: '1',
    detail: model.unlisted ? l10n.t('Modelgate · {0} channel · not listed by the gateway', ch.label) : l10n.t('Modelgate · {0} channel', ch.label),
    tooltip: [
      l10n.t(
        '{0} ({1}) through Modelgate, {2} channel: {3} {4} token context, {5}. The channel is the "modelgate.channel" setting ("Modelgate: Pick Channel").',
        model.label,
        model.id,
        ch.label.toLowerCase(),
        ch.detail,
        compact(model.contextWindow),
        abilities.join(', '),
      ),
      ...(configuredWindow !== undefined && configuredWindow !== model.contextWindow
        ? [
            l10n.t(
              'The gateway said in an overflow error that this model takes at most {0} tokens here, not the {1} the settings or its model list give.',
              model.contextWindow.toLocaleString('en-US'),
              configuredWindow.toLocaleString('en-US'),
            ),
          ]
        : []),
      ...(price ? [priceSentence(price)] : []),
      ...(model.unlisted ? [l10n.t('The gateway does not list this model; it is offered because your settings name it.')] : []),
    ].join(' '),
    ...tokenLimits(model),
    capabilities: { imageInput: model.imageInput, toolCalling: model.tools },
    ...(price ? { pricing: pricingText(price) } : {}),
  };
}
