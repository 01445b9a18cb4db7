/**
 * The citation tools' reads: one citation, lists by session / agent / user / project / status /
 * source, the inline format, full-text search and source details. A restricted source's text is
 * never part of a reply: only where things are in it.
 */
import type { CitationRecord, CiteStatus, SourceInfo } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { parseSnippet, toFtsQuery } from '../../../shared/search/fts-query.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { AgentCitationRow, CitationsStore } from '../store/citations-store.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import { parseJson } from '../../../shared/json-or.ts';
import { describePlace, redactNotes } from './cite-advice.ts';
import { passageLocator } from './cite-hints.ts';
import type { ResolvedIdentifier } from './source-identifier.ts';

/** A page's text handed to an agent is capped: a page is never longer than this in practice. */
const MAX_PAGE_TEXT = 100_000;

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
    const restricted = source?.restricted === 1;
    const details = parseJson<{ quoteLanguage?: string | null; relevanceReasoning?: string | null; related?: CitationRecord['related']; sourceGiven?: string }>(row.details, {});
    const seg = row.segment_id !== null ? this.d.anchoring.segment(row.segment_id) : undefined;
    const stored = row.match_method;
    const method: 'exact' | 'normalised' | 'fuzzy' | null = stored === 'exact' || stored === 'normalised' || stored === 'fuzzy' ? stored : null;
    const matched =
      source && seg && method && row.start_offset !== null && row.end_offset !== null
        ? {
            source_id: source.id,
            file_name: source.file_name,
            sha256: source.sha256,
            locator: passageLocator(seg, row.start_offset, Math.max(row.start_offset, Math.min(row.end_offset, seg.text.length))),
            method,
            text: restricted ? null : row.matched_text,
          }
        : null;
    const status: CiteStatus = custom ? 'unverifiable' : ((row.status ?? 'source_unknown') as CiteStatus);
    return {
      citation_id: row.citation_id,
      marker: `[${row.marker}]`,
      answer_id: row.answer_id,
      session_id: row.session_key,
      agent_id: row.agent_id,
      user_id: row.user_id,
      project_id: row.project_id,
      claim: row.claim,
      verbatim_quote: row.quote,
      quote_context: row.context,
      source: {
        source_id: source?.id ?? null,
        identifier: custom?.identifier ?? source?.file_name ?? details.sourceGiven ?? row.unknown_reference ?? '',
        file_name: source?.file_name ?? null,
        custom: custom !== undefined,
      },
      locator: parseJson<Record<string, unknown>>(row.claimed_locator, {}),
      extraction_method: row.method,
      confidence: row.confidence,
      quote_language: details.quoteLanguage ?? null,
      relevance_reasoning: details.relevanceReasoning ?? null,
      related: details.related ?? [],
      status,
      verdict: (row.verdict ?? 'not_found') as CitationRecord['verdict'],
      score: row.score ?? 0,
      reasons: redactNotes(parseJson<string[]>(row.notes, []), restricted),
      matched,
      supersedes: row.supersedes_id,
      superseded_by: row.superseded_by,
      created_at: row.created_at,
    };
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
    let where = '';
    if (r.matched) where = `, ${describePlace(r.matched.locator)}`;
    else if (typeof r.locator.page === 'number') where = `, p. ${r.locator.page}`;
    else if (typeof r.locator.freeForm === 'string') where = `, ${r.locator.freeForm}`;
    const name = r.source.custom ? `${r.source.identifier} (custom source)` : r.source.file_name ?? `${r.source.identifier} (not in the workspace)`;
    return { citation_id: citationId, style: 'inline', text: `${r.marker} ${name}${where}` };
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
        const restricted = src.restricted === 1;
        return [
          {
            source_id: src.id,
            file_name: src.file_name,
            restricted,
            locator: passageLocator(seg, 0, seg.text.length),
            snippet: restricted || row.snippet === null ? null : (() => {
              const s = parseSnippet(row.snippet);
              let out = s.text;
              for (const [a, b] of [...s.highlights].reverse()) out = `${out.slice(0, a)}«${out.slice(a, b)}»${out.slice(b)}`;
              return out;
            })(),
          },
        ];
      }),
    };
  }

  getSource(identifier: string | number, page: number | undefined): SourceInfo {
    const r = this.d.resolve(identifier);
    if (r.kind === 'unknown') throw new AppError('SOURCE_NOT_FOUND', `source: no source matches "${r.text}"; search_sources finds documents by their words.`, { field: 'source' });
    if (r.kind === 'custom') {
      const c = r.custom;
      return { source_id: null, identifier: c.identifier, kind: `custom:${c.kind}`, sha256: null, file_name: null, title: null, description: c.description, page_count: null, restricted: false, added_at: c.created_at, newer_version_id: null, page_text: null, notes: ['a custom source has no stored text'] };
    }
    const s = r.source;
    const restricted = s.restricted === 1;
    const notes = [...r.notes];
    let pageText: string | null = null;
    if (page !== undefined) {
      if (restricted) throw new AppError('SOURCE_RESTRICTED', `page: ${s.file_name} is restricted; its text is never returned. search_sources and cite still tell you where words are in it.`, { field: 'page' });
      const seg = s.page_count !== null ? this.d.sources.pageSegment(s.id, page) : this.d.anchoring.segmentsByOrdinals(s.id, [page - 1])[0];
      if (!seg) throw new AppError('SEGMENT_NOT_FOUND', `page: ${s.file_name} has no ${s.page_count !== null ? `page ${page} (it has ${s.page_count})` : `segment ${page}`}.`, { field: 'page' });
      pageText = seg.text.slice(0, MAX_PAGE_TEXT);
      if (seg.text.length > MAX_PAGE_TEXT) notes.push(`the text was cut at ${MAX_PAGE_TEXT} characters`);
      if (s.page_count === null) notes.push(`segment ${page}: ${seg.line_start !== null ? `lines ${seg.line_start}–${seg.line_end ?? seg.line_start}` : `paragraph ${seg.paragraph ?? page - 1}`}`);
    }
    if (restricted) notes.push('restricted: searchable and citable, but its text is never returned');
    return {
      source_id: s.id,
      identifier: String(s.id),
      kind: s.kind,
      sha256: s.sha256,
      file_name: s.file_name,
      title: s.title,
      description: null,
      page_count: s.page_count,
      restricted,
      added_at: s.added_at,
      newer_version_id: this.d.citations.newestSuccessor(s.id),
      page_text: pageText,
      notes,
    };
  }
}
