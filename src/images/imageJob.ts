// One image request from start to saved files: ask the gateway, download every image at once
// (URLs are temporary), verify the bytes, add the provenance text to PNGs, then write all files
// or none. Cancellation aborts the HTTP request or download in flight and nothing is written.
// Takes narrow dependencies (a GatewayClient, not the whole Services record) so tests can run
// it against the simulator with their own CancellationTokenSource.
import * as vscode from 'vscode';
import { imageFormatOf } from '../core';
import type { ImageModelInfo } from '../core/catalogue/modelCatalogue';
import type { GatewayClient, ImageResponse } from '../core/client/types';
import { imageBaseName } from './fileNames';
import { explainDownloadError, explainGenerationError, InvalidImageError } from './imageErrors';
import type { ImageChoices } from './imageOptions';
import { buildImageRequest, provenanceEntries, type ImageFormatOption } from './imageRequest';
import { saveAllOrNothing, type PreparedImage, type SaverFileSystem } from './imageSaver';
import type { ImageTarget } from './imageTarget';
import { insertPngText, InvalidPngError } from './pngText';

export interface ImageJob {
  prompt: string;
  model: ImageModelInfo;
  /** already validated against the model (imageOptions.validateChoices / the questions) */
  choices: ImageChoices;
  format?: ImageFormatOption;
  /** the end user's id, sent as `user` (already checked); never written into the files */
  user?: string;
  target: ImageTarget;
}

export interface ImageJobDeps {
  client: GatewayClient;
  /** called once the gateway answered (the request is billed from then on) */
  onResponse?: (response: ImageResponse) => void;
  /** short progress messages for the notification */
  onProgress?: (message: string) => void;
  now?: () => Date;
  /** tests wrap vscode.workspace.fs to inject a failing write */
  fs?: SaverFileSystem;
}

export interface ImageJobResult {
  uris: vscode.Uri[];
  /** the model's refined prompts, where it returned any and they differ from the prompt */
  revisedPrompts: string[];
}

/** Runs the job. Rejects with vscode.CancellationError when `token` was cancelled. */
export async function runImageJob(deps: ImageJobDeps, job: ImageJob, token: vscode.CancellationToken): Promise<ImageJobResult> {
  const abort = new AbortController();
  const subscription = token.onCancellationRequested(() => abort.abort());
  if (token.isCancellationRequested) abort.abort();
  try {
    return await run(deps, job, abort.signal, () => token.isCancellationRequested);
  } catch (err) {
    // Whatever the client made of the abort (an 'aborted' GatewayError, a DOMException), the
    // caller sees one thing: the user cancelled.
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    throw err;
  } finally {
    subscription.dispose();
  }
}

async function run(deps: ImageJobDeps, job: ImageJob, signal: AbortSignal, cancelled: () => boolean): Promise<ImageJobResult> {
  const progress = deps.onProgress ?? (() => undefined);
  const request = buildImageRequest(job.model, job.prompt, job.choices, job.format, job.user);
  progress(job.choices.n > 1 ? vscode.l10n.t('Generating {0} images…', job.choices.n) : vscode.l10n.t('Generating the image…'));

  let response: ImageResponse;
  try {
    response = await deps.client.generateImages(request, { signal });
  } catch (err) {
    throw explainGenerationError(err, job.model, job.choices);
  }
  deps.onResponse?.(response);
  if (!response.data.length) throw new InvalidImageError(vscode.l10n.t('The gateway answered without any image. Nothing was saved.'));

  const total = response.data.length;
  progress(total > 1 ? vscode.l10n.t('Downloading {0} images…', total) : vscode.l10n.t('Downloading the image…'));
  // All downloads at once, before any write: a link that expires or a bad image fails the whole
  // request while nothing is on disk yet. The first failure aborts the other downloads.
  const downloads = new AbortController();
  const onAbort = () => downloads.abort();
  signal.addEventListener('abort', onAbort);
  const created = new Date(Number.isFinite(response.created) && response.created > 0 ? response.created * 1000 : Date.now());
  const now = deps.now?.() ?? new Date();
  let prepared: PreparedImage[];
  try {
    prepared = await Promise.all(
      response.data.map(async (image, index) => {
        let bytes: Uint8Array;
        try {
          bytes = await deps.client.imageBytes({ url: image.url, b64_json: image.b64_json }, { signal: downloads.signal });
        } catch (err) {
          downloads.abort();
          throw explainDownloadError(err, index, total);
        }
        try {
          return prepare(bytes, job, image.revised_prompt, created, now, index);
        } catch (err) {
          downloads.abort();
          throw err;
        }
      }),
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
  }

  if (cancelled()) throw new vscode.CancellationError();
  progress(total > 1 ? vscode.l10n.t('Saving {0} images…', total) : vscode.l10n.t('Saving the image…'));
  const uris = await saveAllOrNothing(job.target.folder, prepared, { fs: deps.fs, isCancelled: cancelled });
  const revisedPrompts = [...new Set(response.data.map((d) => d.revised_prompt?.trim()).filter((r): r is string => !!r && r !== job.prompt.trim()))];
  return { uris, revisedPrompts };
}

/** File extension of each image type; the type comes from the bytes, never from a URL or header. */
const EXTENSION = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

function prepare(bytes: Uint8Array, job: ImageJob, revisedPrompt: string | undefined, created: Date, now: Date, index: number): PreparedImage {
  const format = imageFormatOf(bytes);
  if (!format) throw new InvalidImageError(vscode.l10n.t('The gateway sent something that is not a PNG, JPEG or WebP image. Nothing was saved.'));
  let out = bytes;
  if (format === 'png') {
    try {
      out = insertPngText(bytes, provenanceEntries({ prompt: job.prompt, revisedPrompt, model: job.model.id, choices: job.choices, created }));
    } catch (err) {
      if (err instanceof InvalidPngError)
        throw new InvalidImageError(vscode.l10n.t('The gateway sent a damaged PNG image ({0}). Nothing was saved.', err.message));
      throw err;
    }
  }
  // JPEG and WebP keep their bytes as they came: their metadata formats (EXIF/XMP) are not worth
  // a hand-written writer; the prompt is in the PNG case only.
  return { baseName: imageBaseName(job.prompt, now, index + 1), ext: EXTENSION[format], bytes: out };
}
