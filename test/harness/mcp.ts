// The test MCP server (test/harness/mcp-server/server.ts, bundled to out/harness/mcp-server/server.js)
// in a test profile's user `mcp.json` (`<user-data>/User/mcp.json`, where VS Code reads the user's
// MCP servers). VS Code lists its tools in `vscode.lm.tools` once the server has started; see
// docs/mcp-tools.md for what starts it without a person.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

/** The server's name in mcp.json; VS Code names its tools `mcp_<name>_<tool>` (name cut to fit). */
export const TEST_MCP_SERVER = 'mgtest';

/** Writes `User/mcp.json` naming the test MCP server, run by `node` (the harness's own by default). */
export function writeTestMcpConfig(userDataDir: string, node = process.execPath, root = repoRoot()): void {
  const server = join(root, 'out/harness/mcp-server/server.js');
  if (!existsSync(server)) throw new Error(`the test MCP server is not built (${server}): run node esbuild.mjs --tests`);
  const config = { servers: { [TEST_MCP_SERVER]: { type: 'stdio', command: node, args: [server] } } };
  writeFileSync(join(userDataDir, 'User', 'mcp.json'), JSON.stringify(config, null, 2));
}
