// The wire request for one image job and the text kept with each saved PNG. Pure.
import type { ImageModelInfo } from '../core/catalogue/modelCatalogue';
import type { ImageRequest } from '../core/client/types';
import type { ImageChoices } from './imageOptions';

export type ImageFormatOption = 'url' | 'b64_json';

/**
 * Only what the model supports is sent: quality and style exist on some models only, and an
 * option the catalogue says a model lacks is never put on the wire. `response_format` is sent
 * only when the caller asked for one: the gateway's interface leaves that parameter "not shown", so the
 * default request relies on the documented default (URLs).
 * No `provider`: the gateway's image request has no such field; the gateway picks the channel.
 */
export function buildImageRequest(model: ImageModelInfo, prompt: string, choices: ImageChoices, format?: ImageFormatOption, user?: string): ImageRequest {
  const request: ImageRequest = { model: model.id, prompt, n: choices.n, size: choices.size };
  // the gateway's `user` field: the end user's id (modelgate.endUserId or the caller's), only when there is one
  if (user) request.user = user;
  // A model of unknown rules gets what the caller asked for (validateChoices shape-checked it).
  if ((model.quality || model.rulesUnknown) && choices.quality) request.quality = choices.quality;
  if ((model.style || model.rulesUnknown) && choices.style) request.style = choices.style;
  if (format) request.response_format = format;
  return request;
}

export interface ImageProvenance {
  prompt: string;
  revisedPrompt?: string;
  model: string;
  choices: ImageChoices;
  /** when the gateway made the image */
  created: Date;
}

/** PNG text entries: standard keywords (Description, Creation Time, Software) where they fit. */
export function provenanceEntries(p: ImageProvenance): Array<[string, string]> {
  const entries: Array<[string, string]> = [['Description', p.prompt]];
  if (p.revisedPrompt && p.revisedPrompt !== p.prompt) entries.push(['Revised Prompt', p.revisedPrompt]);
  entries.push(['Model', p.model], ['Size', p.choices.size]);
  if (p.choices.quality) entries.push(['Quality', p.choices.quality]);
  if (p.choices.style) entries.push(['Style', p.choices.style]);
  entries.push(['Creation Time', p.created.toISOString()], ['Software', 'Modelgate']);
  return entries;
}
