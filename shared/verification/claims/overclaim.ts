/**
 * Overclaim checks: what the claim says that neither the quote nor the text around it says. A
 * thing the claim speaks of that the source never mentions ("maintenance costs" where the source
 * has only "fuel costs"), and a cause the claim gives where the source states none ("declined
 * because of deforestation" for "declined"). Each makes the claim weak, never contradicted: the
 * source is silent, it does not say the opposite.
 */
import type { Lexicon } from '../lexicon.ts';
import type { Finding } from './checks.ts';
import type { TermMatch } from './overlap.ts';
import type { Word } from './words.ts';

// Words of measure and proportion: how a paraphrase restates an amount ("a maximum of five" for
// "up to five", "the majority" for "most"), not a new thing. Closed class.
const MEASURE_WORDS = new Set([
  'maximum', 'minimum', 'majority', 'minority', 'total', 'number', 'amount', 'share', 'proportion', 'percentage', 'rate', 'level', 'part', 'rest', 'whole', 'average',
  'percent', 'cent', 'dozen', 'hundred', 'thousand', 'million', 'billion',
  // Numbers written out: the number checks compare them.
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen',
  'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety',
]);

const BE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'am']);
// Words after which a word is a verb: modals, "to", subject pronouns, relative pronouns.
const BEFORE_VERB = new Set([
  'to', 'can', 'could', 'may', 'might', 'must', 'shall', 'should', 'will', 'would', 'do', 'does', 'did', 'not', 'never',
  'i', 'we', 'you', 'they', 'he', 'she', 'it', 'who', 'which', 'that',
]);
// Words before which a word with a verb sense is a verb ("attributes the loss", "speeds up", "run every").
const AFTER_VERB = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'our', 'all', 'any', 'some', 'every', 'each', 'no', 'this', 'these', 'those', 'up', 'down', 'out', 'off']);
// Nouns of a prepositional connective ("thanks to", "due to", "in addition to"): no thing spoken of.
const CONNECTIVE_NOUNS = new Set(['thanks', 'due', 'owing', 'according', 'addition', 'regard', 'respect', 'result', 'spite', 'case', 'terms', 'behalf', 'order']);
const PRONOUN_START = /^\s*(?:it|they|this|these|he|she|we)\b/i;

/**
 * Whether the word at `i` reads as a verb or a predicate where it stands: a verb form, a word
 * after a modal, "to" or a subject pronoun, an adjective or participle after "be", or a word in
 * -s with a verb sense before a determiner.
 */
export function predicateAt(words: readonly Word[], i: number, lexicon: Lexicon): boolean {
  const w = words[i] as Word;
  if (lexicon.verbal(w.word)) return true;
  const prev = words[i - 1]?.word ?? '';
  if (BE.has(prev)) return true;
  if (!lexicon.predicative(w.word)) return false;
  if (BEFORE_VERB.has(prev)) return true;
  // After its subject, before its object: "Version 4.0 drops Python", "trains run every hour".
  const next = words[i + 1];
  const objectNext = !!next && (AFTER_VERB.has(next.word) || next.capital || /^\p{N}/u.test(next.word));
  return objectNext && (/s$/.test(w.word) || (!!words[i - 1] && !(words[i - 1] as Word).minor));
}

/**
 * Whether the source leaves its subject to be named elsewhere: its sentence opens with a pronoun
 * ("It replaced …") or says what was done without by whom ("… was rejected").
 */
function subjectLeftOut(core: readonly Word[], coreText: string): boolean {
  if (PRONOUN_START.test(coreText)) return true;
  return core.some((w, i) => BE.has(w.word) && /(?:ed|en)$/.test(core[i + 1]?.word ?? '') && !core.slice(i + 2, i + 5).some((x) => x.word === 'by'));
}

/**
 * The first thing (a noun where it stands: not a verb or predicate, not an adverb, not a party
 * or a name, which the party and name checks read) that the claim speaks of and the evidence
 * never mentions, in the quote's sentence or around it, in any form or by any synonym. The
 * claim's subject is exempt where the source leaves its own to be named elsewhere.
 */
export function unmentionedThing(claim: readonly Word[], core: readonly Word[], coreText: string, matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  const firstVerb = claim.findIndex((w, i) => !w.minor && predicateAt(claim, i, lexicon));
  const subjectFree = subjectLeftOut(core, coreText);
  const thing = matches.find((m) => {
    const w = m.word;
    const i = claim.indexOf(w);
    if (m.where !== null || w.name || w.capital || w.negated || MEASURE_WORDS.has(w.word) || /ly$/.test(w.word)) return false;
    if (CONNECTIVE_NOUNS.has(w.word) && ['to', 'of', 'with'].includes(claim[i + 1]?.word ?? '')) return false;
    if (subjectFree && (firstVerb < 0 || i < firstVerb)) return false;
    // A word WordNet does not know (a product name, a code) is left to the overlap.
    if (lexicon.senseCount(w.word) === 0 || lexicon.agent(w.word) || !lexicon.noun(w.word)) return false;
    return !predicateAt(claim, i, lexicon);
  });
  if (!thing) return null;
  return { code: 'added_content', effect: 'weakens', note: `the claim speaks of "${thing.word.word}", which the source does not mention` };
}

// Connectives that give a cause or a reason; and the words by which a source states one.
const CAUSE_IN_CLAIM = /\b(?:because|due to|owing to|caused by|as a result of|thanks to|on account of|result(?:s|ed)? (?:from|in)|le(?:d|ads?) to)\b/;
const CAUSE_IN_SOURCE = /\b(?:because|due|owing|caus\w*|result\w*|thanks|reason\w*|le(?:d|ads?) to|therefore|hence|consequently|so that|since|as a consequence|attribut\w*|driven by|explain\w*)\b/;

/** A cause the claim gives where the quote's sentence states none: "declined because of deforestation" for "declined". */
export function unstatedCause(claim: string, core: string): Finding | null {
  const c = claim.toLowerCase().match(CAUSE_IN_CLAIM);
  if (!c || CAUSE_IN_SOURCE.test(core.toLowerCase())) return null;
  return { code: 'added_content', effect: 'weakens', note: `the claim gives a cause ("${c[0]}"); the source states none` };
}

/**
 * An adverb of the claim the source says nowhere, in no form and by no synonym ("kept
 * permanently" for "kept for 90 days"): it states how, when or how much, which the quote does not.
 */
export function unsaidAdverb(matches: readonly TermMatch[], core: readonly Word[], lexicon: Lexicon): Finding | null {
  // An adverb of the quote, or the adjective it is made from ("mainly" / "main"), may be what the claim's rewords.
  const coreStems = new Set(core.map((w) => w.stem));
  if (core.some((w) => !w.minor && (lexicon.adverb(w.word) || /ly$/.test(w.word)))) return null;
  const m = matches.find((x) => x.where === null && !x.word.name && lexicon.adverb(x.word.word) && !coreStems.has(x.word.word.replace(/ly$/, '')) && !coreStems.has(x.word.stem.replace(/li$/, '')));
  return m ? { code: 'added_content', effect: 'weakens', note: `the claim says "${m.word.word}", which the source does not say` } : null;
}
