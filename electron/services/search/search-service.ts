import { Locator, SourceKind, type SearchHit } from '../../../shared/contract/schemas.ts';
import { firstMarked, parseSnippet } from '../../../shared/search/fts-query.ts';
import type { SearchArea, SearchOptions } from '../store/evidence-store.ts';

export class SearchService {
  private readonly store: SearchArea;
  constructor(store: SearchArea) {
    this.store = store;
  }

  /** Hits for what a person typed, from whichever engine the workspace is on. */
  async search(query: string, options: SearchOptions): Promise<SearchHit[]> {
    return (await this.store.search(query, options)).map((row) => {
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
