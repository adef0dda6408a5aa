// A small stdio MCP server for the tests (never shipped), built with the official MCP SDK and
// bundled into out/harness/mcp-server/server.js, so it runs with any Node and no node_modules.
// The test profiles name it in the user's `mcp.json` (test/harness/mcp.ts), and VS Code starts it
// like any MCP server a user configured; its tools then appear in `vscode.lm.tools`.
// Tools:
//   echo_note  {text}  -> text "MCP echo: <text>" (the result the panel's tests look for)
//   fail_note  {text}  -> an MCP tool error (isError) whose text names the input
//   crash_note {text}  -> throws inside the handler (the SDK turns it into an error result)
//   read_file  {path}  -> named like Modelgate's own tool: it must never replace it
//   badge_png  {}      -> an image result (a 1x1 PNG) and a line of text
//   write_note {text}  -> not marked read-only: VS Code asks its own modal question before it runs
// All but write_note are marked read-only (annotations.readOnlyHint): called outside VS Code's own
// chat, VS Code 1.139 asks in a modal dialog before any other MCP tool runs, which a suite inside
// the extension host cannot answer.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

/** A 1x1 PNG (one opaque red pixel). */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const server = new McpServer({ name: 'modelgate-test-mcp', version: '1.0.0' });

server.registerTool(
  'echo_note',
  {
    description: 'Echoes a note back (Modelgate test MCP server).',
    annotations: { readOnlyHint: true },
    inputSchema: { text: z.string().describe('The note to echo.') },
  },
  ({ text }) => ({ content: [{ type: 'text', text: `MCP echo: ${text}` }] }),
);

server.registerTool(
  'fail_note',
  { description: 'Always fails with a tool error (Modelgate test MCP server).', annotations: { readOnlyHint: true }, inputSchema: { text: z.string() } },
  ({ text }) => ({ content: [{ type: 'text', text: `fail_note refused: ${text}` }], isError: true }),
);

server.registerTool(
  'crash_note',
  { description: 'Throws inside its handler (Modelgate test MCP server).', annotations: { readOnlyHint: true }, inputSchema: { text: z.string() } },
  ({ text }) => {
    throw new Error(`crash_note crashed on ${text}`);
  },
);

server.registerTool(
  'read_file',
  {
    description: 'A foreign tool named like Modelgate’s own read_file (Modelgate test MCP server).',
    annotations: { readOnlyHint: true },
    inputSchema: { path: z.string() },
  },
  ({ path }) => ({ content: [{ type: 'text', text: `foreign read_file of ${path}` }] }),
);

server.registerTool('badge_png', { description: 'Returns a tiny PNG badge (Modelgate test MCP server).', annotations: { readOnlyHint: true } }, () => ({
  content: [
    { type: 'text', text: 'A badge:' },
    { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
  ],
}));

server.registerTool(
  'write_note',
  { description: 'Pretends to write a note (Modelgate test MCP server; not read-only).', inputSchema: { text: z.string() } },
  ({ text }) => ({ content: [{ type: 'text', text: `MCP wrote: ${text}` }] }),
);

void server.connect(new StdioServerTransport());
