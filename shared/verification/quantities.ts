/**
 * The numbers and dates a claim or its evidence states, read from the text: values, what they
 * count (units), and whether they name rather than count ("Article 5"). The verdict compares them.
 */
import { porterStem } from './porter-stem.ts';
import { normalise } from '../anchoring/normalise.ts';
import { STOPWORDS } from '../anchoring/candidate-terms.ts';

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
// Compiled once (matchAll copies them, so their lastIndex is never moved).
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MONTH_RE},? (\\d{4})\\b`, 'g');
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH_RE} (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'g');
const MONTH_YEAR = new RegExp(`\\b${MONTH_RE},? (\\d{4})\\b`, 'g');
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
  for (const m of t.matchAll(DAY_MONTH_YEAR)) {
    const d = Number(m[1]), mo = MONTHS[(m[2] ?? '').replace('.', '')] ?? 0, y = Number(m[3]);
    if (validDay(y, mo, d)) add(`${y}-${pad2(mo)}-${pad2(d)}`, m[0], m.index);
  }
  for (const m of t.matchAll(MONTH_DAY_YEAR)) {
    const mo = MONTHS[(m[1] ?? '').replace('.', '')] ?? 0, d = Number(m[2]), y = Number(m[3]);
    if (validDay(y, mo, d)) add(`${y}-${pad2(mo)}-${pad2(d)}`, m[0], m.index);
  }
  for (const m of t.matchAll(MONTH_YEAR)) {
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
  return porterStem(word.toLowerCase().replace(/'s$/, ''));
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

export function sameValue(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Whether two numbers count the same thing (labels and ranks never count anything). */
export function sameUnit(a: NumberMention, b: NumberMention): boolean {
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
