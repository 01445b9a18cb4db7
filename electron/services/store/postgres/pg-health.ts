/**
 * Source health and relinking on PostgreSQL (issue 13). The sources are the shared pool's; the
 * paths are the member's own (source_paths.member): a check stats the files this member
 * recorded, a relink records this member's path, and another member's paths are not touched
 * (row-level security lets a member write only its own rows). Each write is one transaction,
 * audited as SQLite's HealthStore audits it.
 */
import type { ChainTable } from '../../../../shared/audit/canonical.ts';
import { ROW_APPEND } from '../audit-chain-store.ts';
import type { CheckSourceRow, CurrentPathRow, HealthArea } from '../evidence-store.ts';
import { appendEntries, type PgEntry } from './pg-audit-chain.ts';
import { pgRead, pgTransaction, type PgContext } from './pg-tx.ts';

const SOURCE_COLUMNS = 'id, sha256, file_name, byte_size, EXISTS (SELECT 1 FROM web_fetches w WHERE w.source_id = sources.id)::integer AS web';
const PATH_COLUMNS = 'id, source_id, path, size, mtime_ms, last_seen_at';

export function pgHealth(ctx: PgContext): HealthArea {
  return {
    async sources(ids) {
      if (ids !== undefined && ids.length === 0) return [];
      return pgRead<CheckSourceRow>(
        ctx,
        'read the sources',
        `SELECT ${SOURCE_COLUMNS} FROM sources WHERE $1::bigint[] IS NULL OR id = ANY ($1) ORDER BY id`,
        [ids === undefined ? null : [...ids]],
      );
    },

    async currentPaths(ids) {
      if (ids !== undefined && ids.length === 0) return [];
      // Auditors and admins may read every member's paths: a check is about one's own.
      return pgRead<CurrentPathRow>(
        ctx,
        'read your paths of the sources',
        `SELECT ${PATH_COLUMNS} FROM source_paths
         WHERE current = 1 AND member = current_user AND ($1::bigint[] IS NULL OR source_id = ANY ($1))
         ORDER BY source_id, last_seen_at DESC, id DESC`,
        [ids === undefined ? null : [...ids]],
      );
    },

    async citationCounts() {
      const rows = await pgRead<{ source_id: number; n: number }>(
        ctx,
        'count the citations of the sources',
        'SELECT source_id, count(*) AS n FROM citations WHERE source_id IS NOT NULL GROUP BY source_id',
        [],
      );
      return new Map(rows.map((r) => [r.source_id, r.n]));
    },

    async confirmPaths(confirmed, now) {
      if (confirmed.length === 0) return;
      await pgTransaction(ctx, 'remember the checked files', (c) =>
        c.query(
          `UPDATE source_paths p SET size = t.size, mtime_ms = t.mtime_ms, last_seen_at = $4
           FROM unnest($1::bigint[], $2::bigint[], $3::double precision[]) AS t(id, size, mtime_ms)
           WHERE p.id = t.id AND p.member = current_user`,
          [confirmed.map((x) => x.pathId), confirmed.map((x) => x.stat.size), confirmed.map((x) => x.stat.mtimeMs), now],
        ),
      );
    },

    async relink(sourceId, newPath, stat, stalePathIds, now) {
      await pgTransaction(ctx, 'relink a source', async (c) => {
        const known = (await c.query<{ id: number }>('SELECT id FROM source_paths WHERE source_id = $1 AND member = current_user AND path = $2', [sourceId, newPath])).rows[0];
        await c.query('UPDATE source_paths SET current = 0 WHERE id = ANY ($1) AND source_id = $2 AND member = current_user', [[...stalePathIds], sourceId]);
        const row = (
          await c.query<Record<string, unknown> & { id: number }>(
            `INSERT INTO source_paths (source_id, path, size, mtime_ms, first_seen_at, last_seen_at, current)
             VALUES ($1, $2, $3, $4, $5, $5, 1)
             ON CONFLICT (source_id, member, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
               last_seen_at = excluded.last_seen_at, current = 1
             RETURNING *`,
            [sourceId, newPath, stat.size, stat.mtimeMs, now],
          )
        ).rows[0];
        if (!row) throw new Error('the path row was not returned');
        // A new path is a row of the record; the relink itself (which paths it retired) is an action entry.
        const entries: PgEntry[] = known ? [] : [{ action: ROW_APPEND, table: 'source_paths' satisfies ChainTable, row }];
        entries.push({ action: 'source.relink', payload: { sourceId, pathId: row.id, path: newPath, retired: stalePathIds } });
        await appendEntries(c, entries, now);
      });
    },
  };
}
