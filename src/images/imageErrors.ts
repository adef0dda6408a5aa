// Errors of image generation that need words the shared client cannot know: which image option
// the gateway refused and what the catalogue allows, an image link that expired before the
// download, bytes that are not an image. Everything else (no key, balance, timeout ...) stays
// the client's GatewayError, whose kind drives the actions userErrors.showError offers.
import { GatewayError } from '../core';
import type { ImageModelInfo } from '../core/catalogue/modelCatalogue';
import { l10n } from '../core/l10n';
import { describeRejectedOption, type ImageChoices } from './imageOptions';

/** Invalid arguments of a programmatic call, or options the catalogue does not allow. */
export class ImageArgumentsError extends Error {
  override name = 'ImageArgumentsError';
  constructor(readonly problems: readonly string[]) {
    super(l10n.t('Cannot generate the image: {0}.', problems.join('; ')));
  }
}

/** The gateway refused an option the catalogue allowed. */
export class ImageOptionRejectedError extends Error {
  override name = 'ImageOptionRejectedError';
  constructor(
    message: string,
    override readonly cause: GatewayError,
  ) {
    super(message);
  }
}

/** The temporary image URL expired before the download (the gateway's image URLs are temporary: download promptly). */
export class ImageLinkExpiredError extends Error {
  override name = 'ImageLinkExpiredError';
  constructor(
    message: string,
    override readonly cause: GatewayError,
  ) {
    super(message);
  }
}

/** Bytes that are not a usable image (checked before anything is written). */
export class InvalidImageError extends Error {
  override name = 'InvalidImageError';
}

/** Turns a 400 about size, n, quality or style into a message that names the option and what is allowed. */
export function explainGenerationError(err: unknown, model: ImageModelInfo, sent: ImageChoices): unknown {
  if (!(err instanceof GatewayError) || (err.kind !== 'bad_request' && err.kind !== 'unsupported')) return err;
  const message = describeRejectedOption(model, sent, { param: err.param, serverMessage: err.serverMessage });
  return message ? new ImageOptionRejectedError(message, err) : err;
}

/** A `not_found` while downloading means the temporary image URL expired. */
export function explainDownloadError(err: unknown, index: number, total: number): unknown {
  if (!(err instanceof GatewayError) || err.kind !== 'not_found') return err;
  const which = total > 1 ? l10n.t(' (image {0} of {1})', index + 1, total) : '';
  return new ImageLinkExpiredError(
    l10n.t('The image link expired before Modelgate could download it{0}. Nothing was saved; generate the image again.', which),
    err,
  );
}
