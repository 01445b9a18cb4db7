/**
 * Issue 11, bad input: the MCP server survives a client that goes away mid-call. The call under
 * way is finished or not started (each write is one transaction), the server exits cleanly, and
 * the workspace opens again with an intact audit chain.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/build.ts';
import { evidesk } from '../../support/cli.ts';
import { CLI_MAIN, connectMcp } from '../../support/mcp-client.ts';
import { makePdf, threePages, writeFile } from '../../support/pdf-fixtures.ts';
import { tempDir } from '../../support/workspace.ts';

let dir: string;
let workspace: string;
let pdfPath: string;

beforeAll(async () => {
  dir = tempDir('evidesk-mcp-cut-');
  workspace = path.join(dir, 'workspace');
  pdfPath = writeFile(dir, 'fixture.pdf', await makePdf(threePages()));
});


/** Speaks raw JSON-RPC to `evidesk mcp`, sends one tool call, and cuts the connection the way `how` says. */
async function cutMidCall(call: Record<string, unknown>, how: 'stdin' | 'signal'): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI_MAIN, 'mcp', '--workspace', workspace, '--session', `cut-${how}`], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
  let out = '';
  const initialised = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (out.includes('"id":1')) resolve();
    });
  });
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cutter', version: '1' } } });
  await initialised;
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call });
  // Gone before any reply: the pipe to read the reply closes too.
  child.stdout.destroy();
  if (how === 'stdin') child.stdin.end();
  else child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  return { code, stderr };
}

describe('a client that disconnects mid-call', () => {
  it('lets a registration under way finish, then the server exits cleanly', async () => {
    const r = await cutMidCall({ name: 'register_source', arguments: { path: pdfPath } }, 'stdin');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+|Unexpected error|EPIPE/);
  }, 60_000);

  it('survives a signal in the middle of a cite', async () => {
    const r = await cutMidCall({ name: 'cite', arguments: { claim: 'Leave is 14 days.', quote_context: 'leave', verbatim_quote: '14 days of annual leave', source: 'fixture.pdf', locator: { page: 3 } } }, 'signal');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+|Unexpected error|EPIPE/);
  }, 60_000);

  it('leaves the workspace whole: the chain verifies and the next agent carries on', async () => {
    const audit = await evidesk(workspace, 'audit', 'verify');
    expect(audit.code).toBe(0);
    const agent = await connectMcp(workspace, ['--session', 'after-cut']);
    try {
      const r = await agent.call('cite', { claim: 'Leave is 14 days.', quote_context: 'leave', verbatim_quote: '14 days of annual leave', source: 'fixture.pdf', locator: { page: 3 } });
      expect(r.value).toMatchObject({ status: 'verified', session_id: 'after-cut' });
      // The cut cite was finished or never started: never half of it.
      const cut = await agent.call('list_citations', { session_id: 'cut-signal' });
      for (const c of cut.value.citations as { status: string }[]) expect(c.status).toBe('verified');
    } finally {
      await agent.close();
    }
    expect((await evidesk(workspace, 'audit', 'verify')).code).toBe(0);
  }, 60_000);
});
