/**
 * Which key words of a claim the evidence says too: the same stem, the same word spelt a little
 * differently, or a word of the same sense (a synonym, or a broader word) by the lexicon. Words of
 * the quote's own sentence count fully; words only in the wider context count half.
 */
import type { Lexicon } from '../lexicon.ts';
import type { Word } from './words.ts';

const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  ('am is are was were be been being has have had having do does did can could may might must shall should will would ' +
    'the a an this that these those it its they them their he she his her we our you your i me my of to in on at by for from with as and or but not no')
    .split(' '),
);

export interface TermMatch {
  word: Word;
  /** Where the evidence says it: in the quote's sentence, only around it, or nowhere. */
  where: 'core' | 'context' | null;
  /** The evidence words that say it (in the quote's sentence when there are any). */
  evidence: Word[];
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

// Endings that make a party of a verb: "employer" / "employee", "licensor" / "licensee" name the two sides.
const PARTY_ENDING = /(?:ee|or|er)s?$/;

/**
 * The same word spelt a little differently ("organisation" / "organization"): a long shared
 * beginning, lengths within two letters (not "share" / "shareholders"), and not the two parties
 * of one verb ("employer" / "employee").
 */
function spellingVariants(c: Word, e: Word): boolean {
  if (c.stem.length < 5 || e.stem.length < 5 || Math.abs(c.word.length - e.word.length) > 2) return false;
  if (commonPrefix(c.stem, e.stem) < Math.max(5, Math.min(c.stem.length, e.stem.length) - 2)) return false;
  const pc = c.word.match(PARTY_ENDING)?.[0].replace(/s$/, '');
  const pe = e.word.match(PARTY_ENDING)?.[0].replace(/s$/, '');
  return !(pc !== pe && (pc === 'ee' || pe === 'ee'));
}

/** Same stem, a long shared beginning ("organisation" / "organization"), or a synonym / broader sense. */
export function sameTerm(c: Word, e: Word, lexicon: Lexicon): boolean {
  if (c.stem === e.stem || c.word === e.word) return true;
  if (spellingVariants(c, e)) return true;
  // Names are not words of a dictionary: "Apple" is no "fruit".
  // Function words ("are", "can", "will") match only themselves: "exist" is no reading of "are".
  // Other stopwords may carry meaning ("further the aims").
  if (c.name || e.name || FUNCTION_WORDS.has(e.word)) return false;
  return lexicon.covers(c.word, e.word);
}

/** A word with the next one as a phrase of the dictionary ("went away", "set aside"), when they are in one clause. */
function phraseAt(words: readonly Word[], i: number): string | null {
  const w = words[i];
  const next = words[i + 1];
  return w && next && next.clause === w.clause && !next.negator ? `${w.word} ${next.word}` : null;
}

/**
 * The claim's key words (`claim` holds all its words) against the evidence's words, phrases of
 * two words included on either side ("went away" for "disappeared", "set aside" for "reserved").
 */
export function matchTerms(claim: readonly Word[], core: readonly Word[], context: readonly Word[], lexicon: Lexicon): TermMatch[] {
  const said = (c: Word, phrase: string | null, words: readonly Word[]): Word[] => {
    const out = words.filter((e) => !e.negator && sameTerm(c, e, lexicon));
    if (out.length > 0 || c.name) return out;
    words.forEach((e, j) => {
      if (e.negator) return;
      if (phrase && !e.minor && lexicon.covers(phrase, e.word)) out.push(e);
      const ePhrase = !e.minor ? phraseAt(words, j) : null;
      if (ePhrase && lexicon.covers(c.word, ePhrase)) out.push(e);
    });
    return out;
  };
  const out: TermMatch[] = [];
  let carried: TermMatch | null = null;
  claim.forEach((word, i) => {
    if (word.minor) return;
    // The second word of a phrase already matched is said with it.
    const before: TermMatch | null = carried;
    carried = null;
    if (before && claim[i - 1] === before.word) {
      out.push({ word, where: before.where, evidence: before.evidence });
      return;
    }
    const phrase = phraseAt(claim, i);
    const inCore = said(word, null, core);
    let m: TermMatch;
    if (inCore.length > 0) m = { word, where: 'core', evidence: inCore };
    else {
      const byPhrase = phrase ? said(word, phrase, core) : [];
      if (byPhrase.length > 0) {
        m = { word, where: 'core', evidence: byPhrase };
        carried = m;
      } else {
        const inContext = said(word, phrase, context);
        m = { word, where: inContext.length > 0 ? 'context' : null, evidence: inContext };
      }
    }
    out.push(m);
  });
  return out;
}

/** Share of the claim's key words the evidence says (context words count half); null without key words. */
export function overlapOf(matches: readonly TermMatch[]): number | null {
  if (matches.length === 0) return null;
  const got = matches.reduce((n, m) => n + (m.where === 'core' ? 1 : m.where === 'context' ? 0.5 : 0), 0);
  return got / matches.length;
}
