/** A citation's outcome as it is stored (a result row) and as it is reported (verification@1). */
import type { ClosestPassageData } from '../../../shared/contract/answer-schemas.ts';
import { JudgeOpinion } from '../../../shared/verification/judge.ts';
import { VERIFICATION_FORMAT, type VerificationCitation, type VerificationClosest, type VerificationMatch, type VerificationResult } from '../../../shared/verification/result-schema.ts';
import type { AnchoringStore } from '../store/anchoring-store.ts';
import type { NewResult } from '../store/answers-store.ts';
import type { ClosestPassageRow, JudgeOpinionRow, NewClosestPassage } from '../store/result-extras-store.ts';
import type { SegmentRow } from '../store/sources-store.ts';
import { lineOf, toAnchorSegment } from './anchor-segment.ts';
import { matchPlace } from './match-place.ts';
import { runOnParts } from './run-on-parts.ts';
import type { AnswerVerification, CitationOutcome } from './verifier.ts';

/** What a citation's result row stores (DESIGN.md §5: quote, 32 chars of prefix/suffix, position, page label). */
export function resultRow(citationId: number, o: CitationOutcome): NewResult {
  const m = o.match;
  const parts = m ? runOnParts(m) : null;
  return {
    citationId,
    status: o.status,
    verdict: o.verdict,
    score: o.score,
    confidence: Math.max(0, Math.min(1, o.confidence)),
    sourceId: o.source?.id ?? null,
    segmentId: m ? m.segment.id : null,
    startOffset: m ? m.start : null,
    endSegmentId: m?.endSegment ? m.endSegment.id : null,
    endOffset: m ? (m.endSegment ? (m.endOffset ?? m.end) : m.end) : null,
    firstEnd: parts?.firstEnd ?? null,
    lastStart: parts?.lastStart ?? null,
    page: m?.page ?? null,
    pageLabel: m ? m.segment.pageLabel : null,
    matchMethod: m?.method ?? null,
    matchedText: m?.text ?? null,
    quote: o.quote,
    prefix: m?.prefix ?? null,
    suffix: m?.suffix ?? null,
    notes: o.notes,
  };
}

/** The verification@1 `match` of a placed quote. */
export function verificationMatch(
  source: { sha256: string; file_name: string },
  seg: { text: string; page: number | null; paragraph: number | null; lineStart: number | null },
  r: { start: number; end: number; spans: boolean; method: string; text: string },
): VerificationMatch {
  const match: VerificationMatch = {
    sha256: source.sha256,
    file: source.file_name,
    start: r.start,
    // A match that runs on to the next segment ends, in this one, where its text ends.
    end: r.spans ? Math.max(r.start, seg.text.trimEnd().length) : r.end,
    method: r.method === 'exact' || r.method === 'normalised' ? r.method : 'fuzzy',
    text: r.text,
  };
  if (seg.page !== null) match.page = seg.page;
  if (seg.paragraph !== null) match.paragraph = seg.paragraph;
  if (seg.lineStart !== null) match.line = lineOf(seg, r.start);
  return match;
}

/** The closest passage of a quote not found, as its result stores it. */
export function closestOf(o: CitationOutcome): NewClosestPassage | null {
  const c = o.closest;
  if (!c || !o.source) return null;
  return { sourceId: o.source.id, segmentId: c.segment.id, start: c.start, end: c.end, score: c.score, text: c.text };
}

/** A stored judge opinion as the contract carries it; a row this version cannot read is left out. */
export function judgeData(r: JudgeOpinionRow): JudgeOpinion | null {
  const parsed = JudgeOpinion.safeParse({ model: r.model, outcome: r.outcome, verdict: r.verdict, reason: r.reason });
  return parsed.success ? parsed.data : null;
}

/** A stored closest passage, located as the viewers locate a match. */
export function closestData(r: ClosestPassageRow, seg: SegmentRow | undefined): ClosestPassageData {
  return {
    sourceId: r.source_id,
    segmentId: r.segment_id,
    page: seg?.page ?? null,
    pageLabel: seg?.page_label ?? null,
    place: seg ? matchPlace(seg, r.start_offset, undefined, r.end_offset) : null,
    score: r.score,
    text: r.text,
  };
}

function closestAsMatch(source: { sha256: string; file_name: string }, seg: SegmentRow, start: number, end: number, text: string, score: number): VerificationClosest {
  const { method: _method, ...m } = verificationMatch(source, toAnchorSegment(seg), { start, end, spans: false, method: 'fuzzy', text });
  return { ...m, score };
}

/** A stored closest passage in the verification@1 document. */
export function closestMatch(anchoring: Pick<AnchoringStore, 'source' | 'segment'>, r: ClosestPassageRow): VerificationClosest | null {
  const source = anchoring.source(r.source_id);
  const seg = anchoring.segment(r.segment_id);
  return source && seg ? closestAsMatch(source, seg, r.start_offset, r.end_offset, r.text, r.score) : null;
}

export function outcomeToResultCitation(o: CitationOutcome, opinion: JudgeOpinion | null = null): VerificationCitation {
  const m = o.match;
  const item: VerificationCitation = {
    marker: o.marker,
    status: o.status,
    verdict: o.verdict,
    score: o.score,
    match: m && o.source ? verificationMatch(o.source, m.segment, { start: m.start, end: m.end, spans: !!m.endSegment, method: m.method, text: m.text }) : null,
    notes: o.notes,
    confidence: Math.max(0, Math.min(1, o.confidence)),
    reasons: o.reasons.map((r) => ({ code: r.code, note: r.note })),
  };
  if (opinion) item.judge = opinion;
  const c = o.closest;
  if (c && o.source) {
    const { method: _method, ...at } = verificationMatch(o.source, c.segment, { start: c.start, end: c.end, spans: false, method: 'fuzzy', text: c.text });
    item.closest = { ...at, score: c.score };
  }
  return item;
}

export function verificationResult(question: string | null, v: AnswerVerification, verifiedAt: string, opinions: readonly (JudgeOpinion | null)[] = []): VerificationResult {
  return {
    format: VERIFICATION_FORMAT,
    verifiedAt,
    answer: { question },
    citations: v.outcomes.map((o, i) => outcomeToResultCitation(o, opinions[i] ?? null)),
    summary: v.summary,
    riskFlags: v.riskFlags,
  };
}
