/**
 * Citation verification (DESIGN.md §5): resolve each citation's source, anchor its quote there
 * (anchor-in-source.ts), and turn the anchor into a status, a claim verdict and notes. Reads
 * only: storing is the caller's business.
 */
import { candidateTerms, searchableQuote, type QuoteHint, type QuoteMatch } from '../../../shared/anchoring/index.ts';
import type { ClaimedLocator, ImportedAnswer, SourceRef } from '../../../shared/imports/model.ts';
import { splitSentences } from '../../../shared/imports/sentences.ts';
import type { VerificationResult, VerificationRiskFlag } from '../../../shared/verification/result-schema.ts';
import { citationStatus, claimVerdict, keyTerms, summariseLedger, VERIFIED_SCORE, type CitationStatus, type ClaimVerdict, type LedgerItem, type VerdictReason } from '../../../shared/verification/index.ts';
import type { AnchoringStore, SourceRefRow } from '../store/anchoring-store.ts';
import type { SearchStore } from '../store/search-store.ts';
import type { SegmentRow } from '../store/sources-store.ts';
import { lineOf, toAnchorSegment, type AnchorSegment } from './anchor-segment.ts';
import { SourceAnchorer, type AnchorResult } from './anchor-in-source.ts';
import { describeLocator, diffNote, gapNotes, ocrNote, whereIs } from './outcome-notes.ts';
import { sentenceContext } from './sentence-context.ts';
import { wordNetLexicon } from './wordnet-lexicon.ts';
import { describeReference, referenceText } from './source-names.ts';
import { newestVersion } from './source-lineage.ts';
import { SourceResolver } from './source-resolver.ts';

export const VERIFIER_NAME = 'evidesk-verifier@1';

/** A citation to check: freshly imported (sourceRef) or stored (sourceId, else its unknown reference). */
export interface CitationInput {
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  sourceRef: SourceRef;
  /** Already resolved (a stored citation); resolution by sourceRef is skipped. */
  sourceId?: number | null;
  locator: ClaimedLocator;
  prefix?: string | undefined;
  suffix?: string | undefined;
  notes?: string[] | undefined;
}

export interface VerifierOptions {
  /** Sources up to this many characters are scanned whole when the narrowed search finds nothing. */
  fullScanChars?: number;
}


export interface CitationOutcome {
  marker: string;
  claim: string;
  quote: string | null;
  status: CitationStatus;
  verdict: ClaimVerdict;
  score: number;
  confidence: number;
  source: SourceRefRow | null;
  /** The canonical reference text when no source matched. */
  unknownReference: string | null;
  match: QuoteMatch<AnchorSegment> | null;
  notes: string[];
  /** The verdict's reasons with their codes (their notes are among `notes`). */
  reasons: VerdictReason[];
  sourceOutdated: boolean;
  /** The text the verdict was judged on (found text and its sentence context), for the model judge. */
  evidence: string | null;
  /** A quote not found: the passage of its source that came closest, which the viewer offers to show. */
  closest: ClosestPassage | null;
}

/** The passage of a source closest to a quote that was not found there (never a match). */
export interface ClosestPassage {
  segment: AnchorSegment;
  start: number;
  end: number;
  text: string;
  /** How close, 0..1: the anchoring score of a misquote, else the share of the quote's key terms it holds. */
  score: number;
}

export interface AnswerVerification {
  outcomes: CitationOutcome[];
  summary: VerificationResult['summary'];
  riskFlags: VerificationRiskFlag[];
  /** Flags about the answer itself (not from the ledger), kept when the ledger is summed again. */
  extraFlags: VerificationRiskFlag[];
}

/** What the ledger summary reads of an outcome. */
export function ledgerItem(o: CitationOutcome): LedgerItem {
  return { marker: o.marker, claim: o.claim, status: o.status, verdict: o.verdict, confidence: o.confidence, sourceOutdated: o.sourceOutdated };
}

/** The outcomes with their ledger summary and risk flags. */
export function withLedger(outcomes: CitationOutcome[], extraFlags: readonly VerificationRiskFlag[] = []): AnswerVerification {
  const ledger = summariseLedger(outcomes.map(ledgerItem));
  return { outcomes, summary: ledger.summary, riskFlags: [...ledger.riskFlags, ...extraFlags], extraFlags: [...extraFlags] };
}

export class Verifier {
  private readonly anchoring: AnchoringStore;
  private readonly search: SearchStore;
  private readonly resolver: SourceResolver;
  private readonly anchorer: SourceAnchorer;

  constructor(anchoring: AnchoringStore, search: SearchStore, options: VerifierOptions = {}) {
    this.anchoring = anchoring;
    this.search = search;
    this.resolver = new SourceResolver(anchoring);
    this.anchorer = new SourceAnchorer(anchoring, search, options.fullScanChars);
  }

  /** The workspace source a reference names (see SourceResolver.resolve). */
  resolve(ref: SourceRef): { source: SourceRefRow | null; notes: string[] } {
    return this.resolver.resolve(ref);
  }

  /** Finds a quote in one source (see SourceAnchorer.anchor). */
  anchor(sourceId: number, quote: string, locator: ClaimedLocator, context: { prefix?: string | undefined; suffix?: string | undefined } = {}): AnchorResult {
    return this.anchorer.anchor(sourceId, quote, locator, context);
  }

  /** The newest version of a source; null when it is the newest. */
  newestVersion(sourceId: number): SourceRefRow | null {
    return newestVersion(this.anchoring, sourceId);
  }

  /**
   * The sentence of a source sharing most key terms with `text` (a claim without a quote, or a quote
   * that was not found), among the passages full-text search ranks first; null when none shares any.
   */
  private closestPassage(sourceId: number, text: string): (ClosestPassage & { where: string }) | null {
    const terms = candidateTerms(text, 8);
    if (terms.length === 0) return null;
    let rows: SegmentRow[] = [];
    try {
      rows = this.search.candidateSegments(terms.map((t) => `"${t}"`).join(' OR '), sourceId, 5);
    } catch {
      return null;
    }
    const wanted = new Set(keyTerms(text));
    let best: (ClosestPassage & { where: string; shared: number }) | null = null;
    for (const row of rows) {
      for (const s of splitSentences(row.text)) {
        const hits = keyTerms(s.text).filter((t) => wanted.has(t));
        const shared = hits.length;
        if (!best || shared > best.shared) {
          const seg = toAnchorSegment(row);
          const where = seg.page !== null ? `p. ${seg.page}` : seg.lineStart !== null ? `line ${lineOf(seg, s.start)}` : `passage ${seg.ordinal + 1}`;
          // How close: the share of the text's distinct key terms the sentence holds.
          best = { segment: seg, start: s.start, end: s.end, text: s.text, score: wanted.size > 0 ? Math.min(1, new Set(hits).size / wanted.size) : 0, where, shared };
        }
      }
    }
    if (!best || best.shared === 0) return null;
    const { shared: _shared, ...passage } = best;
    return passage;
  }

  /** Where a quote that was not found comes closest: its misquote or weak placement, else the passage sharing most of its words. */
  private closestToQuote(sourceId: number, quote: string, near: QuoteMatch<AnchorSegment> | null): ClosestPassage | null {
    if (near) return { segment: near.segment, start: near.start, end: near.end, text: near.segment.text.slice(near.start, near.end), score: Math.max(0, Math.min(1, near.score)) };
    const p = this.closestPassage(sourceId, quote);
    return p ? { segment: p.segment, start: p.start, end: p.end, text: p.text, score: p.score } : null;
  }

  verifyCitation(c: CitationInput): CitationOutcome {
    const notes = [...(c.notes ?? [])];
    let source: SourceRefRow | null = null;
    if (c.sourceId !== undefined && c.sourceId !== null) {
      source = this.anchoring.source(c.sourceId) ?? null;
    } else {
      const resolved = this.resolve(c.sourceRef);
      source = resolved.source;
      notes.push(...resolved.notes);
    }
    const quote = c.quote && c.quote.trim().length > 0 ? c.quote : null;
    const base = { marker: c.marker, claim: c.claim, quote };
    if (!source) {
      notes.push(`no workspace source matches ${describeReference(c.sourceRef)}: ingest the cited document and verify again`);
      const v = claimVerdict({ claim: c.claim, status: 'source_unknown' });
      return { ...base, status: 'source_unknown', verdict: v.verdict, score: 0, confidence: v.confidence, source: null, unknownReference: referenceText(c.sourceRef), match: null, notes, reasons: v.findings, sourceOutdated: false, evidence: null, closest: null };
    }

    const newer = this.newestVersion(source.id);
    let match: QuoteMatch<AnchorSegment> | null = null;
    let misquote: QuoteMatch<AnchorSegment> | null = null;
    let hint: QuoteHint | null = null;
    let labelPages: number[] = [];
    let claimedMissing = false;
    let context = c.context;
    const contextOf = (m: QuoteMatch<AnchorSegment>): string => {
      const startCtx = sentenceContext(m.segment.text, m.start, m.end);
      const endCtx = m.endSegment ? sentenceContext(m.endSegment.text, m.endStart ?? 0, m.endOffset ?? 0) : '';
      // A cell is read with what names it: its table's heading, its row and column labels, its formula.
      const named = !m.endSegment && m.segment.cellWords ? `\n(${m.segment.cellWords})` : '';
      return `${startCtx}\n${endCtx}`.trim() + named;
    };
    if (quote) {
      const anchored = this.anchor(source.id, searchableQuote(quote), c.locator, { prefix: c.prefix, suffix: c.suffix });
      match = anchored.match;
      misquote = anchored.misquote;
      hint = anchored.hint;
      labelPages = anchored.labelPages;
      claimedMissing = anchored.claimedMissing;
      notes.push(...anchored.notes.filter((n) => n.startsWith('the source has no page') || !match || match.score < VERIFIED_SCORE));
      if (match) context = contextOf(match);
      else if (misquote) context = contextOf(misquote);
    } else {
      notes.push('the citation gives no quote (paraphrase or inference): support is judged from the claim');
      if (!context && c.claim.trim()) {
        const passage = this.closestPassage(source.id, c.claim);
        if (passage) {
          context = passage.text;
          notes.push(`compared with the closest passage of ${source.file_name} (${passage.where})`);
        }
      }
    }

    let status = citationStatus({ quote, sourceKnown: true, match, claimed: hint });
    // A claimed page the source does not have is a wrong location, not an absent one.
    if (status === 'verified' && claimedMissing) status = 'verified_elsewhere';
    // A text segment spans up to 40 lines: a line claim is checked against the match's own lines.
    if (status === 'verified' && match && c.locator.line !== undefined && match.segment.lineStart !== null) {
      const first = lineOf(match.segment, match.start);
      const endSeg = match.endSegment ?? match.segment;
      const last = lineOf(endSeg, match.endSegment ? (match.endOffset ?? 0) : match.end);
      const claimedEnd = c.locator.lineEnd ?? c.locator.line;
      if (last < c.locator.line - 1 || first > claimedEnd + 1) status = 'verified_elsewhere';
    }
    const v = claimVerdict({ claim: c.claim, status, score: match?.score ?? null, matchText: match?.text ?? null, quote, context, misquotedText: misquote?.text ?? null, misquotedNumbers: misquote?.numberMismatch ?? null, lexicon: wordNetLexicon() });
    const claimedText = describeLocator(c.locator);
    if (match) {
      if (status === 'verified_elsewhere') notes.push(`found on ${whereIs(match)}${claimedText ? `, not at the claimed ${claimedText}` : ''}`);
      if (status === 'verified' && match.page !== undefined && labelPages.includes(match.page) && c.locator.pageEnd === undefined) {
        const label = match.segment.pageLabel ?? c.locator.pageLabel ?? String(c.locator.page);
        notes.push(`found on the page printed "${label}" (p. ${match.page} of the file)`);
      }
      if (match.endSegment) notes.push(`the quote runs on to ${match.endPage !== undefined ? `p. ${match.endPage}` : 'the next passage'} (to offset ${match.endOffset})`);
      notes.push(...gapNotes(match));
      const onOcr = ocrNote(match);
      if (onOcr) notes.push(onOcr);
      if (match.method !== 'exact' && quote) {
        const d = match.gaps || match.editorialMarks ? null : diffNote(searchableQuote(quote), match.text);
        if (match.method === 'fuzzy' && d) notes.push(d);
        else if (match.method === 'normalised' && !match.gaps && !match.editorialMarks) notes.push('matched after normalisation (case, spacing, quotes, dashes or hyphenation differ)');
      }
    }
    if (status === 'not_found' && misquote && quote) {
      const d = diffNote(searchableQuote(quote), misquote.text);
      notes.push(
        `the quote is not in ${source.file_name} as written: on ${whereIs(misquote)} the source has the same words with other numbers (${(misquote.numberMismatch?.source ?? []).join(', ') || 'none'} where the quote has ${(misquote.numberMismatch?.quote ?? []).join(', ')})${d ? `; ${d}` : ''}`,
      );
    } else if (status === 'not_found') notes.push(`the quote is not in ${source.file_name}${match ? ` (best match scores ${match.score.toFixed(2)}, below 0.75)` : ''}`);
    const closest = status === 'not_found' && quote ? this.closestToQuote(source.id, searchableQuote(quote), misquote ?? match) : null;
    if (status === 'partial' && match) notes.push(`only a partial match (score ${match.score.toFixed(2)}) on ${whereIs(match)}`);
    for (const r of v.reasons) if (!notes.includes(r)) notes.push(r);

    if (newer) {
      let moved = '';
      if (quote) {
        const again = this.anchor(newer.id, searchableQuote(quote), {}, { prefix: match?.prefix ?? c.prefix, suffix: match?.suffix ?? c.suffix }).match;
        moved = again && again.score >= VERIFIED_SCORE - 1e-9 ? `; there the quote is on ${whereIs(again)}` : '; the quote is not found in it';
      }
      notes.push(`a newer version of this source exists (${newer.file_name}, source #${newer.id}, added ${newer.added_at.slice(0, 10)})${moved}`);
    }
    // The sentences around the found text hold it; without them, the found text alone.
    const evidence = context?.trim() || match?.text.trim() || null;
    return { ...base, status, verdict: v.verdict, score: match ? Math.max(0, Math.min(1, match.score)) : 0, confidence: v.confidence, source, unknownReference: null, match, notes, reasons: v.findings, sourceOutdated: newer !== null, evidence, closest };
  }

  /** Every citation of an answer, plus the ledger summary and risk flags. */
  verifyAll(citations: readonly CitationInput[], extraFlags: readonly VerificationRiskFlag[] = []): AnswerVerification {
    return withLedger(citations.map((c) => this.verifyCitation(c)), extraFlags);
  }
}

/** The imported citations as verifier input. */
export function citationInputs(answer: ImportedAnswer): CitationInput[] {
  return answer.citations.map((c) => ({
    marker: c.marker,
    claim: c.claim,
    quote: c.quote,
    context: c.context,
    sourceRef: c.sourceRef,
    locator: c.locator,
    prefix: c.prefix,
    suffix: c.suffix,
    notes: c.notes,
  }));
}
