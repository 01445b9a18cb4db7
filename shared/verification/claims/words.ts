/**
 * The words of a claim or of its evidence as the claim checks read them: in order, with their
 * stems, whether a negation governs them, and which are names (capitalised inside a sentence).
 */
import { STOPWORDS } from '../../anchoring/candidate-terms.ts';
import { porterStem } from '../porter-stem.ts';

export interface Word {
  /** Lowercase, curly apostrophes straightened. */
  word: string;
  stem: string;
  /** Offset in the text. */
  start: number;
  /** Written with a capital. */
  capital: boolean;
  /** Capitalised and not the first word of its sentence: part of a name. */
  name: boolean;
  /** A stopword or number: not a key term. */
  minor: boolean;
  /** Inside the scope of a negation ("not", "never", "no longer", "fails to" …). */
  negated: boolean;
  /** A negation cue itself. */
  negator: boolean;
  /** Read as its base under a negation carried by its prefix ("unrelated" as not "related"). */
  affixal?: boolean;
  /** Acted on by a verb of removal or ending ("removes support"): no longer there. */
  privated?: boolean;
  /** The verb of removal or ending itself. */
  privative?: boolean;
  /** Index of the clause (between commas, semicolons, conjunctions) the word is in. */
  clause: number;
  /** Index of the sentence (between full stops, semicolons, colons) the word is in. */
  sentence: number;
}

// Words that end a negation's reach: punctuation is handled apart.
const SCOPE_END = new Set(['but', 'which', 'who', 'whom', 'whose', 'while', 'whereas', 'although', 'though', 'because', 'unless', 'except', 'if', 'when', 'where', 'and', 'or']);
const NEGATORS = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without', 'unable', 'nowhere']);
// Verbs that negate what follows them ("fails to comply", "refused to sign", "lacks authority").
const NEGATING_VERBS = /^(?:fail|fails|failed|failing|refuse|refuses|refused|refusing|lack|lacks|lacked|lacking|cease|ceases|ceased)$/;
const SCOPE_REACH = 6;
// After a comma: one or two more words, then another comma or "or"/"nor"/"and": a list goes on.
const LIST_GOES_ON = /^\s*[\p{L}-]+(?:\s[\p{L}-]+)?\s*(?:,|\s(?:or|nor|and)\s)/u;

export function stem(word: string): string {
  return porterStem(word.replace(/'s$/, ''));
}

/**
 * Words of `text` with their negation scopes, clauses and names. A negation inside one of `bounds`
 * (the spans of "no more than 4 grams", "must not exceed 5 days") is part of a bound, no denial.
 */
export function readWords(text: string, bounds: readonly { start: number; end: number }[] = []): Word[] {
  const out: Word[] = [];
  // A number's decimal point or thousands separator is no full stop: "0.40", "12,500".
  const re = /\p{N}+(?:[.,]\p{N}+)+|[\p{L}\p{N}]+(?:['’][\p{L}]+)*|[.;:!?,()\u2013\u2014]|\s-\s/gu;
  let sentenceStart = true;
  let clause = 0;
  let sentence = 0;
  let scopeLeft = 0;
  let inList = false;
  for (const m of text.matchAll(re)) {
    const raw = m[0];
    if (!/[\p{L}\p{N}]/u.test(raw)) {
      // A list under a negation ("must not copy, sell or lend it") stays under it to its last item.
      const list = raw === ',' && scopeLeft > 0 && LIST_GOES_ON.test(text.slice(m.index + 1, m.index + 60));
      scopeLeft = list ? SCOPE_REACH : 0;
      inList = list;
      if (list) continue;
      clause++;
      if (/[.!?;:]/.test(raw)) {
        sentenceStart = true;
        sentence++;
      }
      continue;
    }
    const word = raw.toLowerCase().replace(/’/g, "'");
    const contracted = /n't$/.test(word);
    const base = contracted ? word.slice(0, -3) : word;
    const prev = out[out.length - 1];
    // "no longer", "not … any more": the negation is the first word.
    // "declined to sign" negates; "rainfall declined" only falls.
    const declines = /^declin(?:e|es|ed|ing)$/.test(word) && /^\s+to\b/.test(text.slice(m.index + raw.length, m.index + raw.length + 6));
    const inBound = bounds.some((b) => m.index >= b.start && m.index < b.end);
    const negator = !inBound && (NEGATORS.has(word) || contracted || NEGATING_VERBS.test(word) || declines);
    if (SCOPE_END.has(word) && !(inList && scopeLeft > 0 && (word === 'or' || word === 'and'))) {
      scopeLeft = 0;
      clause++;
    }
    if (inList && (word === 'or' || word === 'and')) inList = false;
    const negated = scopeLeft > 0 && !negator;
    const capital = /^\p{Lu}/u.test(raw);
    out.push({
      word: base,
      stem: stem(base),
      start: m.index,
      capital,
      name: capital && !sentenceStart && !STOPWORDS.has(word),
      minor: STOPWORDS.has(word) || STOPWORDS.has(base) || /^\p{N}/u.test(word) || word.length < 2 || negator,
      negated,
      negator,
      clause,
      sentence,
    });
    if (negator) scopeLeft = SCOPE_REACH;
    else if (scopeLeft > 0) scopeLeft--;
    // "no longer" is one cue: "longer" is no key term.
    if (prev?.negator && word === 'longer') (out[out.length - 1] as Word).minor = true;
    sentenceStart = false;
  }
  return out;
}
