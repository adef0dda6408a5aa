// The api server's request pipeline: record, route, injected upfront faults (a proxy in front
// of the service answers before it checks anything), authentication (a bearer key), Content-Type and
// JSON checks, then the endpoint handler. Handlers throw ApiError for 4xx/5xx answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, invalidRequest, notFound } from './api-error';
import { handleChat } from './chat-handler';
import { handleConsole } from './console-page';
import { handleControl } from './control';
import { applyUpfrontFault } from './fault-responses';
import { isUpfront, type ResponseFault } from './faults';
import type { GatewayState, RecordedRequest } from './gateway-state';
import { BodyTooLarge, readBody, sendError, sendJson } from './http-io';
import { handleImages } from './image-handler';
import { DEFAULT_CHANNEL, SIM_CHAT_MODELS, SIM_IMAGE_MODELS, chatModelEntry, imageModelEntry } from './models';
import { PRICE_CARD } from './prices';
import type { RequestContext } from './request-context';

const GENERATION_ROUTES: Record<string, (ctx: RequestContext) => Promise<void>> = {
  'POST /v1/chat/completions': handleChat,
  'POST /v1/images/generations': handleImages,
};

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

export async function handleApi(state: GatewayState, baseUrl: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const arrivedAt = performance.timeOrigin + performance.now();
  const controller = new AbortController();
  state.live.add(controller);
  res.on('close', () => {
    controller.abort();
    state.live.delete(controller);
  });
  const signal = controller.signal;
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0] as string;

  let record: RecordedRequest | undefined;
  if (!path.startsWith('/__sim/') && !path.startsWith('/console')) {
    record = { server: 'api', method, path, headers: { ...req.headers }, body: undefined, at: Date.now() };
    state.requests.push(record);
  }

  try {
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch (e) {
      if (e instanceof BodyTooLarge) throw new ApiError(413, 'Request body too large.', 'invalid_request_error', null, 'request_too_large');
      throw e;
    }
    const json = body.length ? parseJson(body) : undefined;
    if (record && body.length) record.body = json?.ok ? json.value : body.toString('utf8');

    if (path.startsWith('/__sim/')) return handleControl(state, baseUrl, req, res, path, body);
    if (handleConsole(state, req, res, path, body)) return;

    const route = `${method} ${path.replace(/\/+$/, '')}`;
    const handler = GENERATION_ROUTES[route];
    if (route === 'GET /v1/models') {
      state.authenticate(req.headers);
      const served = (id: string) => !state.options.servedModels || state.options.servedModels.includes(id);
      if (state.options.modelsDelayMs > 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, state.options.modelsDelayMs);
          signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
        });
        if (signal.aborted) return;
      }
      // holdModelList(): the listing waits until the test releases it (or the simulator closes).
      const held = state.modelsHeld;
      if (held) {
        await new Promise<void>((resolve) => {
          void held.then(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        if (signal.aborted) return;
      }
      return sendJson(res, 200, {
        object: 'list',
        data: [
          ...SIM_CHAT_MODELS.filter((m) => served(m.id)).map((m) => chatModelEntry(m, state.options.modelsForm, PRICE_CARD.chat[m.id]?.[DEFAULT_CHANNEL])),
          ...SIM_IMAGE_MODELS.filter((m) => served(m.id)).map((m) => imageModelEntry(m, state.options.modelsForm, PRICE_CARD.image[m.id])),
          ...state.options.extraModels,
        ],
      });
    }
    if (!handler) throw notFound(method, path);

    // Faults apply to generation requests only, so a background GET /models cannot use one up.
    const injected = state.faults.take();
    let fault: ResponseFault | undefined;
    if (injected && isUpfront(injected)) {
      if (!(await applyUpfrontFault(injected, res, signal))) return;
    } else fault = injected;

    const key = state.authenticate(req.headers);
    const contentType = req.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(contentType)) {
      throw invalidRequest("Content-Type must be 'application/json'.", null, 'invalid_content_type');
    }
    if (!json) throw invalidRequest('The request body is empty; expected a JSON object.', null, 'invalid_json');
    if (!json.ok) throw invalidRequest('We could not parse the JSON body of your request.', null, 'invalid_json');

    await handler({ state, req, res, signal, key, body: json.value, fault, markersApply: injected === undefined, arrivedAt });
  } catch (e) {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    if (e instanceof ApiError) return sendError(res, e);
    const message = e instanceof Error ? e.message : String(e);
    sendError(res, new ApiError(500, `Simulator error: ${message}`, 'server_error'));
  }
}
