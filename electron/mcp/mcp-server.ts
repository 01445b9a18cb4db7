/**
 * The MCP door (issue 11, DESIGN.md §11): the citation tools over the Model Context Protocol, with
 * the official SDK, on stdio. A third transport over the same dispatcher as IPC and the host: the
 * tools' input schemas are the contract's zod schemas as JSON Schema, every call is parsed by the
 * dispatcher, and a failure comes back as a tool result carrying the coded error (never a stack).
 */
import type { Readable, Writable } from 'node:stream';
// The SDK is loaded when a server starts, not with this module: the command line bundles this
// door, and ~20 MB of SDK and its dependencies in every `evidesk ingest` would only add to its peak.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { FullContext } from '../../shared/contract/citation-schemas.ts';
import { CITATION_TOOLS, citationTool } from '../../shared/contract/citation-tools.ts';
import { contract } from '../../shared/contract/contract.ts';
import type { Dispatch } from '../../shared/contract/dispatcher.ts';
import type { ErrorData } from '../../shared/contract/errors.ts';

/** Requests can carry a long quote: read messages up to this size, so the contract (not the transport) refuses what is too long. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface McpDoor {
  dispatch: Dispatch;
  /** The context a call inherits: this server's session; `agent` is the client's name once it has said it. */
  context: (clientName: string | undefined) => FullContext;
  version: string;
}

function inputSchemaOf(schema: z.ZodType): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' } as Tool['inputSchema'];
}

export function toolList(): Tool[] {
  return CITATION_TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: inputSchemaOf(contract[t.handler].input),
    annotations: { readOnlyHint: t.readOnly, destructiveHint: false, idempotentHint: t.readOnly, openWorldHint: false },
  }));
}

function errorResult(error: ErrorData): CallToolResult {
  const field = typeof error.details?.field === 'string' ? ` (field: ${error.details.field})` : '';
  return { isError: true, content: [{ type: 'text', text: `${error.code}${field}: ${error.message}` }], structuredContent: { error } };
}

/** The call's arguments with the door's context under whatever context the call carries. */
function withContext(args: Record<string, unknown>, context: FullContext): Record<string, unknown> {
  const given = args.context;
  if (given === undefined) return { ...args, context };
  // A context of the wrong type goes through as it is: the contract names the field.
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return args;
  return { ...args, context: { ...context, ...(given as Record<string, unknown>) } };
}

export async function createMcpServer(door: McpDoor): Promise<McpServer> {
  const [{ McpServer }, { CallToolRequestSchema, ListToolsRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const mcp = new McpServer(
    { name: 'evidence-desk', title: 'Evidence Desk citations', version: door.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Evidence Desk verifies citations as you make them. Find passages with search_sources, read them with get_source, and call cite for every claim you take from a source: it answers at once with a status and what to do next. Only present a claim as sourced when cite says verified and supported; correct a failed citation by citing again with relation "supersedes".',
    },
  );
  const tools = toolList();
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = citationTool(request.params.name);
    if (!tool) return errorResult({ code: 'UNKNOWN_HANDLER', message: `There is no tool named ${JSON.stringify(request.params.name)}; the tools are ${CITATION_TOOLS.map((t) => t.name).join(', ')}.` });
    const raw = request.params.arguments ?? {};
    const args = tool.takesContext ? withContext(raw, door.context(mcp.server.getClientVersion()?.name)) : raw;
    const envelope = await door.dispatch(tool.handler, args);
    if (!envelope.ok) return errorResult(envelope.error);
    const value = envelope.value as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }], structuredContent: value };
  });
  return mcp;
}

/**
 * Serves MCP on a pair of streams (stdin/stdout) until the client goes away: its end of stdin,
 * or a signal. Calls under way are finished (each write is one transaction) before it returns,
 * so a client that disconnects mid-call leaves the workspace whole.
 */
export async function serveMcpOnStdio(door: McpDoor, streams: { input: Readable; output: Writable }): Promise<void> {
  const mcp = await createMcpServer(door);
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const inFlight = new Set<Promise<unknown>>();
  const dispatch = door.dispatch;
  // Count calls under way, so closing waits for them.
  door.dispatch = (name, input) => {
    const p = dispatch(name, input);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    return p;
  };
  // A client gone mid-reply: the write fails with EPIPE. That ends the session, not the process:
  // the call under way finishes and the workspace is closed in order (other 'error' listeners,
  // such as the command line's exit on EPIPE, would cut that short).
  let gone = (): void => undefined;
  const onOutputError = (): void => gone();
  streams.output.removeAllListeners('error');
  streams.output.on('error', onOutputError);
  const transport = new StdioServerTransport(streams.input, streams.output, { maxBufferSize: MAX_MESSAGE_BYTES });
  const closed = new Promise<void>((resolve) => {
    gone = resolve;
    transport.onclose = () => resolve();
    streams.input.once('end', () => resolve());
    streams.input.once('close', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await mcp.connect(transport);
  await closed;
  await Promise.allSettled([...inFlight]);
  await mcp.close().catch(() => undefined);
}
