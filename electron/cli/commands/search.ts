import { formatLocator } from '../../../shared/domain/locator.ts';
import { call, EXIT, flagString, type SharedCommand } from '../command.ts';
import { table } from '../table.ts';
import { evidenceLine, evidenceText } from '../evidence-links.ts';

export const searchCommand: SharedCommand = {
  name: 'search',
  shared: true,
  usage: 'search QUERY… [--limit N]     full-text search; ranked hits with snippets and locators',
  valueFlags: ['limit'],
  run: async (ctx) => {
    const { services, dispatch, json, io, args } = ctx;
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
      // Per hit (issue 17): is the file still there, where, and the link that opens the desk at it
      // (from the local workspace's sources: on a shared workspace that area is not there yet).
      const lines = !services ? [] : hits.flatMap((h, i) => {
        const words = (h.snippet ?? '').replace(/[…]|\.\.\./g, ' ').replace(/\s+/g, ' ').trim();
        const e = evidenceLine(services, services.sources.get(h.sourceId), h.locator, h.locator, words);
        return e ? [evidenceText(`${i + 1}. `, e)] : [];
      });
      if (lines.length > 0) io.out(`Evidence:\n${lines.join('\n')}`);
    }
    return EXIT.ok;
  },
};
