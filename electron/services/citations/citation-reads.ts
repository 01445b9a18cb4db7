/**
 * The citation tools' reads: one citation, lists by session / agent / user / project / status /
 * source, the inline format, full-text search and source details. A restricted source's text is
 * never part of a reply: only where things are in it.
 */
import type { CitationRecord, CiteStatus, SourceInfo } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { toFtsQuery } from '../../../shared/search/fts-query.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { AgentCitationRow, CitationsStore } from '../store/citations-store.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import { citationRecord, inlineText, searchHit, sourceInfo, wantsPage } from './citation-record.ts';
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

  list(f: {
    session_id?: string | undefined;
    project_id?: string | undefined;
    agent_id?: string | undefined;
    user_id?: string | undefined;
    status?: CiteStatus | undefined;
    source?: string | number | undefined;
    include_superseded: boolean;
    after_id: number;
    limit: number;
  }): { citations: CitationRecord[]; next_after_id: number | null } {
    let sourceId: number | undefined;
    let customSourceId: number | undefined;
    if (f.source !== undefined) {
      const r = this.d.resolve(f.source);
      if (r.kind === 'unknown') throw new AppError('SOURCE_NOT_FOUND', `source: no source matches "${r.text}".`, { field: 'source' });
      if (r.kind === 'custom') customSourceId = r.custom.id;
      else sourceId = r.source.id;
    }
    const rows = this.d.citations.listAgentCitations({
      sessionKey: f.session_id,
      agentId: f.agent_id,
      userId: f.user_id,
      projectId: f.project_id,
      status: f.status,
      sourceId,
      customSourceId,
      includeSuperseded: f.include_superseded,
      afterId: f.after_id,
      limit: f.limit + 1,
    });
    const more = rows.length > f.limit;
    const page = rows.slice(0, f.limit);
    return { citations: page.map((r) => this.record(r)), next_after_id: more ? (page[page.length - 1]?.citation_id ?? null) : null };
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
