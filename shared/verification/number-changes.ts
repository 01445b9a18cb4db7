/**
 * Numbers a claim changed while following its evidence word for word ("within 30 days" for
 * "within 45 days"): read from the word diff of the two, apart from the unit-based number rule.
 */
import { wordDiff, type DiffPart } from '../anchoring/context.ts';
import { isCjkCode, normalise } from '../anchoring/normalise.ts';
import { extractDates, extractNumbers } from './quantities.ts';

const FIGURE_RE = /\d+(?:[.,:/]\d+)*/g;

/** The figures of a text, thousands separators aside ("1,000" and "1000" are one figure). */
export function figures(text: string): string[] {
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
  const claimTokens = diffTokens(claim);
  // No figure in the claim, none it could have changed (its words are normalised already, digits
  // of other scripts made ASCII): the diff would find no region to report.
  if (!/\d/.test(claimTokens)) return [];
  const diff: DiffPart[] = wordDiff(claimTokens, diffTokens(evidence));
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
