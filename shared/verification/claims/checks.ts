/**
 * The deterministic checks of a claim against its evidence (DESIGN.md §5): each reads one kind of
 * meaning (polarity, modality, quantifiers, direction, roles, names, added content) and says in
 * words what it saw. A check finds a contradiction only where the evidence says the opposite of
 * the same thing; anything less makes the claim weak, never contradicted.
 */
import type { Lexicon } from '../lexicon.ts';
import { CLOSED_CLASS_WORDS, NO_LEXICON } from '../lexicon.ts';
import { party, passive } from './exchange.ts';
import { predicateAt } from './overclaim.ts';
import type { TermMatch } from './overlap.ts';
import { sameTerm } from './overlap.ts';
import type { Word } from './words.ts';

export type FindingCode =
  | 'polarity'
  | 'modality'
  | 'quantifier'
  | 'direction'
  | 'roles'
  | 'name_absent'
  | 'substitution'
  | 'unsaid_verb'
  | 'added_content';

export interface Finding {
  code: FindingCode;
  /** The evidence says the opposite (contradicts) or does not say as much (weakens). */
  effect: 'contradicts' | 'weakens';
  /** What the check saw, in plain words. */
  note: string;
}

const quoteWords = (ws: readonly Word[]): string => ws.map((w) => w.word).join(' ');

// ---------------------------------------------------------------------------------------------
// Polarity

/**
 * Key words the claim and the evidence's sentence both say, one under a negation and the other
 * not ("are not volunteers" / "are volunteers"). Null when every shared word has the same polarity.
 */
export function polarityClash(matches: readonly TermMatch[]): { claimNegated: Word[]; evidenceNegated: Word[] } | null {
  // Whether a negation governs what both say, on each side: "do not get" and "are not entitled"
  // agree however far each negation reaches.
  const shared = matches.filter((m) => m.where === 'core');
  // Of a word the evidence says more than once, the occurrence read is one of the claim's polarity, if any.
  const read = (m: TermMatch): Word | undefined => m.evidence.find((e) => e.negated === m.word.negated) ?? m.evidence[0];
  const claimNegated = shared.filter((m) => m.word.negated).map((m) => m.word);
  const evidenceNegated = shared.filter((m) => read(m)?.negated).map((m) => m.word);
  // A denial of what the other side's verb of removal acts on ("no longer supported" for "removes
  // support") says what that side says.
  // Not when the denial is of the verb of removal itself ("never disappeared" for "disappeared").
  const deniesRemoval = shared.some((m) => (m.word.negated && m.evidence.some((e) => e.privative)) || (m.word.privative && read(m)?.negated));
  if (!deniesRemoval && shared.some((m) => (m.word.negated && m.evidence.some((e) => e.privated)) || (m.word.privated && read(m)?.negated))) return null;
  if ((claimNegated.length > 0) === (evidenceNegated.length > 0)) return null;
  return { claimNegated, evidenceNegated };
}

export function polarityNote(clash: { claimNegated: Word[]; evidenceNegated: Word[] }, negators: { claim: string; evidence: string }): string {
  if (clash.claimNegated.length > 0) return `the claim denies what the source affirms: "${negators.claim} … ${quoteWords(clash.claimNegated)}"; the source has no negation there`;
  return `the source denies what the claim affirms: it says "${negators.evidence} … ${quoteWords(clash.evidenceNegated)}"`;
}

/** The first negation cue of a text, for notes. */
export function firstNegator(words: readonly Word[]): string {
  const w = words.find((x) => x.negator);
  return w ? (w.word === 'no' && words[words.indexOf(w) + 1]?.word === 'longer' ? 'no longer' : w.word) : 'not';
}

// ---------------------------------------------------------------------------------------------
// Modality

const MODAL_LEVEL: Record<string, number> = {
  must: 3, shall: 3, required: 3, requires: 3, require: 3, obliged: 3, obligated: 3, mandatory: 3, compulsory: 3,
  should: 2, ought: 2, recommended: 2, advised: 2, encouraged: 2,
  may: 1, might: 1, can: 1, could: 1, allowed: 1, permitted: 1, entitled: 1, eligible: 1, optional: 1,
};
const MODAL_WORD = ['', 'may', 'should', 'must'];

/** The strongest modal of a text that no negation governs: 3 obligation, 2 recommendation, 1 permission, 0 none. */
export function modality(words: readonly Word[]): { level: number; cue: string } {
  let best = { level: 0, cue: '' };
  words.forEach((w, i) => {
    let level = MODAL_LEVEL[w.word] ?? 0;
    // "has to", "needs to" oblige.
    if (level === 0 && /^(?:has|have|had|need|needs)$/.test(w.word) && words[i + 1]?.word === 'to') level = 3;
    if (level > best.level && !w.negated && !words[i + 1]?.negator) best = { level, cue: w.word };
  });
  return best;
}

/** A claim that obliges where the source only recommends or permits ("must" for "may"). */
export function modalityGap(claim: readonly Word[], evidence: readonly Word[]): Finding | null {
  const c = modality(claim);
  const e = modality(evidence);
  if (c.level === 0 || e.level === 0 || c.level <= e.level) return null;
  return {
    code: 'modality',
    effect: 'weakens',
    note: `the claim says "${c.cue}" (${c.level === 3 ? 'an obligation' : 'a recommendation'}); the source only says "${e.cue}" (${e.level === 2 ? 'a recommendation' : 'a permission or possibility'}) — ${MODAL_WORD[e.level]}, not ${MODAL_WORD[c.level]}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Quantifiers

type Quantity = 'only' | 'all' | 'most' | 'some';
const QUANTIFIERS: Record<string, Quantity> = {
  only: 'only', solely: 'only', exclusively: 'only', sole: 'only',
  all: 'all', every: 'all', each: 'all', always: 'all', everyone: 'all', everything: 'all', entire: 'all', invariably: 'all',
  most: 'most', majority: 'most', mostly: 'most', usually: 'most', generally: 'most', typically: 'most', largely: 'most', mainly: 'most',
  some: 'some', several: 'some', few: 'some', certain: 'some', sometimes: 'some', occasionally: 'some', many: 'some', various: 'some', often: 'some', minority: 'some',
};
const RANK: Record<Quantity, number> = { some: 1, most: 2, all: 3, only: 4 };

export function quantifiers(words: readonly Word[]): Set<Quantity> {
  const out = new Set<Quantity>();
  words.forEach((w, i) => {
    const q = QUANTIFIERS[w.word];
    // "not all", "not always": a negated universal says "some … not", which polarity reads.
    if (q && !(q === 'all' && words[i - 1]?.negator)) out.add(q);
  });
  return out;
}

/** A claim that generalises past its evidence: "all" for "some", "most" for "some", "only" where the source does not restrict. */
export function quantifierGap(claim: readonly Word[], evidence: readonly Word[]): Finding | null {
  const c = quantifiers(claim);
  const e = quantifiers(evidence);
  // "most" or "all" where the source says "few" or "a minority": the opposite proportion.
  // "a few" is "some", not "few".
  const fewWords = evidence.filter((w, i) => ((w.word === 'few' && evidence[i - 1]?.word !== 'a') || w.word === 'minority') && !w.negated);
  if ((c.has('most') || c.has('all')) && fewWords.length > 0 && !quantifiers(evidence).has('most')) {
    return { code: 'quantifier', effect: 'contradicts', note: `the claim says "${c.has('most') ? 'most' : 'all'}"; the source says "${fewWords[0]?.word}"` };
  }
  if (c.has('only') && !e.has('only')) {
    return { code: 'quantifier', effect: 'weakens', note: 'the claim says "only"; the source does not restrict it so' };
  }
  for (const q of ['all', 'most'] as const) {
    if (!c.has(q) || e.size === 0) continue;
    const strongest = Math.max(...[...e].map((x) => RANK[x]));
    if (strongest < RANK[q]) {
      const said = [...e].sort((a, b) => RANK[b] - RANK[a])[0] ?? 'some';
      return { code: 'quantifier', effect: 'weakens', note: `the claim says "${q}"; the source only says "${said}"` };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Direction and opposites

function neighbours(words: readonly Word[], at: number): [string | null, string | null] {
  let left: string | null = null;
  let right: string | null = null;
  for (let i = at - 1; i >= 0; i--) if (!(words[i] as Word).minor) { left = (words[i] as Word).stem; break; }
  for (let i = at + 1; i < words.length; i++) if (!(words[i] as Word).minor) { right = (words[i] as Word).stem; break; }
  return [left, right];
}

const DIRECTION_WORD = (w: Word): boolean => !w.minor || CLOSED_CLASS_WORDS.has(w.word);

/**
 * A word of the claim whose opposite stands in the same place in the evidence ("rose" where the
 * source has "fell", "before" for "after"): the same neighbours on at least one side.
 */
export function oppositeWords(claim: readonly Word[], evidence: readonly Word[], lexicon: Lexicon, around: readonly Word[] = []): { claim: Word; evidence: Word } | null {
  // A claim word the text around the quote has is no change of the quote's word.
  const evidenceStems = new Set([...evidence, ...around].map((w) => w.stem));
  for (let i = 0; i < claim.length; i++) {
    const c = claim[i] as Word;
    if (!DIRECTION_WORD(c) || c.name || evidenceStems.has(c.stem)) continue;
    if (evidence.some((e) => !e.minor && sameTerm(c, e, lexicon))) continue;
    const [cl, cr] = neighbours(claim, i);
    for (let j = 0; j < evidence.length; j++) {
      const e = evidence[j] as Word;
      if (!DIRECTION_WORD(e) || e.name || !lexicon.opposite(c.word, e.word)) continue;
      // The opposite must not be in the claim too ("before or after").
      if (claim.some((x) => x.stem === e.stem)) continue;
      const [el, er] = neighbours(evidence, j);
      if ((cl !== null && cl === el) || (cr !== null && cr === er)) return { claim: c, evidence: e };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Names and roles

/** Runs of name words of a text, counting capitalised sentence starts of names seen elsewhere. */
function nameRuns(words: readonly Word[], stems: ReadonlySet<string>): { stems: string[]; at: number; end: number; text: string }[] {
  const out: { stems: string[]; at: number; end: number; text: string }[] = [];
  let run: { stems: string[]; at: number; end: number; text: string } | null = null;
  words.forEach((w, i) => {
    const isName = w.capital && stems.has(w.stem) && !w.minor;
    if (isName) {
      if (run && run.end === i - 1) {
        run.stems.push(w.stem);
        run.end = i;
        run.text += ` ${w.word}`;
      } else {
        run = { stems: [w.stem], at: i, end: i, text: w.word };
        out.push(run);
      }
    }
  });
  return out;
}

const SYMMETRIC = new Set(['and', 'with', 'between', 'versus', 'vs', 'against', 'each', 'other', 'both']);
const GROUP_BREAK = new Set(['than', 'and', 'or', 'but', 'while', 'whereas', 'because', 'which', 'who', 'that']);

/**
 * The words the evidence also says, next to one of them (`at`) in its clause: the run before it
 * and the run after it, minor words skipped, stopping at a word the other text does not say or at
 * a conjunction.
 */
function around(words: readonly Word[], at: number, said: (w: Word) => boolean): { before: string[]; after: string[] } {
  const pivot = words[at] as Word;
  const run = (step: 1 | -1): string[] => {
    const out: string[] = [];
    for (let i = at + step; i >= 0 && i < words.length; i += step) {
      const w = words[i] as Word;
      if (w.sentence !== pivot.sentence || GROUP_BREAK.has(w.word) || w.negator) break;
      if (!w.minor && said(w)) out.push(w.stem);
    }
    return out;
  };
  return { before: run(-1), after: run(1) };
}

const meets = (a: readonly string[], b: readonly string[]): boolean => a.some((x) => b.includes(x));

/**
 * Who did what to whom: the words before and after a shared verb (or around "than") that the
 * evidence has the other way round, in the same voice ("The board reports to the chief executive"
 * for "The chief executive reports to the board"; not "Beta was acquired by Acme" for "Acme
 * acquired Beta", nor "A and B merged").
 */
export function swappedRoles(claim: readonly Word[], evidence: readonly Word[], matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  const saidInClaim = new Set(matches.filter((m) => m.where === 'core').map((m) => m.word));
  const evidenceSaid = new Set(matches.filter((m) => m.where === 'core').flatMap((m) => m.evidence));
  const stemsSaid = new Set([...saidInClaim].map((w) => w.stem).concat([...evidenceSaid].map((w) => w.stem)));
  const inClaim = (w: Word): boolean => saidInClaim.has(w) || stemsSaid.has(w.stem);
  const inEvidence = (w: Word): boolean => evidenceSaid.has(w) || stemsSaid.has(w.stem);
  for (const m of matches) {
    // The pivot is what the sentence asserts (a verb or an adjective), not a thing it names.
    if (m.where !== 'core' || (!lexicon.predicative(m.word.word) && lexicon !== NO_LEXICON)) continue;
    const ci = claim.indexOf(m.word);
    // A noun with a verb sense ("the train service") is no pivot where it stands.
    if (lexicon !== NO_LEXICON && !predicateAt(claim, ci, lexicon)) continue;
    if ([...claim.slice(0, ci), ...claim.slice(ci + 1)].some((w) => SYMMETRIC.has(w.word) && w.clause === m.word.clause)) continue;
    const c = around(claim, ci, inClaim);
    // The pivot is the same word on both sides: a synonym's place in its sentence tells nothing.
    let swapped: Finding | null = null;
    let consistent = false;
    for (const e of m.evidence.filter((x) => x.stem === m.word.stem)) {
      const ei = evidence.indexOf(e);
      if (passive(claim, ci) !== passive(evidence, ei)) continue;
      const v = around(evidence, ei, inEvidence);
      // One occurrence of the pivot with the claim's parties on the claim's sides settles it.
      if (meets(c.before, v.before) || meets(c.after, v.after)) {
        consistent = true;
        break;
      }
      const cb = c.before.filter((x) => !v.before.includes(x));
      const ca = c.after.filter((x) => !v.after.includes(x));
      if (!swapped && cb.length > 0 && ca.length > 0 && meets(cb, v.after) && meets(ca, v.before)) {
        swapped = { code: 'roles', effect: 'contradicts', note: `the claim has "${cb.join(' ')}" before "${m.word.word}" and "${ca.join(' ')}" after it; the source has them the other way round` };
      }
    }
    if (swapped && !consistent) return swapped;
  }
  // Comparisons: "A is cheaper than B" for "B is cheaper than A".
  const sides = (words: readonly Word[], said: (w: Word) => boolean): { left: Set<string>; right: Set<string> } | null => {
    const t = words.findIndex((w) => w.word === 'than');
    if (t < 0) return null;
    const clause = (words[t] as Word).clause;
    let start = t;
    while (start > 0 && !['and', 'but', 'while', 'which', 'who'].includes((words[start - 1] as Word).word) && (words[start - 1] as Word).clause >= clause - 1) start--;
    const left = new Set(words.slice(start, t).filter((w) => !w.minor && said(w)).map((w) => w.stem));
    const right = new Set(words.slice(t + 1).filter((w) => !w.minor && said(w) && w.clause === clause).map((w) => w.stem));
    return { left, right };
  };
  const cs = sides(claim, inClaim);
  const es = sides(evidence, inEvidence);
  if (cs && es) {
    const only = (a: Set<string>, b: Set<string>): string[] => [...a].filter((x) => !b.has(x));
    const cl = only(cs.left, cs.right);
    const cr = only(cs.right, cs.left);
    const el = only(es.left, es.right);
    const er = only(es.right, es.left);
    if (meets(cl, er) && meets(cr, el)) {
      return { code: 'roles', effect: 'contradicts', note: `the claim compares "${cl.join(' ')}" with "${cr.join(' ')}"; the source compares them the other way round` };
    }
  }
  return null;
}

/**
 * A word of the claim where the evidence has another of the same kind in the same place ("on
 * weekends" for "on weekdays", "the first floor" for "the second floor"): the claim says something
 * else than the source, which does not make it false, only unsupported.
 */
export function substitutedWord(claim: readonly Word[], evidence: readonly Word[], matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  const evidenceSaid = new Set(matches.flatMap((m) => m.evidence));
  const claimStems = new Set(claim.map((w) => w.stem));
  for (let i = 0; i < claim.length; i++) {
    const c = claim[i] as Word;
    const m = matches.find((x) => x.word === c);
    if (!m || m.where !== null) continue;
    const [cl, cr] = neighbours(claim, i);
    for (let j = 0; j < evidence.length; j++) {
      const e = evidence[j] as Word;
      if (e.minor || e.stem === c.stem) continue;
      const [el, er] = neighbours(evidence, j);
      if (!((cl !== null && cl === el) || (cr !== null && cr === er))) continue;
      // Another party in the same place ("ordered the buyer" for "ordered the seller"); the one the
      // source names there standing elsewhere in the claim means the parties were exchanged.
      if (!c.name && !e.name && party(c, lexicon) && party(e, lexicon) && !lexicon.covers(c.word, e.word)) {
        if (claimStems.has(e.stem)) return { code: 'roles', effect: 'contradicts', note: `the claim puts "${c.word}" where the source has "${e.word}", and "${e.word}" in another role` };
        return { code: 'substitution', effect: 'weakens', note: `the claim says "${c.word}" where the source says "${e.word}"` };
      }
      if (evidenceSaid.has(e) || claimStems.has(e.stem)) continue;
      // Verbs are paraphrased by their neighbours in WordNet ("gives" for "adds"): only names, nouns and adjectives count.
      if (c.name && e.name ? c.stem !== e.stem : !lexicon.verbal(c.word) && !lexicon.verbal(e.word) && lexicon.alternatives(c.word, e.word)) {
        return { code: 'substitution', effect: 'weakens', note: `the claim says "${c.word}" where the source says "${e.word}"` };
      }
    }
  }
  return null;
}

/**
 * A name of the claim the evidence never mentions, where the evidence's sentence names someone
 * else: the claim has put another party in (a name merely left implicit by the source is no finding).
 */
export function substitutedName(claim: readonly Word[], core: readonly Word[], context: readonly Word[]): Finding | null {
  const evidence = [...core, ...context];
  const claimNames = nameRuns(claim, new Set(claim.filter((w) => w.name).map((w) => w.stem)));
  const evidenceStems = new Set(evidence.map((w) => w.stem));
  const absent = claimNames.filter((r) => !r.stems.some((s) => evidenceStems.has(s)));
  if (absent.length === 0) return null;
  const claimStems = new Set(claim.map((w) => w.stem));
  const coreNames = nameRuns(core, new Set(core.filter((w) => w.name).map((w) => w.stem)));
  const others = coreNames.filter((r) => !r.stems.some((s) => claimStems.has(s)));
  if (others.length === 0) return null;
  return {
    code: 'name_absent',
    effect: 'weakens',
    note: `the claim names "${absent.map((r) => r.text).join('", "')}", which the evidence does not mention; the source names "${others.map((r) => r.text).join('", "')}"`,
  };
}

// ---------------------------------------------------------------------------------------------
// Added content

/**
 * A verb of the claim ("awarded", "removes", "dismisses") that the quote says in no form and by no
 * synonym: what the claim asserts happened is not what the quote says happened.
 */
const SPECIFIC_SENSES = 12;

/** -ing forms that English uses as prepositions ("anyone, including staff", "according to"): they name no event. A closed class. */
const PREPOSITIONAL_ING: ReadonlySet<string> = new Set(['including', 'regarding', 'concerning', 'considering', 'excluding', 'barring', 'pending', 'according', 'following']);

export function unsaidVerb(matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  // Vague verbs ("get", "give", "take", "hold") are how paraphrases say many things: only specific ones count.
  const verb = matches.find((m) => m.where !== 'core' && !m.word.name && !PREPOSITIONAL_ING.has(m.word.word) && lexicon.verbal(m.word.word) && lexicon.senseCount(m.word.word) <= SPECIFIC_SENSES);
  if (!verb) return null;
  return { code: 'unsaid_verb', effect: 'weakens', note: `the claim says "${verb.word.word}", which the quote does not say in any form or by a synonym` };
}

/**
 * Content the claim adds: a run of key words none of which the evidence says, long enough to be a
 * statement of its own (three words, or two with a verb or adjective among them).
 */
export function addedContent(matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  let run: Word[] = [];
  const runs: Word[][] = [];
  for (const m of matches) {
    // Words only the text around the quote says are not what the quote says.
    if (m.where !== 'core') run.push(m.word);
    else {
      if (run.length > 0) runs.push(run);
      run = [];
    }
  }
  if (run.length > 0) runs.push(run);
  // Three words, or two that both assert (verbs or adjectives, not adverbs in -ly).
  const asserts = (w: Word): boolean => !w.name && !/ly$/.test(w.word) && lexicon.predicative(w.word);
  const added = runs.find((r) => r.length >= 3 || (r.length === 2 && r.every(asserts)));
  if (!added) return null;
  return { code: 'added_content', effect: 'weakens', note: `the claim adds what the quote does not say: "${quoteWords(added)}"` };
}
