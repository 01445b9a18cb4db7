import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { APP_VERSION } from '../../services/create-services.ts';
import { apiDefaults } from '../../services/citations/citation-tools.ts';
import { serveMcpOnStdio } from '../../mcp/mcp-server.ts';
import { warmVerifier } from '../../services/verification/verifier-warmup.ts';
import { EXIT, flagString, type SharedCommand } from '../command.ts';

/** An id given on the command line, or the stand-in; ids are at most 200 characters. */
function idOr(given: string | undefined, fallback: string): string {
  const v = (given ?? '').trim();
  return (v || fallback).slice(0, 200);
}

export const mcpCommand: SharedCommand = {
  name: 'mcp',
  shared: true,
  usage: 'mcp [--session ID] [--agent ID] [--user ID] [--project ID]   serve the citation tools to an agent over MCP (stdio)',
  valueFlags: ['session', 'agent', 'user', 'project'],
  run: async (ctx) => {
    const { services, evidence, dispatch, io } = ctx;
    // On a shared database (--database / EVIDESK_DATABASE_URL) there is no local workspace: the
    // context's stand-ins name the member and, unless --project names one, its first project as an
    // agent (row-level security holds its cites to its own sessions in its projects).
    const base = services
      ? apiDefaults(services.workspaceDir)
      : { ...apiDefaults('shared'), user_id: evidence?.member.login ?? 'unknown-user', project_id: (await evidence?.citations.defaultProject()) ?? 'default' };
    // One server process is one conversation: its citations form one session unless told otherwise.
    const session = idOr(flagString(ctx, 'session'), `mcp-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '')}-${randomUUID().slice(0, 8)}`);
    const agent = flagString(ctx, 'agent');
    const user = idOr(flagString(ctx, 'user'), base.user_id);
    const project = idOr(flagString(ctx, 'project'), services ? path.basename(services.workspaceDir) || 'default' : base.project_id);
    // stdout carries the protocol: what people should read goes to stderr.
    io.err(
      services
        ? `evidesk mcp: serving the citation tools on stdio (workspace ${services.workspaceDir}, session ${session}).`
        : `evidesk mcp: serving the citation tools on stdio on the shared database as ${evidence?.member.login ?? 'its member'} (session ${session}, project ${project}; sources are registered as this member: an admin adds documents, an agent custom sources).`,
    );
    // While the agent's host has yet to call: the first cite then costs what later ones do. A failed
    // warm-up (a lost connection) is left to the first cite to meet and report.
    void warmVerifier();
    void ctx.warmCite?.().catch(() => undefined);
    await serveMcpOnStdio(
      {
        dispatch,
        context: (clientName) => ({ session_id: session, agent_id: idOr(agent, clientName ?? 'mcp-client'), user_id: user, project_id: project }),
        version: APP_VERSION,
      },
      { input: process.stdin, output: process.stdout },
    );
    return EXIT.ok;
  },
};
