// Platform seam: what to add when the gateway cannot be reached. Node build: nothing (the error
// code, e.g. ECONNREFUSED, says it). The browser build swaps in net.web.ts.
export function connectHint(): string | undefined {
  return undefined;
}
