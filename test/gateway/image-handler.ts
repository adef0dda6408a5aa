// POST /v1/images/generations: validate, charge, render real PNGs, answer with URLs on the
// separate image host (default) or with base64 data (`response_format: "b64_json"`).
import { channelRefuses, upstreamFailure } from './chat-handler';
import { drawFailure, imageDelayMs } from './channel-profiles';
import { applyUpfrontFault, sendJsonWithFault } from './fault-responses';
import { isUpfront, parseFaultMarker, stripFaultMarkers } from './faults';
import { sleep } from './http-io';
import { validateImageRequest } from './image-request';
import { imageMbMarker, stripImageMb } from './markers';
import { padPng } from './png';
import { imageCost } from './prices';
import type { RequestContext } from './request-context';

export async function handleImages(ctx: RequestContext): Promise<void> {
  const { state, res, signal, key } = ctx;
  const request = validateImageRequest(ctx.body);

  let fault = ctx.fault;
  if (ctx.markersApply) {
    const marked = parseFaultMarker(request.prompt);
    if (marked && isUpfront(marked)) {
      if (!(await applyUpfrontFault(marked, res, signal))) return;
    } else if (marked) fault = marked;
  }
  const padMb = ctx.markersApply ? imageMbMarker(request.prompt) : undefined;
  const prompt = stripImageMb(stripFaultMarkers(request.prompt));

  const profile = state.channels[request.channel];
  const record = state.channelLedger.entry(request.model.id, request.channel);
  if (profile.refuses.includes(request.model.id)) {
    record.refusals++;
    throw channelRefuses(request.model.id, request.channel);
  }
  state.requireBalance(key);
  record.requests++;
  const failure = drawFailure(state.options.failures, profile, state.rng);
  if (failure) {
    record.failures++;
    throw upstreamFailure(failure.status);
  }

  state.charge(key, imageCost(request.model.id, request.quality, request.size, request.n) ?? 0);
  await sleep(imageDelayMs(state.realistic, profile, request.n, state.rng), signal);

  const data: { url?: string; b64_json?: string; revised_prompt?: string }[] = [];
  for (let i = 0; i < request.n && !signal.aborted; i++) {
    const rendered = await state.images.render(`${request.quality}:${request.style}:${prompt}`, request.width, request.height, i);
    const png = padMb ? padPng(rendered, padMb * 1024 * 1024, i + 1) : rendered;
    if (request.responseFormat === 'b64_json') {
      data.push({ b64_json: png.toString('base64') });
    } else {
      const url = `${state.imageHostUrl}/img/${state.images.publish(png)}.png`;
      data.push(
        request.model.revisesPrompt
          ? {
              url,
              revised_prompt: `A detailed ${request.style === 'vivid' ? 'vivid, dramatic' : 'natural, true-to-life'} illustration of ${prompt.trim()}, with a balanced composition and soft, even lighting.`,
            }
          : { url },
      );
    }
  }
  if (signal.aborted) return;
  res.setHeader('x-request-id', `req_img-${state.nextId()}`);
  await sendJsonWithFault(res, signal, { created: Math.floor(Date.now() / 1000), data }, fault);
}
