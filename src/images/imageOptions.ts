// Which options an image model accepts, derived from the one model catalogue
// (src/core/catalogue/modelCatalogue.ts). The questions, the validation of programmatic arguments and the
// explanation of a server-side rejection all read from here, so an option the catalogue says a
// model lacks is never offered, never sent, and is named when the server refuses one anyway.
// Pure, unit-tested in plain Node.
import type { ImageModelInfo } from '../core/catalogue/modelCatalogue';
import { l10n } from '../core/l10n';
import { IMAGE_SIZES, type ImageSize } from '../core/client/types';

export const QUALITIES = ['standard', 'hd'] as const;
export type ImageQuality = (typeof QUALITIES)[number];
export const STYLES = ['vivid', 'natural'] as const;
export type ImageStyle = (typeof STYLES)[number];

/** Defaults of the gateway's interface for the fields it gives defaults for. */
export const SPEC_DEFAULTS = { size: '1024x1024', n: 1, quality: 'standard', style: 'vivid' } as const;

/** Aspect ratio and the use the gateway's interface notes for each size, for the size picker. */
export const SIZE_NOTES: Record<ImageSize, string> = {
  '256x256': '1:1 · small icons',
  '512x512': '1:1 · medium',
  '1024x1024': '1:1 · square, general',
  '1792x1024': '16:9 · widescreen, banners, video covers',
  '1024x1792': '9:16 · vertical, wallpapers, stories',
};

export interface ImageOptionSpace {
  /** in the gateway's order, only its five sizes */
  sizes: ImageSize[];
  /** 1..maxN; [1] when the model makes one image per request */
  counts: number[];
  /** undefined: the model has no such option, and it is neither asked nor sent */
  qualities?: readonly ImageQuality[];
  styles?: readonly ImageStyle[];
}

/** n the gateway allows at most; the limit used when the catalogue does not know a model's rules */
export const SPEC_MAX_N = 10;

export function optionSpace(model: ImageModelInfo): ImageOptionSpace {
  if (model.rulesUnknown) {
    // Nothing says what the model accepts: offer what the gateway allows and let the gateway decide.
    return { sizes: [...IMAGE_SIZES], counts: Array.from({ length: SPEC_MAX_N }, (_, i) => i + 1) };
  }
  const sizes = IMAGE_SIZES.filter((s) => model.sizes.includes(s));
  const maxN = Math.max(1, Math.floor(model.maxN));
  return {
    sizes: sizes.length ? sizes : ['1024x1024'],
    counts: Array.from({ length: maxN }, (_, i) => i + 1),
    qualities: model.quality ? QUALITIES : undefined,
    styles: model.style ? STYLES : undefined,
  };
}

/** Options of one request, all of them valid for the model they were made for. */
export interface ImageChoices {
  size: ImageSize;
  n: number;
  quality?: ImageQuality;
  style?: ImageStyle;
}

/**
 * Choices to pre-select: the last ones used with this model where they are still allowed
 * (the catalogue may have changed since), else the gateway's defaults, else the first allowed.
 */
export function defaultChoices(model: ImageModelInfo, last?: Partial<Record<keyof ImageChoices, unknown>>): ImageChoices {
  const space = optionSpace(model);
  const pick = <T>(allowed: readonly T[], lastValue: unknown, fallback: T): T =>
    allowed.includes(lastValue as T) ? (lastValue as T) : allowed.includes(fallback) ? fallback : allowed[0];
  const choices: ImageChoices = {
    size: pick(space.sizes, last?.size, SPEC_DEFAULTS.size),
    n: pick(space.counts, last?.n, SPEC_DEFAULTS.n),
  };
  if (space.qualities) choices.quality = pick(space.qualities, last?.quality, SPEC_DEFAULTS.quality);
  if (space.styles) choices.style = pick(space.styles, last?.style, SPEC_DEFAULTS.style);
  return choices;
}

/** What a caller asked for; anything may be missing or wrong. */
export interface RequestedOptions {
  size?: unknown;
  n?: unknown;
  quality?: unknown;
  style?: unknown;
}

export type ValidationResult = { ok: true; choices: ImageChoices } | { ok: false; problems: string[] };

const list = (values: readonly (string | number)[]) => values.join(', ');

/** Allowed values of one option in words, e.g. "256x256, 512x512, 1024x1024" or "not supported". */
export function allowedText(model: ImageModelInfo, option: 'size' | 'n' | 'quality' | 'style'): string {
  const space = optionSpace(model);
  switch (option) {
    case 'size':
      return list(space.sizes);
    case 'n':
      return space.counts.length === 1 ? 'only 1' : `1 to ${space.counts.length}`;
    case 'quality':
      return space.qualities ? list(space.qualities) : 'not supported by this model';
    case 'style':
      return space.styles ? list(space.styles) : 'not supported by this model';
  }
}

/**
 * Checks requested options against the catalogue entry. Missing options take the gateway's
 * defaults (and are not sent for quality/style); every problem is listed with what is allowed.
 */
export function validateChoices(model: ImageModelInfo, requested: RequestedOptions): ValidationResult {
  const space = optionSpace(model);
  const problems: string[] = [];
  const choices = defaultChoices(model);
  // Optional fields the caller did not give are not sent: the server applies its own default.
  delete choices.quality;
  delete choices.style;

  if (requested.size !== undefined) {
    if (space.sizes.includes(requested.size as ImageSize)) choices.size = requested.size as ImageSize;
    else problems.push(l10n.t('size “{0}” is not available for {1} (allowed: {2})', String(requested.size), model.id, allowedText(model, 'size')));
  }
  if (requested.n !== undefined) {
    if (typeof requested.n === 'number' && space.counts.includes(requested.n)) choices.n = requested.n;
    else problems.push(l10n.t('n = {0} is not available for {1} (allowed: {2})', String(requested.n), model.id, allowedText(model, 'n')));
  }
  if (model.rulesUnknown) {
    // Shape-checked only (the gateway's values); whether the model takes them is the gateway's answer.
    if (requested.quality !== undefined) {
      if (QUALITIES.includes(requested.quality as ImageQuality)) choices.quality = requested.quality as ImageQuality;
      else problems.push(l10n.t('quality “{0}” is not valid (allowed: {1})', String(requested.quality), list(QUALITIES)));
    }
    if (requested.style !== undefined) {
      if (STYLES.includes(requested.style as ImageStyle)) choices.style = requested.style as ImageStyle;
      else problems.push(l10n.t('style “{0}” is not valid (allowed: {1})', String(requested.style), list(STYLES)));
    }
    return problems.length ? { ok: false, problems } : { ok: true, choices };
  }
  if (requested.quality !== undefined) {
    if (!space.qualities) problems.push(l10n.t('quality is not supported by {0} (leave it out)', model.id));
    else if (space.qualities.includes(requested.quality as ImageQuality)) choices.quality = requested.quality as ImageQuality;
    else problems.push(l10n.t('quality “{0}” is not valid (allowed: {1})', String(requested.quality), allowedText(model, 'quality')));
  }
  if (requested.style !== undefined) {
    if (!space.styles) problems.push(l10n.t('style is not supported by {0} (leave it out)', model.id));
    else if (space.styles.includes(requested.style as ImageStyle)) choices.style = requested.style as ImageStyle;
    else problems.push(l10n.t('style “{0}” is not valid (allowed: {1})', String(requested.style), allowedText(model, 'style')));
  }
  return problems.length ? { ok: false, problems } : { ok: true, choices };
}

const OPTION_NAMES = ['size', 'n', 'quality', 'style'] as const;

/**
 * The message for a request the server refused although the catalogue allowed it: names the
 * option (from the error's `param`, else from the server's words) and what the catalogue says
 * is allowed, so the user can fix the catalogue setting or pick another value.
 * Undefined when the refusal is not about one of these options.
 */
export function describeRejectedOption(model: ImageModelInfo, sent: ImageChoices, rejection: { param?: string; serverMessage?: string }): string | undefined {
  const param = rejection.param?.trim().toLowerCase();
  const option =
    OPTION_NAMES.find((o) => o === param) ?? (param ? undefined : OPTION_NAMES.find((o) => new RegExp(`\\b${o}\\b`, 'i').test(rejection.serverMessage ?? '')));
  if (!option) return undefined;
  const value = sent[option];
  const said = rejection.serverMessage ? ` ${l10n.t('The gateway said: {0}.', rejection.serverMessage.replace(/[.\s]+$/, ''))}` : '';
  const shown = value === undefined ? option : `${option} ${option === 'n' ? `= ${value}` : `“${value}”`}`;
  if (model.rulesUnknown) {
    return (
      `The gateway rejected ${shown} for ${model.id}.${said} ` +
      `The model catalogue does not know this model's rules; to pin them, add an entry for “${model.id}” with kind "image" in “modelgate.models”.`
    );
  }
  return (
    `The gateway rejected ${shown} for ${model.id}.${said} ` +
    `The model catalogue allows ${option}: ${allowedText(model, option)}. ` +
    `If the gateway's rules differ, correct the entry for “${model.id}” in “modelgate.models”.`
  );
}
