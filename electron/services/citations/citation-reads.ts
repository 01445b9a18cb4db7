/**
 * The citation tools' reads: one citation, lists by session / agent / user / project / status /
 * source, the inline format, full-text search and source details. A restricted source's text is
 * never part of a reply: only where things are in it.
 */
import type { CitationRecord, SourceInfo } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { toFtsQuery } from '../../../shared/search/fts-query.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { AgentCitationRow, CitationsStore } from '../store/citations-store.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import { citationListFilter, citationListPage, citationRecord, inlineText, searchHit, sourceInfo, wantsPage, type CitationListAsk } from './citation-record.ts';
import type { ResolvedIdentifier } from './source-identifier.ts';

export interface CitationReadsDeps {
  citations: CitationsStore;
  anchoring: AnchoringStore;
  sources: SourcesStore;
  search: SearchStore;
  resolve: (identifier: string | number) => ResolvedIdentifier;
}

export class CitationReads {
  private readonly d: CitationReadsDeps;
  constructor(deps: CitationReadsDeps) {
    this.d = deps;
  }

  private record(row: AgentCitationRow): CitationRecord {
    const source = row.source_id !== null ? this.d.anchoring.source(row.source_id) : undefined;
    const custom = row.custom_source_id !== null ? this.d.citations.customSourceById(row.custom_source_id) : undefined;
    const seg = row.segment_id !== null ? this.d.anchoring.segment(row.segment_id) : undefined;
    return citationRecord(row, source, custom, seg);
  }

  get(citationId: number): CitationRecord {
    const row = this.d.citations.agentCitation(citationId);
    if (!row) {
      throw new AppError('CITATION_NOT_FOUND', `citation_id: there is no agent citation ${citationId} in this workspace (list_citations lists them).`, { field: 'citation_id' });
    }
    return this.record(row);
  }

  list(f: CitationListAsk): { citations: CitationRecord[]; next_after_id: number | null } {
    const filter = citationListFilter(f, f.source === undefined ? undefined : this.d.resolve(f.source));
    const { page, nextAfterId } = citationListPage(this.d.citations.listAgentCitations(filter), f.limit);
    return { citations: page.map((r) => this.record(r)), next_after_id: nextAfterId };
  }

  format(citationId: number): { citation_id: number; style: 'inline'; text: string } {
    const r = this.get(citationId);
    return { citation_id: citationId, style: 'inline', text: inlineText(r) };
  }

  searchSources(query: string, limit: number, source: string | number | undefined) {
    let sourceIds: number[] | undefined;
    if (source !== undefined) {
      const r = this.d.resolve(source);
      if (r.kind !== 'source') throw new AppError('SOURCE_NOT_FOUND', `source: no document source matches "${String(source)}".`, { field: 'source' });
      sourceIds = [r.source.id];
    }
    const match = toFtsQuery(query);
    if (match === null) return { hits: [] };
    const rows = this.d.search.search(match, { limit, snippets: true, ...(sourceIds ? { sourceIds } : {}) });
    const cache = new Map<number, SourceRefRow | undefined>();
    return {
      hits: rows.flatMap((row) => {
        if (!cache.has(row.source_id)) cache.set(row.source_id, this.d.anchoring.source(row.source_id));
        const src = cache.get(row.source_id);
        const seg = this.d.anchoring.segment(row.segment_id);
        if (!src || !seg) return [];
        return [searchHit(row, src, seg)];
      }),
    };
  }

  getSource(identifier: string | number, page: number | undefined): SourceInfo {
    const r = this.d.resolve(identifier);
    const s = r.kind === 'source' ? r.source : undefined;
    const seg = s && wantsPage(s, page) ? (s.page_count !== null ? this.d.sources.pageSegment(s.id, page) : this.d.anchoring.segmentsByOrdinals(s.id, [page - 1])[0]) : undefined;
    return sourceInfo(r, page, seg, s ? this.d.citations.newestSuccessor(s.id) : null);
  }
}
