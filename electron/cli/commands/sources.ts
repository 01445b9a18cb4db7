import type { SourceSummary } from '../../../shared/contract/schemas.ts';
import { SourceKind } from '../../../shared/contract/schemas.ts';
import { MAX_PAGE_ROWS, SourceSort, type SourcePage } from '../../../shared/contract/list-schemas.ts';
import { call, EXIT, flagString, type Command } from '../command.ts';
import { limitFlag } from '../page-flags.ts';
import { table } from '../table.ts';
import { restrictedLabel } from './restrict.ts';

function rowsTable(list: readonly SourceSummary[]): string {
  return table(
    ['id', 'file', 'kind', 'pages', 'health', 'restricted', 'sha256', 'path'],
    list.map((s) => [String(s.id), s.fileName, s.kind, String(s.pageCount ?? s.segmentCount), s.health, restrictedLabel(s.restricted), s.sha256.slice(0, 12), s.path ?? '']),
  );
}

export const sourcesCommand: Command = {
  name: 'sources',
  usage:
    "sources [--limit N] [--after CURSOR] [--sort added|name|size|kind] [--asc|--desc] [--filter WORDS] [--kind K]\n" +
    "                                list the workspace's sources, a page at a time with --limit (--after: the cursor it printed)",
  valueFlags: ['limit', 'after', 'sort', 'filter', 'kind'],
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    const limit = limitFlag(ctx, 'sources');
    if (limit === null) return EXIT.usage;
    const sort = SourceSort.safeParse(flagString(ctx, 'sort') ?? 'added');
    const kind = flagString(ctx, 'kind');
    const kindParsed = kind === undefined ? undefined : SourceKind.safeParse(kind);
    if (!sort.success || (kindParsed !== undefined && !kindParsed.success)) {
      io.err(`evidesk sources: --sort takes ${SourceSort.options.join(', ')}; --kind takes ${SourceKind.options.join(', ')}.`);
      return EXIT.usage;
    }
    const text = flagString(ctx, 'filter');
    const after = flagString(ctx, 'after');
    // Names read best A to Z; the other sorts newest or largest first unless --asc.
    const dir = args.flags.has('asc') ? 'asc' : args.flags.has('desc') ? 'desc' : sort.data === 'name' || sort.data === 'kind' ? 'asc' : 'desc';
    const query = { sort: sort.data, dir, filter: { ...(text ? { text } : {}), ...(kindParsed?.success ? { kind: kindParsed.data } : {}) } } as const;

    if (limit !== undefined || after !== undefined) {
      const page = await call(services, 'sources.page', { ...query, limit: limit ?? 100, ...(after !== undefined ? { after } : {}) });
      if (json) io.out(JSON.stringify({ sources: page.rows.map((r) => r.source), next: page.next }, null, 2));
      else {
        io.out(rowsTable(page.rows.map((r) => r.source)));
        io.out(page.next === null ? 'End of the list.' : `More: evidesk sources --limit ${limit ?? 100} --after '${page.next}'`);
      }
      return EXIT.ok;
    }
    // The whole list, walked page by page over the same keyset cursor.
    const all: SourceSummary[] = [];
    let next: string | null = null;
    do {
      const page: SourcePage = await call(services, 'sources.page', { ...query, limit: MAX_PAGE_ROWS, ...(next !== null ? { after: next } : {}) });
      all.push(...page.rows.map((r) => r.source));
      next = page.next;
    } while (next !== null);
    io.out(json ? JSON.stringify(all, null, 2) : rowsTable(all));
    return EXIT.ok;
  },
};
