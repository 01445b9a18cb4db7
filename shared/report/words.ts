/**
 * What the renderers say about a citation, in words people read (codes stay in JSON and CSV).
 */
import { formatLocator } from '../domain/locator.ts';
import type { CitationStatus } from '../verification/status.ts';
import type { ClaimVerdict } from '../verification/verdict.ts';
import { judgeSilence, type JudgeOpinion } from '../verification/judge.ts';
import type { CurrentDecision, ReportCitation, ReportMatch, ReportSource, TrailDecision, UnresolvedReason } from './schema.ts';

export const STATUS_WORDS: Record<CitationStatus, string> = {
  verified: 'Quote found at the cited place',
  verified_elsewhere: 'Quote found elsewhere in the source',
  partial: 'Quote only partly matches the source',
  not_found: 'Quote not found in the source',
  source_unknown: 'Source not in the workspace',
  no_quote: 'No quote given',
};

export const VERDICT_WORDS: Record<ClaimVerdict, string> = {
  supported: 'claim supported',
  weak: 'claim weakly supported',
  contradicted: 'claim contradicted by the source',
  not_found: 'no support found for the claim',
};

export const DECISION_WORDS: Record<CurrentDecision | TrailDecision, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  flagged: 'Flagged for follow-up',
  none: 'Not reviewed',
  cleared: 'Decision cleared',
};

export const UNRESOLVED_WORDS: Record<UnresolvedReason, string> = {
  quote_not_found: 'the quote was not found',
  source_unknown: 'the source is not in the workspace',
  partial_match: 'the quote only partly matches',
  contradicted: 'the source contradicts the claim',
  claim_not_supported: 'nothing supports the claim',
  flagged: 'a reviewer flagged it',
};

export const HEALTH_WORDS: Record<ReportSource['health'], string> = {
  ok: 'File unchanged',
  modified: 'File changed since it was added',
  missing: 'File missing',
  unchecked: 'Not checked',
};

/** Where the quote was found: "p. iv (4)", "pp. 12–13", "¶ 3", "lines 10–12". */
export function placeWords(m: ReportMatch): string {
  if (m.unit === 'page' && m.page !== null) {
    if (m.endPage !== null && m.endPage !== m.page) return `pp. ${m.pageLabel && m.pageLabel !== String(m.page) ? `${m.pageLabel} (${m.page})` : m.page}–${m.endPage}`;
    return formatLocator({ page: m.page, ...(m.pageLabel ? { pageLabel: m.pageLabel } : {}) });
  }
  if (m.unit === 'block' && m.block !== null) return m.endBlock !== null && m.endBlock !== m.block ? `¶ ${m.block}–${m.endBlock}` : `¶ ${m.block}`;
  if (m.unit === 'line' && m.line !== null) return formatLocator({ line: m.line, ...(m.endLine !== null ? { lineEnd: m.endLine } : {}) });
  return 'place not recorded';
}

/** Where the citation claimed the quote is, or null when it claimed no place. */
export function claimedWords(c: Pick<ReportCitation, 'claimed'>): string | null {
  const l = c.claimed;
  const page = l.page !== undefined ? (l.pageEnd !== undefined && l.pageEnd !== l.page ? `pp. ${l.page}–${l.pageEnd}` : formatLocator({ page: l.page, ...(l.pageLabel ? { pageLabel: l.pageLabel } : {}) })) : '';
  const rest = formatLocator({
    ...(l.paragraph !== undefined ? { paragraph: l.paragraph } : {}),
    ...(l.line !== undefined ? { line: l.line } : {}),
    ...(l.lineEnd !== undefined ? { lineEnd: l.lineEnd } : {}),
    ...(l.section ? { headingPath: [l.section] } : {}),
  });
  const words = [page, rest].filter((s) => s.length > 0).join(' · ');
  return words.length > 0 ? words : null;
}

/** Where the report says the evidence is: the place found, else the place claimed, else a sentence. */
export function evidencePlace(c: Pick<ReportCitation, 'match' | 'claimed' | 'status'>): string {
  if (c.match) return placeWords(c.match);
  const claimed = claimedWords(c);
  if (c.status === 'no_quote') return claimed ? `cited at ${claimed}` : 'no place given';
  return claimed ? `cited at ${claimed}, not found there` : 'no place given';
}

/** Text as one sentence: a full stop added unless it already ends with one (or ? ! …). */
export function asSentence(text: string): string {
  const t = text.trim();
  return /[.?!…]["'”’)\]]*$/.test(t) || t.length === 0 ? t : `${t}.`;
}

/** The status and verdict in one sentence: "Quote found at the cited place; claim supported (score 1.00)." */
export function resultWords(c: Pick<ReportCitation, 'status' | 'verdict' | 'score'>): string {
  const score = c.status === 'verified' || c.status === 'verified_elsewhere' || c.status === 'partial' ? ` (score ${c.score.toFixed(2)})` : '';
  return `${STATUS_WORDS[c.status]}; ${VERDICT_WORDS[c.verdict]}${score}.`;
}

/** Who decided, when, and the note: "by Ada on 2026-11-24 10:00 UTC: checked the table"; "" for none. */
export function decisionDetail(review: ReportCitation['review']): string {
  if (review.decision === 'none') {
    // Cleared: say so, so the trail above it is not read as in force.
    const last = review.history[review.history.length - 1];
    return last ? `(decision cleared${last.reviewer ? ` by ${last.reviewer}` : ''} on ${timeWords(last.at)})` : '';
  }
  const who = review.reviewer ? `by ${review.reviewer}` : '';
  const when = review.at ? `on ${timeWords(review.at)}` : '';
  const note = review.note ? `: ${review.note}` : '';
  return `${[who, when].filter((s) => s.length > 0).join(' ')}${note}`;
}

/** The decision in force in words: "Accepted by Ada Lovelace on 2026-11-24 10:00 UTC: note". */
export function decisionWords(review: ReportCitation['review']): string {
  const detail = decisionDetail(review);
  return detail ? `${DECISION_WORDS[review.decision]} ${detail}` : DECISION_WORDS[review.decision];
}

/** An ISO time as "2026-11-24 10:00 UTC" (the report is read anywhere: UTC, not local time). */
export function timeWords(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A share as a percentage: 0.8333 → "83%". */
export function percentWords(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** The model judge's opinion in a sentence: its verdict and reason, or why it gave none. */
export function judgeWords(j: JudgeOpinion): string {
  if (j.outcome === 'answered' && j.verdict) return `Model judge (${j.model}): ${j.verdict.replace('_', ' ')}${j.reason ? `: ${asSentence(j.reason)}` : '.'}`;
  return `Model judge (${j.model}) ${judgeSilence(j)}; the rules' verdict stands.`;
}
