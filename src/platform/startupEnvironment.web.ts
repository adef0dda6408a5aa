// Platform seam, web build: a web extension host has no process environment.

export function startupEnvironmentValue(_name: string): string | undefined {
  return undefined;
}

export function parseEnvironBlock(_block: string): Map<string, string> {
  return new Map();
}
