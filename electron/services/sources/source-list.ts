import type { z } from 'zod';
import type { HandlerOutput } from '../../../shared/contract/contract.ts';
import type { SourceSummary } from '../../../shared/contract/schemas.ts';
import type { SourceListSummaryInput, SourcePageInput } from '../../../shared/contract/list-schemas.ts';
import type { HealthService } from '../health/health-service.ts';
import type { Db } from '../store/database.ts';
import { SourceListStore, type SourceListQuery } from '../store/source-list-store.ts';
import type { SourceRow } from '../store/sources-store.ts';

function query(input: Pick<SourceListQuery, 'filter' | 'sort' | 'dir'>): SourceListQuery {
  return { filter: input.filter, sort: input.sort, dir: input.dir };
}

/** The library's pages and counts (issue 16), over the store's keyset paging. */
export class SourceList {
  private readonly store: SourceListStore;
  private readonly health: HealthService;
  private readonly summarize: (row: SourceRow) => SourceSummary;
  constructor(db: Db, health: HealthService, summarize: (row: SourceRow) => SourceSummary) {
    this.store = new SourceListStore(db);
    this.health = health;
    this.summarize = summarize;
  }

  page(input: z.output<typeof SourcePageInput>): HandlerOutput<'sources.page'> {
    const { rows, next } = this.store.page(query(input), input.limit, input.after);
    return { rows: rows.map(({ row, cursor }) => ({ source: this.summarize(row), cursor })), next };
  }

  summary(input: z.output<typeof SourceListSummaryInput>): HandlerOutput<'sources.listSummary'> {
    const q = query(input);
    const pageSize = input.pageSize;
    const total = this.store.count(q);
    // Unfiltered, the two counts are one (a pass over 100,000 rows saved on the first screen).
    const filtered = Object.values(q.filter).some((v) => v !== undefined && v !== '');
    const all = filtered ? this.store.count({ ...q, filter: {} }) : total;
    // Health is the last check's, held by the health service rather than stored: counted from it.
    const health = { ok: 0, modified: 0, missing: 0, unchecked: 0 };
    const attention: { id: number; health: 'missing' | 'modified' }[] = [];
    for (const [id, h] of this.health.known()) {
      health[h.health] += 1;
      if (h.health !== 'ok') attention.push({ id, health: h.health });
    }
    health.unchecked = Math.max(0, all - health.ok - health.modified - health.missing);
    // A page starts after every pageSize-th row, except after the very last row.
    const starts = this.store.pageStarts(q, pageSize).slice(0, Math.max(0, Math.ceil(total / pageSize) - 1));
    return {
      total,
      all,
      kinds: this.store.kindCounts(),
      restricted: this.store.restrictedCount(),
      health,
      attention: attention.sort((a, b) => a.id - b.id),
      pageSize,
      pageStarts: [null, ...starts],
    };
  }
}
