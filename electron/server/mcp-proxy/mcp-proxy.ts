/**
 * An MCP proxy: the SDK's stdio server transport faces the client, its stdio client transport
 * runs the real server, and every JSON-RPC message passes through unchanged (initialize,
 * tools/list, resources, prompts, notifications, server-to-client requests) except tools/call,
 * which is judged first. A denied call never reaches the server: the client gets a tool result
 * with isError and the reason. A failure of the judge is a denial.
 */
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Log } from '../../engine/ports.js';

/** The judge's answer for one tool call. */
export interface ToolCallVerdict {
  allow: boolean;
  reason: string;
}

/** Decides one tools/call; throwing counts as a denial. */
export type ToolCallJudge = (call: { name: string; arguments: Record<string, unknown> }) => Promise<ToolCallVerdict>;

/** Options of the proxy. */
export interface McpProxyOptions {
  /** The real server, spawned over stdio. */
  upstream: StdioServerParameters;
  judge: ToolCallJudge;
  /** The client side; the process's own stdin/stdout by default. */
  downstream?: Transport;
  log?: Log;
}

/** A running proxy. */
export interface McpProxy {
  /** Resolves when either side closes. */
  closed: Promise<void>;
  close(): Promise<void>;
}

type Id = string | number;

function isToolCall(m: JSONRPCMessage): m is JSONRPCMessage & { id: Id; method: 'tools/call'; params?: { name?: unknown; arguments?: unknown } } {
  return 'method' in m && m.method === 'tools/call' && 'id' in m;
}

function deniedResult(id: Id, reason: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `Denied by Warden: ${reason}` }], isError: true } } as JSONRPCMessage;
}

/** Starts the proxy: spawns the server and relays until either side closes. */
export async function startMcpProxy(opts: McpProxyOptions): Promise<McpProxy> {
  const upstream = new StdioClientTransport(opts.upstream);
  const downstream = opts.downstream ?? new StdioServerTransport();
  const judging = new Map<string, { cancelled: boolean }>();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return closed;
    closing = true;
    await Promise.allSettled([upstream.close(), downstream.close()]);
    resolveClosed();
  };
  const toClient = (m: JSONRPCMessage): void => {
    downstream.send(m).catch((e: Error) => opts.log?.warn('mcp proxy: cannot write to the client', { error: e.message }));
  };
  const toServer = (m: JSONRPCMessage): void => {
    upstream.send(m).catch((e: Error) => {
      opts.log?.warn('mcp proxy: cannot write to the server', { error: e.message });
      if ('id' in m && 'method' in m) toClient({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: `the MCP server is gone: ${e.message}` } } as JSONRPCMessage);
    });
  };

  const gate = async (m: JSONRPCMessage & { id: Id; params?: { name?: unknown; arguments?: unknown } }): Promise<void> => {
    const key = String(m.id);
    const state = { cancelled: false };
    judging.set(key, state);
    let verdict: ToolCallVerdict;
    try {
      const name = m.params?.name;
      const args = m.params?.arguments ?? {};
      if (typeof name !== 'string' || name === '') verdict = { allow: false, reason: 'tools/call without a tool name' };
      else if (typeof args !== 'object' || args === null || Array.isArray(args)) verdict = { allow: false, reason: 'tools/call arguments must be an object' };
      else verdict = await opts.judge({ name, arguments: args as Record<string, unknown> });
    } catch (e) {
      verdict = { allow: false, reason: `the guard failed, so the call is blocked (${(e as Error).message})` };
    } finally {
      judging.delete(key);
    }
    if (state.cancelled) return;
    if (verdict.allow) toServer(m);
    else toClient(deniedResult(m.id, verdict.reason));
  };

  downstream.onmessage = (m: JSONRPCMessage) => {
    if (isToolCall(m)) {
      void gate(m);
      return;
    }
    // a cancellation of a call still being judged: the call is dropped, not forwarded later
    if ('method' in m && m.method === 'notifications/cancelled') {
      const rid = (m.params as { requestId?: Id } | undefined)?.requestId;
      const state = rid === undefined ? undefined : judging.get(String(rid));
      if (state) {
        state.cancelled = true;
        return;
      }
    }
    toServer(m);
  };
  upstream.onmessage = toClient;
  upstream.onclose = () => void close();
  downstream.onclose = () => void close();
  upstream.onerror = (e) => opts.log?.warn('mcp proxy: server transport error', { error: e.message });
  downstream.onerror = (e) => opts.log?.warn('mcp proxy: client transport error', { error: e.message });

  await upstream.start();
  await downstream.start();
  return { closed, close };
}
