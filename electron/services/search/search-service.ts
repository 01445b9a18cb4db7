import { Locator, SourceKind, type SearchHit } from '../../../shared/contract/schemas.ts';
import { firstMarked, parseSnippet, toFtsQuery } from '../../../shared/search/fts-query.ts';
import type { SearchOptions, SearchStore } from '../store/search-store.ts';

export class SearchService {
  private readonly store: SearchStore;
  constructor(store: SearchStore) {
    this.store = store;
  }

  search(query: string, options: SearchOptions): SearchHit[] {
    const match = toFtsQuery(query);
    if (match === null) return [];
    return this.store.search(match, options).map((row) => {
      const snippet = row.snippet === null ? null : parseSnippet(row.snippet);
      return {
        sourceId: row.source_id,
        fileName: row.file_name,
        segmentId: row.segment_id,
        locator: Locator.parse(JSON.parse(row.locator)),
        rank: row.rank,
        snippet: snippet?.text ?? null,
        highlights: snippet?.highlights ?? [],
        kind: SourceKind.parse(row.kind),
        match: row.marked === null ? null : firstMarked(row.marked),
      };
    });
  }
}
