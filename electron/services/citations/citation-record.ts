/**
 * What the citation tools send an agent, built from stored rows: a citation's record and a search
 * hit. Pure, so the local reads (citation-reads.ts) and the shared workspace's reads
 * (shared-citation-reads.ts) answer in the same shape. A restricted source's text never goes out.
 */
import type { CitationRecord, CiteStatus, SourceInfo } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import { parseJson } from '../../../shared/json-or.ts';
import { parseSnippet } from '../../../shared/search/fts-query.ts';
import type { SourceRefRow } from '../store/anchoring-store.ts';
import type { AgentCitationRow, CitationFilter, CustomSourceRow } from '../store/citations-store.ts';
import type { SearchRow } from '../store/search-store.ts';
import type { SegmentRow } from '../store/sources-store.ts';
import { describePlace, redactNotes } from './cite-advice.ts';
import { passageLocator } from './cite-hints.ts';
import type { ResolvedIdentifier } from './source-identifier.ts';

type Segment = Pick<SegmentRow, 'page' | 'page_label' | 'paragraph' | 'line_start' | 'line_end' | 'text'>;

export function citationRecord(row: AgentCitationRow, source: SourceRefRow | undefined, custom: CustomSourceRow | undefined, seg: Segment | undefined): CitationRecord {
  const restricted = source?.restricted === 1;
  const details = parseJson<{ quoteLanguage?: string | null; relevanceReasoning?: string | null; related?: CitationRecord['related']; sourceGiven?: string }>(row.details, {});
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

/** One search_sources hit: where the words are, and a snippet with them in «…» unless the source is restricted. */
export function searchHit(row: Pick<SearchRow, 'snippet'>, src: SourceRefRow, seg: Segment) {
  const restricted = src.restricted === 1;
  let snippet: string | null = null;
  if (!restricted && row.snippet !== null) {
    const s = parseSnippet(row.snippet);
    snippet = s.text;
    for (const [a, b] of [...s.highlights].reverse()) snippet = `${snippet.slice(0, a)}«${snippet.slice(a, b)}»${snippet.slice(b)}`;
  }
  return { source_id: src.id, file_name: src.file_name, restricted, locator: passageLocator(seg, 0, seg.text.length), snippet };
}

/** A page's text handed to an agent is capped: a page is never longer than this in practice. */
const MAX_PAGE_TEXT = 100_000;

/** Whether get_source must read a page of this source (never a restricted one's: that is refused). */
export function wantsPage(s: SourceRefRow, page: number | undefined): page is number {
  return page !== undefined && s.restricted !== 1;
}

/**
 * get_source's reply for a resolved identifier; `seg` is the page (or text segment) asked for,
 * read by the caller when `wantsPage` says so; `newer` the source's newest version.
 */
export function sourceInfo(r: ResolvedIdentifier, page: number | undefined, seg: Segment | undefined, newer: number | null): SourceInfo {
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
    newer_version_id: newer,
    page_text: pageText,
    notes,
  };
}

/** format_citation's inline text: the marker, the source and the place. */
export function inlineText(r: CitationRecord): string {
  let where = '';
  if (r.matched) where = `, ${describePlace(r.matched.locator)}`;
  else if (typeof r.locator.page === 'number') where = `, p. ${r.locator.page}`;
  else if (typeof r.locator.freeForm === 'string') where = `, ${r.locator.freeForm}`;
  const name = r.source.custom ? `${r.source.identifier} (custom source)` : r.source.file_name ?? `${r.source.identifier} (not in the workspace)`;
  return `${r.marker} ${name}${where}`;
}

/** What list_citations asks for, as the tool gives it. */
export interface CitationListAsk {
  session_id?: string | undefined;
  project_id?: string | undefined;
  agent_id?: string | undefined;
  user_id?: string | undefined;
  status?: CiteStatus | undefined;
  source?: string | number | undefined;
  include_superseded: boolean;
  after_id: number;
  limit: number;
}

/**
 * The store's filter for a list_citations ask whose source (if named) is resolved: one row more
 * than the page, so that the page knows whether another follows. SOURCE_NOT_FOUND for a source
 * nothing matches.
 */
export function citationListFilter(f: CitationListAsk, source: ResolvedIdentifier | undefined): CitationFilter {
  if (source?.kind === 'unknown') throw new AppError('SOURCE_NOT_FOUND', `source: no source matches "${source.text}".`, { field: 'source' });
  return {
    sessionKey: f.session_id,
    agentId: f.agent_id,
    userId: f.user_id,
    projectId: f.project_id,
    status: f.status,
    sourceId: source?.kind === 'source' ? source.source.id : undefined,
    customSourceId: source?.kind === 'custom' ? source.custom.id : undefined,
    includeSuperseded: f.include_superseded,
    afterId: f.after_id,
    limit: f.limit + 1,
  };
}

/** The rows of one list_citations page, and the id the next page starts after (null when none follows). */
export function citationListPage(rows: readonly AgentCitationRow[], limit: number): { page: AgentCitationRow[]; nextAfterId: number | null } {
  const page = rows.slice(0, limit);
  return { page, nextAfterId: rows.length > limit ? (page[page.length - 1]?.citation_id ?? null) : null };
}
