// Control endpoints for tests that run the simulator in another process. They live on the api
// server outside /v1, are not recorded, and need no key (the simulator listens on loopback only).
//   POST /__sim/fault    {kind, ...fault, times?}   queue a fault for the next generation requests
//   POST /__sim/balance  {key, usd?}                set (with usd) or read a key's balance -> {balance}
//   GET  /__sim/requests                            recorded requests, credentials redacted
//   POST /__sim/reset                               back to the start state
//   POST /__sim/channel  {channel, ...patch}         change a channel's latency, throughput, error rate, prices,
//                                                   context share or refused models -> {profile}
//   GET  /__sim/channels                            {profiles, record}: how channels behave, what each did
//   GET  /__sim/streams                             every streamed chat answer (planned, sent, charged; closed early?)
//   POST /__sim/clock    {advanceMs}                 move the simulator's clock forward (prompt caches expire by it) -> {now}
//   GET  /__sim/health                              {ok, baseUrl, imageHostUrl}
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { applyChannelPatch, channelRequestSchema } from './channel-profiles';
import { faultRequestSchema, type Fault } from './faults';
import { redacted, type GatewayState } from './gateway-state';
import { sendJson } from './http-io';
import { paramPath } from './zod-issue';

const balanceSchema = z.object({ key: z.string().min(1), usd: z.number().finite().optional() });
const clockSchema = z.object({
  advanceMs: z
    .number()
    .int()
    .nonnegative()
    .max(365 * 24 * 3_600_000),
});

function bad(res: ServerResponse, message: string): void {
  sendJson(res, 400, { error: { message, type: 'invalid_request_error', param: null, code: null } });
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function handleControl(state: GatewayState, baseUrl: string, req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): void {
  const route = `${req.method} ${path}`;
  switch (route) {
    case 'POST /__sim/fault': {
      const parsed = faultRequestSchema.safeParse(parse(body));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return bad(res, `Invalid fault: ${issue ? `${paramPath(issue.path) || 'body'}: ${issue.message}` : 'unreadable body'}`);
      }
      const { times, ...fault } = parsed.data;
      state.faults.push(fault as Fault, times ?? 1);
      return sendJson(res, 200, { ok: true });
    }
    case 'POST /__sim/balance': {
      const parsed = balanceSchema.safeParse(parse(body));
      if (!parsed.success) return bad(res, 'Expected {"key": string, "usd"?: number}.');
      const { key, usd } = parsed.data;
      if (usd !== undefined) state.balances.set(key, usd);
      if (!state.balances.has(key)) return sendJson(res, 404, { error: { message: 'No such key.', type: 'invalid_request_error', param: 'key', code: null } });
      return sendJson(res, 200, { balance: state.balances.get(key) });
    }
    case 'POST /__sim/channel': {
      const parsed = channelRequestSchema.safeParse(parse(body));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return bad(res, `Invalid channel change: ${issue ? `${paramPath(issue.path) || 'body'}: ${issue.message}` : 'unreadable body'}`);
      }
      const { channel, ...patch } = parsed.data;
      applyChannelPatch(state.channels[channel], patch);
      return sendJson(res, 200, { profile: state.channels[channel] });
    }
    case 'POST /__sim/clock': {
      const parsed = clockSchema.safeParse(parse(body));
      if (!parsed.success) return bad(res, 'Expected {"advanceMs": a whole number of milliseconds, at least 0}.');
      state.clockOffsetMs += parsed.data.advanceMs;
      return sendJson(res, 200, { now: state.now() });
    }
    case 'GET /__sim/channels':
      return sendJson(res, 200, { profiles: state.channels, record: state.channelLedger.all() });
    case 'GET /__sim/streams':
      return sendJson(res, 200, state.streams);
    case 'GET /__sim/requests':
      return sendJson(res, 200, state.requests.map(redacted));
    case 'POST /__sim/reset':
      state.reset();
      return sendJson(res, 200, { ok: true });
    case 'GET /__sim/health':
      return sendJson(res, 200, { ok: true, baseUrl, imageHostUrl: state.imageHostUrl });
    default:
      return sendJson(res, 404, { error: { message: `Unknown control endpoint: ${route}.`, type: 'invalid_request_error', param: null, code: null } });
  }
}
