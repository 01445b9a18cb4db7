/**
 * The deterministic checks of a claim against its evidence (DESIGN.md §5): each reads one kind of
 * meaning (polarity, modality, quantifiers, direction, roles, names, added content) and says in
 * words what it saw. A check finds a contradiction only where the evidence says the opposite of
 * the same thing; anything less makes the claim weak, never contradicted.
 */
import type { Lexicon } from '../lexicon.ts';
import { CLOSED_CLASS_WORDS } from '../lexicon.ts';
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
  const claimNegated: Word[] = [];
  const evidenceNegated: Word[] = [];
  for (const m of matches) {
    if (m.where !== 'core') continue;
    if (m.evidence.some((e) => e.negated === m.word.negated)) continue;
    (m.word.negated ? claimNegated : evidenceNegated).push(m.word);
  }
  return claimNegated.length + evidenceNegated.length > 0 ? { claimNegated, evidenceNegated } : null;
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
export function oppositeWords(claim: readonly Word[], evidence: readonly Word[], lexicon: Lexicon): { claim: Word; evidence: Word } | null {
  const evidenceStems = new Set(evidence.map((w) => w.stem));
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

/** Stems of the words written as names in either text (capitalised inside a sentence). */
function nameStems(a: readonly Word[], b: readonly Word[]): Set<string> {
  return new Set([...a, ...b].filter((w) => w.name).map((w) => w.stem));
}

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

const SYMMETRIC = new Set(['and', 'with', 'between', 'versus', 'vs', 'against', 'each', 'other']);

/**
 * Who did what to whom: two names of the claim that the evidence's sentence has in the other
 * order around the same word, in the same voice ("Acme acquired Beta" for "Beta acquired Acme";
 * not "Beta was acquired by Acme", nor "Acme and Beta merged").
 */
export function swappedRoles(claim: readonly Word[], evidence: readonly Word[], lexicon: Lexicon): Finding | null {
  const stems = nameStems(claim, evidence);
  const cRuns = nameRuns(claim, stems);
  const eRuns = nameRuns(evidence, stems);
  const find = (stemsOf: string[]) => eRuns.find((r) => r.stems.some((s) => stemsOf.includes(s)));
  for (let i = 0; i < cRuns.length; i++) {
    for (let j = i + 1; j < cRuns.length; j++) {
      const a = cRuns[i]!;
      const b = cRuns[j]!;
      const ea = find(a.stems);
      const eb = find(b.stems);
      if (!ea || !eb || ea === eb || eb.end >= ea.at) continue;
      const cBetween = claim.slice(a.end + 1, b.at);
      const eBetween = evidence.slice(eb.end + 1, ea.at);
      if ([...cBetween, ...eBetween].some((w) => SYMMETRIC.has(w.word))) continue;
      const passive = (ws: readonly Word[]): boolean => ws.some((w) => w.word === 'by');
      if (passive(cBetween) !== passive(eBetween)) continue;
      const relation = cBetween.filter((w) => !w.minor).find((c) => eBetween.some((e) => !e.minor && sameTerm(c, e, lexicon)));
      if (!relation) continue;
      return {
        code: 'roles',
        effect: 'contradicts',
        note: `the claim has "${a.text}" ${relation.word} "${b.text}"; the source has it the other way round: "${eb.text}" ${relation.word} "${ea.text}"`,
      };
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
  const added = runs.find((r) => r.length >= 3 || (r.length === 2 && r.some((w) => !w.name && lexicon.predicative(w.word))));
  if (!added) return null;
  return { code: 'added_content', effect: 'weakens', note: `the claim adds what the quote does not say: "${quoteWords(added)}"` };
}
