// What a handler gets for one request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResponseFault } from './faults';
import type { GatewayState } from './gateway-state';

export interface RequestContext {
  state: GatewayState;
  req: IncomingMessage;
  res: ServerResponse;
  /** aborted when the client goes away or the simulator closes */
  signal: AbortSignal;
  /** the authenticated key */
  key: string;
  /** parsed JSON body */
  body: unknown;
  /** an injected fault that damages the response (upfront faults were already answered) */
  fault: ResponseFault | undefined;
  /** whether no fault was injected, so a `[[fault:...]]` marker may apply */
  markersApply: boolean;
  /** when the request arrived: performance.timeOrigin + performance.now() */
  arrivedAt: number;
}
