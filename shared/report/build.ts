/**
 * Builds the report model from plain data the export service gathers from the store (the answer,
 * its latest run's results, every citation's review rows, its sources with a fresh health check,
 * the audit head). Pure: the service only collects rows and calls `buildReport`, so what a report
 * says is decided here, in one place, and tested without a workspace.
 */
import type { MatchPlace } from '../contract/answer-schemas.ts';
import type { ClaimedLocator } from '../imports/model.ts';
import { findMarkers } from '../imports/sentences.ts';
import type { CitationStatus } from '../verification/status.ts';
import { summarise } from '../verification/summary.ts';
import type { ClaimVerdict } from '../verification/verdict.ts';
import type { JudgeOpinion } from '../verification/judge.ts';
import { fileLinkFor } from '../links/file-link.ts';
import { formatCitationLink, linkForPlace } from '../links/citation-link.ts';
import { sealReport, type Sha256Hex } from './content-hash.ts';
import {
  CurrentDecision,
  REPORT_FORMAT,
  ReportBody,
  type AnswerMarker,
  type ReportCitation,
  type ReportExcerpt,
  type ReportMatch,
  type ReportOptions,
  type ReportReview,
  type ReportSource,
  type Report,
  type TrailDecision,
  type UnresolvedItem,
  type UnresolvedReason,
} from './schema.ts';

export interface ReviewRowInput {
  decision: TrailDecision;
  note: string | null;
  /** ISO 8601 time of the row. */
  at: string;
  reviewer: string | null;
}

export interface CitationInput {
  /** The citation's id in the workspace (only used to tie rows together here). */
  id: number;
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  /** The workspace source id; null when none matched. */
  sourceId: number | null;
  unknownSource: string | null;
  claimed: ClaimedLocator;
  /** The latest run's result for the citation. */
  status: CitationStatus;
  verdict: ClaimVerdict;
  score: number;
  match: ReportMatch | null;
  notes: readonly string[];
  /** Every review row, in any order (sorted by time here). */
  reviews: readonly ReviewRowInput[];
  excerpt?: ReportExcerpt | null;
  judge?: JudgeOpinion | null;
}

export interface SourceInput extends Omit<ReportSource, 'id'> {
  /** The workspace source id the citations refer to. */
  id: number;
}

export interface ReportInput {
  answer: { id: number; origin: string; question: string | null; text: string };
  /** In the answer's citation order. */
  citations: readonly CitationInput[];
  /** At least every source a citation refers to; others are left out of the report. */
  sources: readonly SourceInput[];
  provenance: { workspaceId: string; runId: number; appVersion: string; exportedAt: string; auditHead: string | null };
  options: ReportOptions;
}

/**
 * A stored match place (answer-schemas MatchPlace) as the report's match: the place's unit decides
 * which of page/block/line are set; `pageLabel` is the first page's label.
 */
export function reportMatch(place: MatchPlace, found: { sha256: string; pageLabel: string | null; method: ReportMatch['method']; text: string }): ReportMatch {
  const { unit, at, endAt } = place;
  const runsOn = endAt !== at && place.firstEnd !== undefined && place.lastStart !== undefined;
  return {
    sha256: found.sha256,
    unit,
    page: unit === 'page' ? at : null,
    pageLabel: unit === 'page' ? found.pageLabel : null,
    endPage: unit === 'page' ? endAt : null,
    block: unit === 'block' ? at : null,
    endBlock: unit === 'block' ? endAt : null,
    line: unit === 'line' ? at : null,
    endLine: unit === 'line' ? endAt : null,
    start: place.start,
    end: place.end,
    firstEnd: runsOn ? (place.firstEnd ?? null) : null,
    lastStart: runsOn ? (place.lastStart ?? null) : null,
    method: found.method,
    text: found.text,
  };
}

/** Milliseconds of an ISO time, for ordering rows (times with different offsets compare right). */
function timeOf(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

/** The review trail's decision in force (the last row by time; "cleared" means none). */
export function reviewOf(rows: readonly ReviewRowInput[], notes: boolean): ReportReview {
  // A stable sort: rows of the same instant keep the order the store gave them.
  const history = [...rows]
    .map((r, i) => ({ r, i }))
    .sort((a, b) => timeOf(a.r.at) - timeOf(b.r.at) || a.i - b.i)
    .map(({ r }) => ({ decision: r.decision, note: notes ? r.note : null, at: r.at, reviewer: r.reviewer }));
  const last = history[history.length - 1];
  if (!last) return { decision: 'none', note: null, at: null, reviewer: null, history };
  const decision: CurrentDecision = last.decision === 'cleared' ? 'none' : last.decision;
  return { decision, note: decision === 'none' ? null : last.note, at: last.at, reviewer: last.reviewer, history };
}

/** Why a citation still needs attention; empty when it does not. */
export function unresolvedReasons(c: Pick<ReportCitation, 'status' | 'verdict'> & { review: Pick<ReportReview, 'decision'> }): UnresolvedReason[] {
  if (c.review.decision === 'flagged') return ['flagged'];
  // Accepting or rejecting is the reviewer's resolution; until then, problems stay open.
  if (c.review.decision !== 'none') return [];
  const reasons: UnresolvedReason[] = [];
  if (c.status === 'not_found') reasons.push('quote_not_found');
  if (c.status === 'source_unknown') reasons.push('source_unknown');
  if (c.status === 'partial') reasons.push('partial_match');
  if (c.verdict === 'contradicted') reasons.push('contradicted');
  if (c.verdict === 'not_found') reasons.push('claim_not_supported');
  return reasons;
}

/**
 * The answer's marker groups, each label tied to a citation: each occurrence of a label takes the
 * next citation with that marker (Markdown imports make one citation per occurrence); once they are
 * used up it points at the first, as the review screen does.
 */
export function answerMarkers(text: string, citations: readonly { ref: string; marker: string }[]): AnswerMarker[] {
  const queues = new Map<string, string[]>();
  for (const c of citations) {
    const q = queues.get(c.marker);
    if (q) q.push(c.ref);
    else queues.set(c.marker, [c.ref]);
  }
  const used = new Map<string, number>();
  const pick = (label: string): string | null => {
    const refs = queues.get(label);
    if (!refs || refs.length === 0) return null;
    const n = used.get(label) ?? 0;
    used.set(label, n + 1);
    return refs[n] ?? refs[0] ?? null;
  };
  const out: AnswerMarker[] = [];
  for (const hit of findMarkers(text)) {
    const last = out[out.length - 1];
    const group = last && last.start === hit.start ? last : null;
    if (group) {
      group.labels.push(hit.label);
      group.citations.push(pick(hit.label));
    } else out.push({ start: hit.start, end: hit.end, labels: [hit.label], citations: [pick(hit.label)] });
  }
  return out;
}

/**
 * Source ids S1, S2, … in order of first use: the sources of the citations as their markers first
 * appear in the answer text, then those of citations no marker points at, in citation order.
 */
export function sourceRefs(citationOrder: readonly (number | null)[]): Map<number, string> {
  const refs = new Map<number, string>();
  for (const id of citationOrder) if (id !== null && !refs.has(id)) refs.set(id, `S${refs.size + 1}`);
  return refs;
}

/** A report match as the place a link names (its first and last page, block or line). */
export function matchLinkPlace(m: ReportMatch): { unit: ReportMatch['unit']; at: number; endAt: number } {
  const at = m.page ?? m.block ?? m.line ?? 0;
  return { unit: m.unit, at, endAt: m.endPage ?? m.endBlock ?? m.endLine ?? at };
}

/** The citation link and the file link of a report citation (issue 17). */
export function citationLinks(c: Pick<ReportCitation, 'match' | 'marker' | 'quote'>, source: ReportSource | undefined, answerId: number): { link: string | null; fileLink: string | null } {
  const m = c.match;
  const place = m ? matchLinkPlace(m) : null;
  const made = m && place ? linkForPlace({ sha256: m.sha256, ...place, start: m.start, end: m.end }, m.text || c.quote || '', { answer: answerId, marker: c.marker }) : null;
  return { link: made ? formatCitationLink(made) : null, fileLink: source ? fileLinkFor(source, place).href : null };
}

/** Builds and seals (content hash) the report; throws if the result breaks the schema. */
export function buildReport(input: ReportInput, sha256Hex: Sha256Hex): Report {
  const { options } = input;
  const citationRef = new Map(input.citations.map((c, i) => [c.id, `C${i + 1}`]));
  const allMarkers = answerMarkers(input.answer.text, input.citations.map((c) => ({ ref: citationRef.get(c.id) ?? '', marker: c.marker })));

  // Order of first use: citations as the text first points at them, then the rest.
  const byRef = new Map(input.citations.map((c) => [citationRef.get(c.id) ?? '', c]));
  const firstUse: CitationInput[] = [];
  const seen = new Set<string>();
  for (const m of allMarkers) {
    for (const ref of m.citations) {
      const c = ref === null ? undefined : byRef.get(ref);
      if (c && ref !== null && !seen.has(ref)) {
        seen.add(ref);
        firstUse.push(c);
      }
    }
  }
  for (const c of input.citations) if (!seen.has(citationRef.get(c.id) ?? '')) firstUse.push(c);

  const all: ReportCitation[] = input.citations.map((c) => ({
    id: citationRef.get(c.id) ?? '',
    marker: c.marker,
    claim: c.claim,
    quote: c.quote,
    source: null,
    unknownSource: c.unknownSource,
    claimed: c.claimed,
    status: c.status,
    verdict: c.verdict,
    score: c.score,
    match: c.match,
    context: c.context,
    notes: [...c.notes],
    review: reviewOf(c.reviews, options.notes),
    excerpt: options.excerpts ? (c.excerpt ?? null) : null,
    ...(c.judge ? { judge: c.judge } : {}),
  }));
  const included = all.filter((c) => options.citations === 'all' || c.review.decision === 'accepted');
  const includedIds = new Set(included.map((c) => c.id));

  // Source ids count only the sources of included citations, so they stay S1..Sn without gaps.
  const refs = sourceRefs(firstUse.filter((c) => includedIds.has(citationRef.get(c.id) ?? '')).map((c) => c.sourceId));
  const citationSource = new Map(input.citations.map((c) => [citationRef.get(c.id) ?? '', c.sourceId]));
  for (const c of included) {
    const sid = citationSource.get(c.id);
    c.source = sid === null || sid === undefined ? null : (refs.get(sid) ?? null);
  }
  const sourceById = new Map(input.sources.map((s) => [s.id, s]));
  const sources: ReportSource[] = [];
  for (const [sid, ref] of refs) {
    const s = sourceById.get(sid);
    if (!s) throw new Error(`buildReport: citation source ${sid} was not given`);
    sources.push({ ...s, id: ref });
  }
  const sourceOfRef = new Map(sources.map((s) => [s.id, s]));
  for (const c of included) Object.assign(c, citationLinks(c, c.source ? sourceOfRef.get(c.source) : undefined, input.answer.id));

  const unresolved: UnresolvedItem[] = [];
  for (const c of all) {
    const reasons = unresolvedReasons(c);
    if (reasons.length > 0) {
      unresolved.push({ citation: c.id, marker: c.marker, claim: c.claim, status: c.status, verdict: c.verdict, decision: c.review.decision, reasons, included: includedIds.has(c.id) });
    }
  }
  const ledger = summarise(all.map((c) => ({ marker: c.marker, claim: c.claim, status: c.status, verdict: c.verdict })));
  const byDecision = Object.fromEntries(CurrentDecision.options.map((d) => [d, 0])) as Record<CurrentDecision, number>;
  for (const c of all) byDecision[c.review.decision]++;

  const body = ReportBody.parse({
    format: REPORT_FORMAT,
    answer: {
      ...input.answer,
      markers: allMarkers.map((m) => ({ ...m, citations: m.citations.map((ref) => (ref !== null && includedIds.has(ref) ? ref : null)) })),
    },
    citations: included,
    sources,
    summary: {
      total: all.length,
      included: included.length,
      byStatus: ledger.byStatus,
      byVerdict: ledger.byVerdict,
      byDecision,
      coverage: ledger.coverage,
      unsupportedRate: ledger.unsupportedRate,
      unresolved,
    },
    provenance: { ...input.provenance, options },
  } satisfies ReportBody);
  return sealReport(body, sha256Hex);
}
