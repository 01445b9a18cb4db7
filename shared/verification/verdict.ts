/**
 * Deterministic claim verdicts (DESIGN.md §5): compare the claim's numbers, dates and key terms
 * with what the source says (the matched text plus its context). A model judge may refine `weak`
 * later; these rules never upgrade a quote that was not found.
 */
import { stemmer } from 'stemmer';
import { wordDiff, type DiffPart } from '../anchoring/context.ts';
import { isCjkCode, normalise } from '../anchoring/normalise.ts';
import { STOPWORDS } from '../anchoring/candidate-terms.ts';
import type { CitationStatus } from './status.ts';
import type { FindingCode } from './claims/checks.ts';
import { judgeSupport, quoteSentences } from './claims/judge.ts';
import type { Lexicon } from './lexicon.ts';

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

// ---------------------------------------------------------------------------------------------
// Extraction

export interface NumberMention {
  value: number;
  raw: string;
  index: number;
  percent: boolean;
  currency: string | null;
  /** Stems of the words the number counts (the next content words, else the previous one). */
  unit: string[];
  /** The number with the word it counts, as written ("14 days"), for messages. */
  label: string;
  /** It names something rather than counts it: "Article 5", "§ 3.2", "page 12", "version 2". */
  reference: boolean;
  /** Written as an ordinal ("3rd"): a rank, comparable only with ranks. */
  ordinal: boolean;
  /** Stems of the content words just before the number: what a percentage is of ("revenue rose"). */
  subject: string[];
}

export interface DateMention {
  /** "YYYY-MM-DD", "YYYY-MM" or "YYYY". */
  key: string;
  raw: string;
  index: number;
}

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10,
  nov: 11, november: 11, dec: 12, december: 12,
};
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const WRITTEN: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20,
};
const SCALES: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9 };

const pad2 = (n: number): string => String(n).padStart(2, '0');

// Words after which a number is a label, not a quantity ("Article 5", "§ 3.2", "clause 7(b)").
const REFERENCE_BEFORE =
  /(?:^|[^\p{L}])(?:art(?:icle)?s?|sec(?:tion)?s?|ss?|§+|¶+|clauses?|para(?:graph)?s?|chapters?|ch|parts?|rules?|schedules?|annex(?:es)?|appendix|appendices|exhibits?|items?|pages?|pp?|fig(?:ure)?s?|tables?|nos?|numbers?|steps?|versions?|v|levels?|tiers?|phases?|stages?|titles?|regulations?|directives?|amendments?|footnotes?|notes?|lines?|questions?|q|cases?|vol(?:ume)?s?|editions?|eds?|class|categor(?:y|ies)|types?|models?|options?|rounds?|boxes|box|forms?|lots?|rooms?|floors?|routes?|grades?)\.?\s*(?:no\.?\s*)?$/u;

function validDay(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= 31 && y >= 1000 && y <= 2999;
}

/** Dates in the text; `text` should be normalised (lowercase, straight dashes). */
export function extractDates(text: string): DateMention[] {
  const t = normalise(text);
  const out: DateMention[] = [];
  const taken: [number, number][] = [];
  const free = (a: number, b: number): boolean => taken.every(([x, y]) => b <= x || a >= y);
  const add = (key: string, raw: string, index: number): void => {
    if (!free(index, index + raw.length)) return;
    taken.push([index, index + raw.length]);
    out.push({ key, raw, index });
  };
  for (const m of t.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) {
    const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
    if (validDay(y, mo, d)) add(`${y}-${pad2(mo)}-${pad2(d)}`, m[0], m.index);
  }
  for (const m of t.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MONTH_RE},? (\\d{4})\\b`, 'g'))) {
    const d = Number(m[1]), mo = MONTHS[(m[2] ?? '').replace('.', '')] ?? 0, y = Number(m[3]);
    if (validDay(y, mo, d)) add(`${y}-${pad2(mo)}-${pad2(d)}`, m[0], m.index);
  }
  for (const m of t.matchAll(new RegExp(`\\b${MONTH_RE} (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'g'))) {
    const mo = MONTHS[(m[1] ?? '').replace('.', '')] ?? 0, d = Number(m[2]), y = Number(m[3]);
    if (validDay(y, mo, d)) add(`${y}-${pad2(mo)}-${pad2(d)}`, m[0], m.index);
  }
  for (const m of t.matchAll(new RegExp(`\\b${MONTH_RE},? (\\d{4})\\b`, 'g'))) {
    const mo = MONTHS[(m[1] ?? '').replace('.', '')] ?? 0, y = Number(m[2]);
    if (mo > 0) add(`${y}-${pad2(mo)}`, m[0], m.index);
  }
  // Bare years. A 4-digit 19xx/20xx integer is read as a year, not a count (rare in policy text).
  for (const m of t.matchAll(/(?<![\d.,$€£¥-])\b(19|20)\d{2}\b(?![.,]\d|%|-\d)/g)) add(m[0], m[0], m.index);
  return out.sort((a, b) => a.index - b.index);
}

function tokensAfter(t: string, from: number, count: number): string[] {
  return (t.slice(from, from + 80).match(/[\p{L}\p{N}%]+/gu) ?? []).slice(0, count);
}

/** Numbers in the text with what they count. Dates are not numbers. */
export function extractNumbers(text: string): NumberMention[] {
  const t0 = normalise(text);
  // Blank out dates so their digits are not read as amounts (offsets stay put).
  let t = t0;
  for (const d of extractDates(t0)) t = t.slice(0, d.index) + ' '.repeat(d.raw.length) + t.slice(d.index + d.raw.length);
  const out: NumberMention[] = [];
  const re = /(?<![\p{L}\p{N}.,])([$€£¥]\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\d|[.,]\d)(\s?%|\s?percent\b|\s?per cent\b)?(?:\s?(thousand|million|billion|bn|mn|k|m|b)\b)?/gu;
  for (const m of t.matchAll(re)) {
    const currency = m[1] ? m[1].trim() : null;
    let value = Number((m[2] ?? '').replace(/,/g, '') + (m[3] ?? ''));
    if (!Number.isFinite(value)) continue;
    const scale = m[5];
    // "m" and "b" alone are only scales after a currency amount ("$5m"); else they are words.
    if (scale && (currency || scale.length > 1)) value *= SCALES[scale] ?? 1;
    const percent = !!m[4];
    const raw = m[0].trim();
    const next = percent ? undefined : tokensAfter(t, m.index + m[0].length, 1)[0];
    const label = next && !STOPWORDS.has(next) && !/^\d/.test(next) ? `${raw} ${next}` : raw;
    const reference = !percent && !currency && REFERENCE_BEFORE.test(t.slice(Math.max(0, m.index - 24), m.index));
    const ordinal = /^(?:st|nd|rd|th)\b/.test(t.slice(m.index + m[0].length));
    out.push({ value, raw, index: m.index, percent, currency, unit: unitOf(t, m.index, m.index + m[0].length, percent, currency), label, reference, ordinal, subject: subjectOf(t, m.index) });
  }
  for (const m of t.matchAll(/\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\b/g)) {
    // A written number counts only when it directly counts something ("five days", not "one of").
    const next = tokensAfter(t, m.index + m[0].length, 1)[0];
    if (!next || STOPWORDS.has(next) || /^\d/.test(next)) continue;
    out.push({ value: WRITTEN[m[1] ?? ''] ?? 0, raw: m[0], index: m.index, percent: false, currency: null, unit: [stem(next)], label: `${m[0]} ${next}`, reference: false, ordinal: false, subject: subjectOf(t, m.index) });
  }
  return out.sort((a, b) => a.index - b.index);
}

function unitOf(t: string, start: number, end: number, percent: boolean, currency: string | null): string[] {
  const unit: string[] = [];
  for (const w of tokensAfter(t, end, 3)) {
    if (/^\d/.test(w) || w === '%') break;
    if (STOPWORDS.has(w)) continue;
    unit.push(stem(w));
    if (unit.length === 2) break;
  }
  if (unit.length === 0) {
    const before = (t.slice(Math.max(0, start - 60), start).match(/\p{L}+/gu) ?? []).filter((w) => !STOPWORDS.has(w));
    const prev = before[before.length - 1];
    if (prev) unit.push(stem(prev));
  }
  if (percent) unit.push('%');
  if (currency) unit.push(currency);
  return unit;
}

/** Up to three content words within the 40 characters before `start`, stemmed. */
function subjectOf(t: string, start: number): string[] {
  const words = (t.slice(Math.max(0, start - 40), start).match(/\p{L}+/gu) ?? []).filter((w) => !STOPWORDS.has(w) && !NUMBER_WORDS.has(w));
  return words.slice(-3).map(stem);
}

/** English stemming (Porter), so "vote", "votes" and "voting" count as one key term. */
export function stem(word: string): string {
  return stemmer(word.toLowerCase().replace(/'s$/, ''));
}

// Words of numbers: the number rules compare them ("five" and "5", "million" and "000,000").
const NUMBER_WORDS: ReadonlySet<string> = new Set([
  ...Object.keys(WRITTEN),
  ...Object.keys(SCALES),
  'hundred', 'hundreds', 'thousands', 'millions', 'billions', 'trillion', 'trillions', 'dozen', 'percent', 'cent', 'zero',
]);

/** Content words of the text (stopwords, numbers and number words dropped), stemmed, distinct, in order. */
export function keyTerms(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of normalise(text).matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu)) {
    const w = m[0];
    if (STOPWORDS.has(w) || NUMBER_WORDS.has(w) || /^\p{N}+$/u.test(w) || w.length < 2 || /n't$/.test(w)) continue;
    const s = stem(w);
    if (!seen.has(s)) {
      seen.add(s);
      out.push(s);
    }
  }
  return out;
}

function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Whether two numbers count the same thing (labels and ranks never count anything). */
function sameUnit(a: NumberMention, b: NumberMention): boolean {
  if (a.reference || b.reference || a.ordinal !== b.ordinal) return false;
  // Two percentages of the same thing: "revenue rose 15 percent", "revenue grew by 12%".
  if (a.percent && b.percent && a.subject.some((w) => b.subject.includes(w))) return true;
  const aw = a.unit.filter((u) => u !== '%' && !/^[$€£¥]$/.test(u));
  const bw = b.unit.filter((u) => u !== '%' && !/^[$€£¥]$/.test(u));
  if (aw.length > 0 && bw.length > 0) {
    const bs = new Set(bw);
    return aw.some((u) => bs.has(u)) && a.percent === b.percent;
  }
  // No words to compare: only matching symbols (both percentages, or the same currency) count.
  if (aw.length === 0 && bw.length === 0) return (a.percent && b.percent) || (!!a.currency && a.currency === b.currency);
  return false;
}

const FIGURE_RE = /\d+(?:[.,:/]\d+)*/g;

/** The figures of a text, thousands separators aside ("1,000" and "1000" are one figure). */
function figures(text: string): string[] {
  return (normalise(text).match(FIGURE_RE) ?? []).map((f) => (/^\d{1,3}(?:,\d{3})+$/.test(f) ? f.replace(/,/g, '') : f));
}

/**
 * Whether two runs of figures have the same digits in the same order: separators and spacing are
 * formatting ("3 .1" in an extracted right-to-left line, "3.1" typed). A moved decimal point is
 * left to the unit-based rule.
 */
function sameFigures(a: string[], b: string[]): boolean {
  return a.join('').replace(/\D/g, '') === b.join('').replace(/\D/g, '');
}

const MAX_CHANGE_WORDS = 4;

/**
 * The quantities a few words state, however written: values of numbers, keys of dates; null
 * when some of their digits are neither ("H9958", "4.2.1").
 */
function quantities(text: string): string[] | null {
  const dates = extractDates(text);
  const numbers = extractNumbers(text);
  let rest = normalise(text);
  for (const m of [...dates, ...numbers]) rest = rest.slice(0, m.index) + ' '.repeat(m.raw.length) + rest.slice(m.index + m.raw.length);
  if (/\d/.test(rest)) return null;
  return [...dates.map((d) => `d:${d.key}`), ...numbers.map((n) => `n:${n.percent ? '%' : ''}${n.value}`)].sort();
}

/** What `a` has that `b` lacks, counting repeats. */
function without(a: readonly string[], b: readonly string[]): string[] {
  const left = [...b];
  return a.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** Text as diff words: normalised (line breaks, hyphenation and case aside), Han and kana one per character. */
function diffTokens(text: string): string {
  const n = normalise(text);
  let out = '';
  for (const ch of n) out += isCjkCode(ch.charCodeAt(0)) ? ` ${ch} ` : ch;
  return out;
}

/**
 * Numbers the claim changed while following the evidence word for word: where the word diff of
 * claim and evidence replaces a few words carrying a figure by a few others carrying a different
 * one, between words both share ("within 30 days" → "within 45 days", "§4.2.1" → "§11.2.1", a year).
 * Only when most of the claim's words are the evidence's: a loose paraphrase is left to the
 * unit-based rule.
 */
export function alignedNumberChanges(claim: string, evidence: string): { claim: string; source: string }[] {
  const diff: DiffPart[] = wordDiff(diffTokens(claim), diffTokens(evidence));
  const count = (t: string): number => t.split(/\s+/).filter((w) => w.length > 0).length;
  const claimWords = count(claim);
  const shared = diff.filter((d) => d.op === 'equal').reduce((n, d) => n + count(d.text), 0);
  if (claimWords === 0 || shared < 0.5 * claimWords) return [];
  const out: { claim: string; source: string }[] = [];
  let i = 0;
  while (i < diff.length) {
    if ((diff[i] as DiffPart).op === 'equal') {
      i++;
      continue;
    }
    // A change region: the deletions and insertions between two equal runs (or an end).
    let removed = '';
    let added = '';
    let j = i;
    for (; j < diff.length && (diff[j] as DiffPart).op !== 'equal'; j++) {
      const d = diff[j] as DiffPart;
      if (d.op === 'delete') removed += ` ${d.text}`;
      else added += ` ${d.text}`;
    }
    const fa = figures(removed);
    const fb = figures(added);
    // A figure replaced by another: not one the claim merely leaves out or adds, nor the same
    // quantity written another way ("5 million" for "5,000,000", "12 per cent" for "12%").
    const replaced = without(fa, fb).length > 0 && without(fb, fa).length > 0;
    const qa = quantities(removed);
    const qb = quantities(added);
    const same = qa !== null && qb !== null && qa.length > 0 && qa.join(' ') === qb.join(' ');
    if (replaced && !same && count(removed) <= MAX_CHANGE_WORDS && count(added) <= MAX_CHANGE_WORDS && !sameFigures(fa, fb)) {
      out.push({ claim: removed.trim(), source: added.trim() });
    }
    i = j;
  }
  return out;
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
  const context = input.context?.trim() ?? '';
  const core =
    input.matchText?.trim() ||
    (status === 'no_quote' ? '' : input.quote?.trim() ?? '');
  if (status === 'no_quote' && context.length === 0) {
    return result('weak', 0.2, [{ code: 'no_evidence', note: 'the citation gives no quote and no context: support cannot be checked' }]);
  }
  const evidence = `${core}\n${context}`;
  const claim = input.claim.trim();
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
  }
  const cDates = extractDates(claim);
  const eDates = extractDates(evidence);
  for (const d of cDates) if (!dateCovered(d, eDates)) missing.push(d.raw);

  const score = typeof input.score === 'number' ? clamp01(input.score) : 1;
  const statusFactor = status === 'verified' ? 1 : status === 'verified_elsewhere' ? 0.95 : status === 'no_quote' ? 0.8 : 0.85;
  const partial: VerdictReason = { code: 'partial_match', note: `the quote only partly matches the source (score ${score.toFixed(2)})` };

  if (contradictions.length > 0) {
    const why: VerdictReason[] = contradictions.map((note) => ({ code: 'number_differs', note }));
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
    core: found && input.quote ? `${coreText}${/[.!?;:]\s*$/.test(coreText) ? '' : '.'}\n${input.quote.replace(/\[[^\]]*\]/g, ' ')}` : coreText,
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
