// Validation of an image request. Per-model rules: the restricted third-generation
// model makes one image at a time in three sizes and is the only one that takes quality and
// style; the small second-generation model makes up to ten, in the small sizes. A parameter a
// model does not take is rejected by name rather than silently ignored, so a client that
// sends it learns so in tests.
import { z } from 'zod';
import type { Channel } from '../../src/core/client/types';
import { invalidRequest } from './api-error';
import { resolveChannel } from './chat-request';
import { imageModel, type SimImageModel, type SimImageSize } from './models';
import { zodToApiError } from './zod-issue';

const ALL_SIZES: readonly SimImageSize[] = ['256x256', '512x512', '1024x1024', '1792x1024', '1024x1792'];

const imageRequestSchema = z.looseObject({
  model: z.string().min(1),
  prompt: z.string().min(1),
  n: z.number().int().nullish(),
  size: z.string().nullish(),
  quality: z.string().optional(),
  style: z.string().nullish(),
  user: z.string().optional(),
  response_format: z.string().nullish(),
  provider: z.looseObject({ channel: z.string().optional() }).nullish(),
});

export interface ValidImageRequest {
  model: SimImageModel;
  channel: Channel;
  prompt: string;
  n: number;
  size: SimImageSize;
  width: number;
  height: number;
  quality: 'standard' | 'hd';
  style: 'vivid' | 'natural';
  responseFormat: 'url' | 'b64_json';
}

export function validateImageRequest(raw: unknown): ValidImageRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalidRequest('The request body must be a JSON object.');
  const parsed = imageRequestSchema.safeParse(raw);
  if (!parsed.success) throw zodToApiError(parsed.error, raw);
  const req = parsed.data;

  const model = imageModel(req.model);
  if (!model) throw invalidRequest(`The model \`${req.model}\` does not exist or is not an image model.`, 'model', 'model_not_found');
  const channel = resolveChannel(req.provider?.channel);

  const n = req.n ?? 1;
  if (n < 1) throw invalidRequest(`Invalid value for 'n': ${n}. It must be at least 1.`, 'n', 'invalid_value');
  if (n > model.maxN) {
    throw invalidRequest(
      model.maxN === 1
        ? `Invalid value for 'n': ${n}. The model \`${model.id}\` supports only n=1.`
        : `Invalid value for 'n': ${n}. The model \`${model.id}\` supports at most ${model.maxN} images per request.`,
      'n',
      'invalid_value',
    );
  }

  const size = (req.size ?? '1024x1024') as SimImageSize;
  if (!ALL_SIZES.includes(size)) {
    throw invalidRequest(`Invalid value for 'size': '${req.size}'. Supported values are: ${ALL_SIZES.join(', ')}.`, 'size', 'invalid_value');
  }
  if (!model.sizes.includes(size)) {
    throw invalidRequest(
      `Invalid value for 'size': '${size}' is not supported by \`${model.id}\`. Supported sizes: ${model.sizes.join(', ')}.`,
      'size',
      'invalid_value',
    );
  }

  if (!model.qualityAndStyle) {
    for (const param of ['quality', 'style'] as const) {
      if (req[param] !== undefined && req[param] !== null) {
        throw invalidRequest(`The parameter '${param}' is not supported by \`${model.id}\`.`, param, 'unsupported_parameter');
      }
    }
  }
  const quality = req.quality ?? 'standard';
  if (quality !== 'standard' && quality !== 'hd') {
    throw invalidRequest(`Invalid value for 'quality': '${quality}'. Supported values are: standard, hd.`, 'quality', 'invalid_value');
  }
  const style = req.style ?? 'vivid';
  if (style !== 'vivid' && style !== 'natural') {
    throw invalidRequest(`Invalid value for 'style': '${style}'. Supported values are: vivid, natural.`, 'style', 'invalid_value');
  }
  const responseFormat = req.response_format ?? 'url';
  if (responseFormat !== 'url' && responseFormat !== 'b64_json') {
    throw invalidRequest(`Invalid value for 'response_format': '${responseFormat}'. Supported values are: url, b64_json.`, 'response_format', 'invalid_value');
  }

  const [width, height] = size.split('x').map(Number) as [number, number];
  return { model, channel, prompt: req.prompt, n, size, width, height, quality, style, responseFormat };
}
