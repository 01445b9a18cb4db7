import type { CitationDetail } from '../../../shared/contract/answer-schemas.ts';
import { CARD_FILTERS, CardFilter, type CardPage } from '../../../shared/contract/card-schemas.ts';
import { MAX_PAGE_ROWS } from '../../../shared/contract/list-schemas.ts';
import { call, EXIT, flagString, type Command } from '../command.ts';
import { limitFlag } from '../page-flags.ts';
import { table } from '../table.ts';
import { resolveAnswer } from './export.ts';

function cardsTable(cards: readonly CitationDetail[]): string {
  return table(
    ['id', 'marker', 'status', 'verdict', 'review', 'source', 'claim'],
    cards.map((c) => [String(c.id), c.marker, c.result?.status ?? 'unverified', c.result?.verdict ?? '', c.review?.decision ?? '', c.source?.fileName ?? c.unknownSource ?? '', c.claim.replace(/\s+/g, ' ').slice(0, 80)]),
  );
}

/** An answer's citations, filtered as the desk filters its cards, a page at a time over the same keyset cursor. */
export const cardsCommand: Command = {
  name: 'cards',
  usage:
    'cards ANSWER [--show FILTER] [--limit N] [--after CURSOR]\n' +
    '                              list a stored answer\'s citations in answer order (FILTER: all, unreviewed, problems,\n' +
    '                              status:S, verdict:V or flag:F), a page at a time with --limit (--after: the cursor it printed)',
  valueFlags: ['show', 'limit', 'after'],
  run: async (ctx) => {
    const { services, json, io, args } = ctx;
    const [ref, ...rest] = args.positionals;
    if (!ref || rest.length > 0) {
      io.err('evidesk cards: give one answer (id or imported file name).');
      return EXIT.usage;
    }
    const limit = limitFlag(ctx, 'cards');
    if (limit === null) return EXIT.usage;
    const filter = CardFilter.safeParse(flagString(ctx, 'show') ?? 'all');
    if (!filter.success) {
      io.err(`evidesk cards: --show takes one of ${CARD_FILTERS.join(', ')}.`);
      return EXIT.usage;
    }
    const { id } = await resolveAnswer(services, ref);
    const after = flagString(ctx, 'after');
    if (limit !== undefined || after !== undefined) {
      const page = await call(services, 'answers.cards', { id, filter: filter.data, limit: limit ?? 100, ...(after !== undefined ? { after } : {}) });
      const cards = page.rows.map((r) => r.citation);
      if (json) io.out(JSON.stringify({ citations: cards, next: page.next }, null, 2));
      else {
        io.out(cardsTable(cards));
        io.out(page.next === null ? 'End of the list.' : `More: evidesk cards ${id} --show ${filter.data} --limit ${limit ?? 100} --after '${page.next}'`);
      }
      return EXIT.ok;
    }
    const all: CitationDetail[] = [];
    let next: string | null = null;
    do {
      const page: CardPage = await call(services, 'answers.cards', { id, filter: filter.data, limit: MAX_PAGE_ROWS, ...(next !== null ? { after: next } : {}) });
      all.push(...page.rows.map((r) => r.citation));
      next = page.next;
    } while (next !== null);
    io.out(json ? JSON.stringify(all, null, 2) : cardsTable(all));
    return EXIT.ok;
  },
};
