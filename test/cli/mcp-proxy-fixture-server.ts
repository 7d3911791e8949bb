/**
 * A small MCP server built with the SDK, for the proxy tests: a resource, a prompt, and a tool
 * that sends a log notification before it answers.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'proxy-fixture', version: '1.0.0' }, { capabilities: { logging: {} } });
server.registerResource('readme', 'memo://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'fixture readme' }] }));
server.registerPrompt('greet', { argsSchema: { name: z.string() } }, ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `hello ${name}` } }] }));
server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => {
  await server.server.sendLoggingMessage({ level: 'info', data: `echoing ${text}` });
  return { content: [{ type: 'text', text }] };
});
await server.connect(new StdioServerTransport());
