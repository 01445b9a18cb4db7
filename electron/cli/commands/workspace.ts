import path from 'node:path';
import { EXIT, type DetachedCommand, type DetachedContext } from '../command.ts';
import { migrateWorkspace, type MigrateSummary } from '../../services/store/postgres/pg-workspace-migrate.ts';
import { connectOwner, safeUrl } from './shared-database.ts';

function flag(ctx: DetachedContext, name: string): string | undefined {
  const v = ctx.args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

function words(s: MigrateSummary, to: string): string[] {
  const rows = s.check.tables.reduce((n, t) => n + t.shared, 0);
  const hashed = s.check.tables.reduce((n, t) => n + t.rowHashes, 0);
  const lines = [
    s.outcome === 'migrated'
      ? `✓ Moved the workspace into ${to}: ${rows} rows in ${s.check.tables.filter((t) => t.shared > 0).length} tables and ${s.check.snapshots.checked} snapshots (${s.check.snapshots.bytes} bytes).`
      : s.outcome === 'updated'
        ? `✓ Moved what was added since the last move into ${to}: ${Object.values(s.copied?.rows ?? {}).reduce((n, k) => n + k, 0)} rows and ${s.copied?.snapshots ?? 0} snapshots; it now holds ${rows} rows.`
        : `✓ ${to} already holds this workspace as it is now: nothing was copied.`,
    `  Checked end to end: every row compared equal table by table (${hashed} row hashes), every snapshot's SHA-256 recomputed from its chunks,`,
    `  and the audit chain verified on PostgreSQL: ${s.chain.entries} entries, head ${s.chain.head}${s.chain.anchored ? ', anchored at the local head' : ''}.`,
    `  Answers outside an agent session are in the project "${s.project}".`,
  ];
  for (const t of s.check.tables) if (t.shared > 0) lines.push(`    ${t.table.padEnd(18)} ${String(t.shared).padStart(8)}`);
  return lines;
}

export const workspaceCommand: DetachedCommand = {
  name: 'workspace',
  usage: 'workspace migrate --from DIR --to URL [--project KEY]   copy a local workspace into a shared PostgreSQL one and check it end to end',
  valueFlags: ['from', 'to', 'project', 'project-name'],
  detached: true,
  run: async (ctx) => {
    const { args, io, json, env } = ctx;
    if (args.positionals[0] !== 'migrate' || args.positionals.length > 1) {
      io.err('evidesk workspace: the one sub-command is `evidesk workspace migrate --from DIR --to postgres://… [--project KEY] [--json]`.');
      return EXIT.usage;
    }
    const from = flag(ctx, 'from') ?? flag(ctx, 'workspace');
    const to = flag(ctx, 'to') ?? env.EVIDESK_DATABASE_URL;
    if (!from || !to) {
      io.err('evidesk workspace migrate: give the local workspace with --from DIR and the shared database with --to postgres://… (or $EVIDESK_DATABASE_URL).');
      return EXIT.usage;
    }
    const key = flag(ctx, 'project') ?? 'local';
    const owner = await connectOwner(to);
    try {
      const summary = await migrateWorkspace(owner, { from, project: { key, name: flag(ctx, 'project-name') ?? `Moved from ${path.basename(path.resolve(from))}` } });
      if (json) io.out(JSON.stringify({ ok: true, ...summary }, null, 2));
      else for (const line of words(summary, safeUrl(to))) io.out(line);
      return EXIT.ok;
    } finally {
      await owner.end().catch(() => undefined);
    }
  },
};
