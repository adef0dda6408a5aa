// Platform seam: the environment the process started with. On Linux that is /proc/self/environ,
// which code running later in the process cannot change (assigning to process.env calls setenv,
// which leaves the start-up block alone): an extension sharing the extension host cannot switch
// on what a variable set by whoever started the host switches on. Elsewhere, process.env as it
// is now. The web build (startupEnvironment.web.ts) has no environment.
import { readFileSync } from 'node:fs';

let startup: Map<string, string> | undefined;

function parse(block: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const entry of block.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) vars.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return vars;
}

/** The value `name` had when the process started (see above), or undefined. */
export function startupEnvironmentValue(name: string): string | undefined {
  if (process.platform !== 'linux') return process.env[name];
  startup ??= parse(readFileSync('/proc/self/environ', 'latin1'));
  return startup.get(name);
}

/** For tests: parses an environ block the way startupEnvironmentValue reads /proc/self/environ. */
export const parseEnvironBlock = parse;
