import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT } from './build.ts';

export const CLI_MAIN = path.join(ROOT, 'electron', 'cli', 'main.ts');

export interface McpSession {
  client: Client;
  stderr: () => string;
  /** A tool call's structured result (or its error), as the agent sees it. */
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * `evidesk mcp --workspace DIR …flags` under Node 24, driven by the SDK's own client over stdio;
 * `env` is added to the SDK's default environment for the server.
 */
export async function connectMcp(workspace: string, flags: string[] = [], clientName = 'test-agent', env: Record<string, string> = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_MAIN, 'mcp', '--workspace', workspace, ...flags], stderr: 'pipe', cwd: ROOT, env: { ...getDefaultEnvironment(), ...env } });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => err,
    call: async (name, args) => {
      const r = await client.callTool({ name, arguments: args });
      const value = (r.structuredContent ?? {}) as Record<string, unknown>;
      return { isError: r.isError === true, value };
    },
    close: () => client.close(),
  };
}
