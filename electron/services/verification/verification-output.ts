/** A citation's outcome as it is stored (a result row) and as it is reported (verification@1). */
import { VERIFICATION_FORMAT, type VerificationCitation, type VerificationMatch, type VerificationResult } from '../../../shared/verification/result-schema.ts';
import type { NewResult } from '../store/answers-store.ts';
import { lineOf } from './anchor-segment.ts';
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

export function outcomeToResultCitation(o: CitationOutcome): VerificationCitation {
  const m = o.match;
  return {
    marker: o.marker,
    status: o.status,
    verdict: o.verdict,
    score: o.score,
    match: m && o.source ? verificationMatch(o.source, m.segment, { start: m.start, end: m.end, spans: !!m.endSegment, method: m.method, text: m.text }) : null,
    notes: o.notes,
    confidence: Math.max(0, Math.min(1, o.confidence)),
    reasons: o.reasons.map((r) => ({ code: r.code, note: r.note })),
  };
}

export function verificationResult(question: string | null, v: AnswerVerification, verifiedAt: string): VerificationResult {
  return {
    format: VERIFICATION_FORMAT,
    verifiedAt,
    answer: { question },
    citations: v.outcomes.map(outcomeToResultCitation),
    summary: v.summary,
    riskFlags: v.riskFlags,
  };
}
