import { formatLocator } from '../../../shared/domain/locator.ts';
import { call, EXIT, flagString, type SharedCommand } from '../command.ts';
import { table } from '../table.ts';
import { evidenceLine, evidenceText, sharedEvidenceLine } from '../evidence-links.ts';

export const searchCommand: SharedCommand = {
  name: 'search',
  shared: true,
  usage: 'search QUERY… [--limit N]     full-text search; ranked hits with snippets and locators',
  valueFlags: ['limit'],
  run: async (ctx) => {
    const { services, evidence, dispatch, json, io, args } = ctx;
    const query = args.positionals.join(' ').trim();
    if (!query) {
      io.err('evidesk search: give the words to search for.');
      return EXIT.usage;
    }
    const limit = Number(flagString(ctx, 'limit') ?? 20);
    const { hits } = await call({ dispatch }, 'search.query', { query, limit, snippets: true });
    if (json) io.out(JSON.stringify(hits, null, 2));
    else if (hits.length === 0) io.out(`No matches for ${JSON.stringify(query)}.`);
    else {
      io.out(table(['file', 'where', 'snippet'], hits.map((h) => [h.fileName, formatLocator(h.locator), (h.snippet ?? '').replace(/\s+/g, ' ')])));
      // Per hit (issue 17): is the file still there, where, and the link that opens the desk at it;
      // on a shared workspace from the shared record and this member's own paths.
      const wordsOf = (h: (typeof hits)[number]) => (h.snippet ?? '').replace(/[…]|\.\.\./g, ' ').replace(/\s+/g, ' ').trim();
      let lines: string[] = [];
      if (services) {
        lines = hits.flatMap((h, i) => {
          const e = evidenceLine(services, services.sources.get(h.sourceId), h.locator, h.locator, wordsOf(h));
          return e ? [evidenceText(`${i + 1}. `, e)] : [];
        });
      } else if (evidence) {
        const ids = [...new Set(hits.map((h) => h.sourceId))];
        const [sources, paths] = await Promise.all([evidence.health.sources(ids), evidence.health.currentPaths(ids)]);
        const byId = new Map(sources.map((s) => [s.id, s]));
        // Newest first within a source: the first one seen is the member's current path.
        const pathOf = new Map<number, string>();
        for (const p of paths) if (!pathOf.has(p.source_id)) pathOf.set(p.source_id, p.path);
        lines = hits.flatMap((h, i) => {
          const src = byId.get(h.sourceId);
          return src ? [evidenceText(`${i + 1}. `, sharedEvidenceLine(src, pathOf.get(h.sourceId) ?? null, h.locator, h.locator, wordsOf(h)))] : [];
        });
      }
      if (lines.length > 0) io.out(`Evidence:\n${lines.join('\n')}`);
    }
    return EXIT.ok;
  },
};
