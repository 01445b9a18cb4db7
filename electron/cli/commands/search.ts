import { formatLocator } from '../../../shared/domain/locator.ts';
import { call, EXIT, flagString, type Command } from '../command.ts';
import { table } from '../table.ts';

export const searchCommand: Command = {
  name: 'search',
  usage: 'search QUERY… [--limit N]     full-text search; ranked hits with snippets and locators',
  valueFlags: ['limit'],
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    const query = args.positionals.join(' ').trim();
    if (!query) {
      io.err('evidesk search: give the words to search for.');
      return EXIT.usage;
    }
    const limit = Number(flagString(ctx, 'limit') ?? 20);
    const { hits } = await call(services, 'search.query', { query, limit, snippets: true });
    if (json) io.out(JSON.stringify(hits, null, 2));
    else if (hits.length === 0) io.out(`No matches for ${JSON.stringify(query)}.`);
    else io.out(table(['file', 'where', 'snippet'], hits.map((h) => [h.fileName, formatLocator(h.locator), (h.snippet ?? '').replace(/\s+/g, ' ')])));
    return EXIT.ok;
  },
};
