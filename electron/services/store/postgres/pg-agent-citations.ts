/**
 * The citation tools' reads on a shared workspace (issue 13): agents' citations with their
 * session context and newest result, and custom sources, as SQLite's CitationsStore reads them
 * (the same SELECT). Row-level security shows a member the citations of its projects only; one it
 * may not see reads as absent.
 */
import { AGENT_CITATION_SELECT, type AgentCitationRow, type CitationFilter, type CustomSourceRow } from '../citations-store.ts';
import { pgRead, type PgContext } from './pg-tx.ts';

export interface PgAgentCitations {
  get(citationId: number): Promise<AgentCitationRow | undefined>;
  list(f: CitationFilter): Promise<AgentCitationRow[]>;
  customSource(identifier: string): Promise<CustomSourceRow | undefined>;
  customSourceById(id: number): Promise<CustomSourceRow | undefined>;
  /** The newest version of a source, when one exists. */
  newestSuccessor(sourceId: number): Promise<number | null>;
}

export function pgAgentCitations(ctx: PgContext): PgAgentCitations {
  return {
    async get(citationId) {
      return (await pgRead<AgentCitationRow>(ctx, 'read a citation', `${AGENT_CITATION_SELECT} WHERE c.id = $1`, [citationId]))[0];
    },

    list(f) {
      const params: unknown[] = [f.afterId];
      const where = ['c.id > $1'];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (f.sessionKey !== undefined) add('s.session_key = ?', f.sessionKey);
      if (f.agentId !== undefined) add('x.agent_id = ?', f.agentId);
      if (f.userId !== undefined) add('x.user_id = ?', f.userId);
      if (f.projectId !== undefined) add('x.project_id = ?', f.projectId);
      // A custom source's citations are stored as no_quote; to an agent they are 'unverifiable'.
      if (f.status === 'unverifiable') where.push('x.custom_source_id IS NOT NULL');
      else if (f.status !== undefined) add('r.status = ? AND x.custom_source_id IS NULL', f.status);
      if (f.sourceId !== undefined) add('c.source_id = ?', f.sourceId);
      if (f.customSourceId !== undefined) add('x.custom_source_id = ?', f.customSourceId);
      if (!f.includeSuperseded) where.push('NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)');
      params.push(f.limit);
      return pgRead<AgentCitationRow>(ctx, 'list the citations', `${AGENT_CITATION_SELECT} WHERE ${where.join(' AND ')} ORDER BY c.id LIMIT $${params.length}`, params);
    },

    async customSource(identifier) {
      return (await pgRead<CustomSourceRow>(ctx, 'read a custom source', 'SELECT * FROM custom_sources WHERE identifier = $1', [identifier]))[0];
    },

    async customSourceById(id) {
      return (await pgRead<CustomSourceRow>(ctx, 'read a custom source', 'SELECT * FROM custom_sources WHERE id = $1', [id]))[0];
    },

    async newestSuccessor(sourceId) {
      // Follow the newest successor version by version, as SQLite's store does (bounded).
      const rows = await pgRead<{ id: number }>(
        ctx,
        "read a source's versions",
        `WITH RECURSIVE chain(id, depth) AS (
           SELECT $1::bigint, 0
           UNION ALL
           SELECT (SELECT s.id FROM sources s WHERE s.predecessor_id = chain.id ORDER BY s.id DESC LIMIT 1), depth + 1
           FROM chain WHERE chain.id IS NOT NULL AND depth < 1000
         )
         SELECT id FROM chain WHERE id IS NOT NULL ORDER BY depth DESC LIMIT 1`,
        [sourceId],
      );
      const newest = rows[0]?.id ?? sourceId;
      return newest === sourceId ? null : newest;
    },
  };
}
