/**
 * Deterministic claim verdicts (DESIGN.md §5): compare the claim's numbers, dates and key terms
 * with what the source says (the matched text plus its context). A model judge may refine `weak`
 * later; these rules never upgrade a quote that was not found.
 */
import { alignedNumberChanges, figures } from './number-changes.ts';
import { extractDates, extractNumbers, sameUnit, sameValue, type DateMention } from './quantities.ts';
import type { CitationStatus } from './status.ts';
import type { FindingCode } from './claims/checks.ts';
import { judgeSupport, quoteSentences } from './claims/judge.ts';
import { quantitiesAsFigures } from './claims/number-words.ts';
import { shareAgainstWhole } from './claims/shares.ts';
import { looserBounds, unmetBounds } from './claims/bounds.ts';
import type { Lexicon } from './lexicon.ts';

export { extractDates, extractNumbers, keyTerms, stem, type DateMention, type NumberMention } from './quantities.ts';
export { alignedNumberChanges } from './number-changes.ts';

export const CLAIM_VERDICTS = ['supported', 'weak', 'contradicted', 'not_found'] as const;
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];

export interface ClaimVerdictInput {
  claim: string;
  status: CitationStatus;
  /** Anchoring score, when the quote was placed. */
  score?: number | null;
  /** The text found in the source (preferred evidence: it is what the document says). */
  matchText?: string | null;
  /** The cited quote; used as evidence when no matched text is given and the quote was verified. */
  quote?: string | null;
  /** Text around the quote in the source, or caller-supplied context for a quote-less citation. */
  context?: string | null;
  /**
   * With status `not_found`: the source's text closest to the quote when the quote was not found
   * only because a number differs from the source's (a misquote). A claim carrying the changed
   * number is then contradicted by what the source says.
   */
  misquotedText?: string | null;
  /** With `misquotedText`: the quote's numbers the source lacks there, and the source's own. */
  misquotedNumbers?: { quote: readonly string[]; source: readonly string[] } | null;
  /** Senses and opposites of words (WordNet in the main process); without it, stems alone. */
  lexicon?: Lexicon | undefined;
}

export interface ClaimVerdictResult {
  verdict: ClaimVerdict;
  /** How firmly the rules back this verdict, 0..1. */
  confidence: number;
  /** The reasons in plain words (the notes of `findings`). */
  reasons: string[];
  /** The reasons with their codes. */
  findings: VerdictReason[];
}

function dateCovered(claim: DateMention, evidence: readonly DateMention[]): boolean {
  // "2024" is covered by "12 March 2024"; "March 2024" by "2024-03-12".
  return evidence.some((e) => e.key === claim.key || e.key.startsWith(claim.key + '-'));
}

const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** Contradictions between a claim and a text of the source (numbers by unit, or by alignment). */
function contradictionsAgainst(claim: string, text: string, context: string): string[] {
  const out: string[] = [];
  const eNums = extractNumbers(`${text}\n${context}`);
  for (const n of extractNumbers(claim)) {
    if (eNums.some((e) => sameValue(e.value, n.value))) continue;
    const other = eNums.find((e) => sameUnit(n, e));
    if (other) out.push(`the claim says "${n.label}", the source says "${other.label}"`);
  }
  for (const ch of alignedNumberChanges(claim, text)) {
    const why = `the claim says "${ch.claim}", the source says "${ch.source}"`;
    if (!out.includes(why)) out.push(why);
  }
  return out;
}

/** Why a verdict is what it is: a code (tooltips, exports, --json) and the same in plain words. */
export interface VerdictReason {
  code: VerdictReasonCode;
  note: string;
}

export type VerdictReasonCode =
  | 'source_unknown'
  | 'quote_not_found'
  | 'misquoted_number'
  | 'number_differs'
  | 'bound'
  | 'number_absent'
  | 'partial_match'
  | 'no_evidence'
  | 'empty_claim'
  | 'key_terms'
  | 'low_overlap'
  | 'numbers_present'
  | FindingCode;

/** The verdict's reasons as plain words, in order. */
const result = (verdict: ClaimVerdict, confidence: number, findings: VerdictReason[]): ClaimVerdictResult => ({
  verdict,
  confidence: clamp01(confidence),
  reasons: findings.map((f) => f.note),
  findings,
});

export function claimVerdict(input: ClaimVerdictInput): ClaimVerdictResult {
  const { status } = input;
  if (status === 'source_unknown') {
    return result('not_found', 0.95, [{ code: 'source_unknown', note: 'no workspace source matches the cited source' }]);
  }
  if (status === 'not_found') {
    const misquoted = input.misquotedText?.trim();
    if (misquoted) {
      // The quote was altered where a number is: what the source says there contradicts a claim that
      // repeats the altered number.
      const changes = contradictionsAgainst(input.claim, misquoted, input.context ?? '');
      // A number the misquote changed where nothing says what it counts (a list or section number).
      const said = new Set(figures(input.claim));
      const wrong = (input.misquotedNumbers?.quote ?? []).filter((n) => said.has(n));
      if (changes.length === 0 && wrong.length > 0) changes.push(`the claim says "${wrong.join(', ')}", the source says "${(input.misquotedNumbers?.source ?? []).join(', ')}"`);
      if (changes.length > 0) {
        return result('contradicted', 0.8, [
          { code: 'misquoted_number', note: 'the quote misquotes a number of the source' },
          ...changes.map((note) => ({ code: 'number_differs' as const, note })),
        ]);
      }
    }
    return result('not_found', 0.9, [{ code: 'quote_not_found', note: "the quote was not found in the source's text" }]);
  }
  // Amounts written in words are compared as figures ("three decades" and "30 years").
  const context = quantitiesAsFigures(input.context?.trim() ?? '');
  const core = quantitiesAsFigures(
    input.matchText?.trim() ||
    (status === 'no_quote' ? '' : input.quote?.trim() ?? ''));
  if (status === 'no_quote' && context.length === 0) {
    return result('weak', 0.2, [{ code: 'no_evidence', note: 'the citation gives no quote and no context: support cannot be checked' }]);
  }
  const evidence = `${core}\n${context}`;
  const claim = quantitiesAsFigures(input.claim.trim());
  if (claim.length === 0) {
    return result('weak', 0.2, [{ code: 'empty_claim', note: 'the claim is empty' }]);
  }

  const cNums = extractNumbers(claim);
  const eNums = extractNumbers(evidence);
  const contradictions: string[] = [];
  const missing: string[] = [];
  for (const n of cNums) {
    if (eNums.some((e) => sameValue(e.value, n.value))) continue;
    const other = eNums.find((e) => sameUnit(n, e));
    if (other) contradictions.push(`the claim says "${n.label}", the source says "${other.label}"`);
    else missing.push(n.raw);
  }
  if (core) {
    for (const ch of alignedNumberChanges(claim, core)) {
      const why = `the claim says "${ch.claim}", the source says "${ch.source}"`;
      if (!contradictions.includes(why)) contradictions.push(why);
    }
    // A share of what the source gives whole, or the whole of what it gives a share of.
    for (const why of shareAgainstWhole(claim, core)) if (!contradictions.includes(why)) contradictions.push(why);
  }
  const cDates = extractDates(claim);
  const eDates = extractDates(evidence);
  for (const d of cDates) if (!dateCovered(d, eDates)) missing.push(d.raw);

  const score = typeof input.score === 'number' ? clamp01(input.score) : 1;
  const statusFactor = status === 'verified' ? 1 : status === 'verified_elsewhere' ? 0.95 : status === 'no_quote' ? 0.8 : 0.85;
  const partial: VerdictReason = { code: 'partial_match', note: `the quote only partly matches the source (score ${score.toFixed(2)})` };

  // A bound of the claim that what the source says cannot meet ("not exceed 5 days" for "7 days").
  const bounds = core ? unmetBounds(claim, evidence) : [];
  if (contradictions.length > 0 || bounds.length > 0) {
    const why: VerdictReason[] = [...bounds.map((note) => ({ code: 'bound' as const, note })), ...contradictions.map((note) => ({ code: 'number_differs' as const, note }))];
    return result('contradicted', 0.85 * statusFactor, status === 'partial' ? [...why, partial] : why);
  }

  // A found quote says in the quoter's spelling what the source says (its text may have lost
  // ligature letters, or carry the typos the match forgave): its words count as the source's.
  const found = status === 'verified' || status === 'verified_elsewhere';
  const coreText = core ? quoteSentences(core, context) : context;
  const judged = judgeSupport({
    claim,
    // Bracketed words of the quote are the quoter's ([sic], [the Agreement]), not the source's.
    // A full stop between the two, so that the checks read them as two sentences, not one.
    core: found && input.quote ? `${coreText}${/[.!?;:]\s*$/.test(coreText) ? '' : '.'}\n${quantitiesAsFigures(input.quote.replace(/\[[^\]]*\]/g, ' '))}` : coreText,
    context,
    lexicon: input.lexicon,
  });
  const overlap = judged.overlap;
  const present = judged.matches.filter((m) => m.where !== null).length;
  const termsNote: VerdictReason[] =
    overlap === null ? [] : [{ code: 'key_terms', note: `key terms found: ${present}/${judged.matches.length} (${pct(overlap)}), synonyms and word forms counted` }];
  const findings: VerdictReason[] = judged.findings.map((f) => ({ code: f.code, note: f.note }));
  const weak = (why: VerdictReason[], base = 0.3): ClaimVerdictResult => result('weak', base + 0.3 * (overlap ?? 0), [...why, ...termsNote]);

  if (judged.verdict === 'contradicted') {
    const firm = judged.findings.filter((f) => f.effect === 'contradicts').length;
    return result('contradicted', (0.6 + 0.1 * firm + 0.1 * (overlap ?? 0)) * statusFactor, [...findings, ...termsNote]);
  }
  if (status === 'partial') return weak([partial, ...findings]);
  const looser = looserBounds(claim, evidence);
  if (looser.length > 0) return weak([...looser.map((note) => ({ code: 'bound' as const, note })), ...findings]);
  if (missing.length > 0) return weak([{ code: 'number_absent', note: `not in the evidence: ${missing.join(', ')}` }, ...findings]);
  if (findings.length > 0) return weak(findings);
  const numbersChecked = cNums.length + cDates.length;
  const numbersNote: VerdictReason[] = numbersChecked > 0 ? [{ code: 'numbers_present', note: 'every number and date of the claim appears in the evidence' }] : [];
  if (overlap === null) {
    if (numbersChecked > 0) return result('supported', 0.6 * statusFactor * score, numbersNote);
    return weak([{ code: 'low_overlap', note: 'the claim has no key terms to compare' }], 0.25);
  }
  if (judged.verdict === 'supported') return result('supported', (0.5 + 0.5 * overlap) * statusFactor * score, [...termsNote, ...numbersNote]);
  return weak([{ code: 'low_overlap', note: `low key-term overlap with the evidence (${pct(overlap)}): the evidence does not say most of what the claim says` }]);
}

/**
 * Whether the evidence supports the claim, from the quote and its context alone (the quote taken
 * as found): what a model judge's answer can be set beside. Pure; the lexicon is the caller's.
 */
export function judgeClaim(claim: string, quote: string, context: string, lexicon?: Lexicon): ClaimVerdictResult {
  return claimVerdict({ claim, status: 'verified', quote, matchText: quote, context, lexicon });
}
