// What each answer to the image command's questions costs, in the words its rows show, from the
// catalogue's per-image prices (the user's `modelgate.models`, or the gateway's /models). The
// model row shows the range over its sizes and qualities, a size row the price per image, a count
// row the whole request, the quality rows the whole request at each quality; a model without a
// price says "no price known" (never $0). Pure, unit-tested in plain Node.
import type { ImageModelInfo } from '../core/catalogue/modelCatalogue';
import type { ImageSize } from '../core/client/types';
import { l10n } from '../core/l10n';
import { formatUsd } from '../core/spend/cost';
import { optionSpace, type ImageQuality } from './imageOptions';

/** USD per image of `size` at `quality` (standard: also what a model without the option is billed at); undefined: no price. */
export function pricePerImage(model: ImageModelInfo, size: ImageSize, quality: ImageQuality = 'standard'): number | undefined {
  return model.prices?.[quality]?.[size];
}

export const noPriceText = (): string => l10n.t('no price known');

/** The model row: "$0.04 per image", "$0.04–$0.12 per image" over what it offers, or "no price known". */
export function modelPriceText(model: ImageModelInfo): string {
  const space = optionSpace(model);
  const prices = space.sizes.flatMap((s) => (space.qualities ?? ['standard' as const]).map((q) => pricePerImage(model, s, q)));
  const known = prices.filter((p): p is number => p !== undefined);
  if (!known.length) return noPriceText();
  const low = Math.min(...known);
  const high = Math.max(...known);
  const range = low === high ? formatUsd(low) : `${formatUsd(low)}–${formatUsd(high)}`;
  return known.length < prices.length ? l10n.t('{0} per image (some sizes have no price known)', range) : l10n.t('{0} per image', range);
}

/**
 * A price per image, or for the whole request when n > 1, at each quality the model has (the
 * quality question comes after size and count): "$0.04 per image", "$0.08 for 2 images",
 * "$0.04 standard · $0.08 hd per image".
 */
export function choicePriceText(model: ImageModelInfo, size: ImageSize, n: number): string {
  const qualities = optionSpace(model).qualities;
  const cost = (q: ImageQuality) => {
    const each = pricePerImage(model, size, q);
    return each === undefined ? undefined : each * n;
  };
  if (!qualities) return requestPriceText(cost('standard'), n);
  const parts = qualities.map((q) => ({ q, usd: cost(q) }));
  if (parts.every((p) => p.usd === undefined)) return noPriceText();
  const list = parts.map((p) => (p.usd === undefined ? l10n.t('{0}: {1}', p.q, noPriceText()) : `${formatUsd(p.usd)} ${p.q}`)).join(' · ');
  if (parts.some((p) => p.usd === undefined)) return n === 1 ? list : l10n.t('{0} ({1} images)', list, n);
  return n === 1 ? l10n.t('{0} per image', list) : l10n.t('{0} for {1} images', list, n);
}

/** What the whole request costs: "$0.04 per image" (n = 1), "$0.08 for 2 images", or "no price known". */
export function requestPriceText(usd: number | undefined, n: number): string {
  if (usd === undefined) return noPriceText();
  return n === 1 ? l10n.t('{0} per image', formatUsd(usd)) : l10n.t('{0} for {1} images', formatUsd(usd), n);
}

/** The request's cost at `quality` (standard when the model has no such option), or undefined. */
export function requestCost(model: ImageModelInfo, size: ImageSize, n: number, quality?: ImageQuality): number | undefined {
  const each = pricePerImage(model, size, quality ?? 'standard');
  return each === undefined ? undefined : each * n;
}
