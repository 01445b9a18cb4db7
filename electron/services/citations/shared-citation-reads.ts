/**
 * The citation tools' reads on a shared (PostgreSQL) workspace (issue 13): search_sources,
 * get_source, get_citation, list_citations and format_citation over the member's connections, in
 * the shapes the local reads give (citation-record.ts). Row-level security decides what the member
 * sees: another project's citation reads as absent.
 */
import type { CitationRecord, SourceInfo } from '../../../shared/contract/citation-schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { EvidenceStore, SourceRefRow } from '../store/evidence-store.ts';
import type { AgentCitationRow } from '../store/citations-store.ts';
import type { PgAgentCitations } from '../store/postgres/pg-agent-citations.ts';
import { citationListFilter, citationListPage, citationRecord, inlineText, searchHit, sourceInfo, wantsPage, type CitationListAsk } from './citation-record.ts';
import type { ResolvedIdentifier } from './source-identifier.ts';

/** A file name without its last extension, lower-cased: "HR_Policy.pdf" and "hr_policy" name the same file. */
function stem(name: string): string {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf('.');
  return dot > 0 ? lower.slice(0, dot) : lower;
}

export class SharedCitationReads {
  private readonly evidence: EvidenceStore;
  private readonly citations: PgAgentCitations;
  constructor(evidence: EvidenceStore, citations: PgAgentCitations) {
    this.evidence = evidence;
    this.citations = citations;
  }

  /** A source as an agent names it: an id, a SHA-256 (or a unique prefix of 8+ hex digits), a custom identifier, a file name or title. */
  async resolve(identifier: string | number): Promise<ResolvedIdentifier> {
    const text = String(identifier).trim();
    if (typeof identifier === 'number' || /^\d{1,12}$/.test(text)) {
      const [byId] = await this.evidence.sources.refs([Number(text)]);
      if (byId) return { kind: 'source', source: byId, notes: [] };
    }
    const custom = await this.citations.customSource(text);
    if (custom) return { kind: 'custom', custom };
    if (/^\d{1,12}$/.test(text)) return { kind: 'unknown', text, ref: { title: `source #${text}` }, notes: [`there is no source with id ${text}`] };
    const lower = text.toLowerCase();
    const all: SourceRefRow[] = await this.evidence.sources.list();
    const pick = (found: SourceRefRow[], what: string): ResolvedIdentifier => {
      if (found.length === 1 && found[0]) return { kind: 'source', source: found[0], notes: [] };
      const notes = found.length > 1 ? [`${found.length} sources match ${what}: give the source_id (${found.map((s) => s.id).join(', ')})`] : [`no source matches ${what}`];
      return { kind: 'unknown', text, ref: { file: text }, notes };
    };
    if (/^[0-9a-f]{8,64}$/.test(lower)) {
      const bySha = all.filter((s) => s.sha256.startsWith(lower));
      if (bySha.length > 0) return pick(bySha, `SHA-256 ${lower.slice(0, 12)}…`);
    }
    const byName = all.filter((s) => s.file_name.toLowerCase() === lower);
    if (byName.length > 0) return pick(byName, `the file name ${text}`);
    return pick(all.filter((s) => stem(s.file_name) === stem(text) || s.title?.toLowerCase() === lower), `"${text}"`);
  }

  /** A custom source by its identifier. */
  customSource(identifier: string) {
    return this.citations.customSource(identifier);
  }

  private async record(row: AgentCitationRow): Promise<CitationRecord> {
    const [sources, custom, segs] = await Promise.all([
      row.source_id !== null ? this.evidence.sources.refs([row.source_id]) : Promise.resolve([]),
      row.custom_source_id !== null ? this.citations.customSourceById(row.custom_source_id) : Promise.resolve(undefined),
      row.segment_id !== null ? this.evidence.sources.segmentsById([row.segment_id]) : Promise.resolve([]),
    ]);
    return citationRecord(row, sources[0], custom, segs[0]);
  }

  async get(citationId: number): Promise<CitationRecord> {
    const row = await this.citations.get(citationId);
    if (!row) {
      throw new AppError('CITATION_NOT_FOUND', `citation_id: there is no agent citation ${citationId} you may read in this shared workspace (list_citations lists them).`, { field: 'citation_id' });
    }
    return this.record(row);
  }

  async list(f: CitationListAsk): Promise<{ citations: CitationRecord[]; next_after_id: number | null }> {
    const filter = citationListFilter(f, f.source === undefined ? undefined : await this.resolve(f.source));
    const { page, nextAfterId } = citationListPage(await this.citations.list(filter), f.limit);
    return { citations: await Promise.all(page.map((r) => this.record(r))), next_after_id: nextAfterId };
  }

  async format(citationId: number): Promise<{ citation_id: number; style: 'inline'; text: string }> {
    const r = await this.get(citationId);
    return { citation_id: citationId, style: 'inline', text: inlineText(r) };
  }

  async searchSources(query: string, limit: number, source: string | number | undefined) {
    let sourceIds: number[] | undefined;
    if (source !== undefined) {
      const r = await this.resolve(source);
      if (r.kind !== 'source') throw new AppError('SOURCE_NOT_FOUND', `source: no document source matches "${String(source)}".`, { field: 'source' });
      sourceIds = [r.source.id];
    }
    const rows = await this.evidence.search.search(query, { limit, snippets: true, ...(sourceIds ? { sourceIds } : {}) });
    const [refs, segs] = await Promise.all([this.evidence.sources.refs(rows.map((r) => r.source_id)), this.evidence.sources.segmentsById(rows.map((r) => r.segment_id))]);
    const srcById = new Map(refs.map((s) => [s.id, s]));
    const segById = new Map(segs.map((s) => [s.id, s]));
    return {
      hits: rows.flatMap((row) => {
        const src = srcById.get(row.source_id);
        const seg = segById.get(row.segment_id);
        return src && seg ? [searchHit(row, src, seg)] : [];
      }),
    };
  }

  async getSource(identifier: string | number, page: number | undefined): Promise<SourceInfo> {
    const r = await this.resolve(identifier);
    const s = r.kind === 'source' ? r.source : undefined;
    let seg;
    if (s && wantsPage(s, page)) seg = s.page_count !== null ? await this.evidence.sources.pageSegment(s.id, page) : (await this.evidence.sources.segments(s.id)).find((g) => g.ordinal === page - 1);
    return sourceInfo(r, page, seg, s ? await this.citations.newestSuccessor(s.id) : null);
  }
}
