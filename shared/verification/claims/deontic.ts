/**
 * Deontic force: what a text obliges, forbids or permits, however it is worded ("must", "are
 * required to", "has to"; "must not", "may not", "not allowed", "banned", "forbidden"; "may",
 * "are allowed to"). A claim that words the same force differently ("Phones are banned" for
 * "Phones are not allowed") says what the source says: its modal word is said, and the
 * negation one side uses to say it is no denial. Plans are read alike ("will be removed",
 * "scheduled for removal").
 */
import type { Word } from './words.ts';

export type Force = 'obligation' | 'prohibition' | 'permission' | 'future';

// Closed class: the modal verbs and the adjectives and participles of English that carry force.
const FORCE: Record<string, Force> = {
  must: 'obligation', shall: 'obligation', required: 'obligation', require: 'obligation', requires: 'obligation',
  obliged: 'obligation', obligated: 'obligation', mandatory: 'obligation', compulsory: 'obligation', obligatory: 'obligation',
  banned: 'prohibition', ban: 'prohibition', bans: 'prohibition', forbidden: 'prohibition', forbid: 'prohibition', forbids: 'prohibition',
  prohibited: 'prohibition', prohibit: 'prohibition', prohibits: 'prohibition', barred: 'prohibition', disallowed: 'prohibition',
  may: 'permission', can: 'permission', allowed: 'permission', permitted: 'permission', entitled: 'permission', eligible: 'permission',
  // A right given: "are granted 25 days" is what "are entitled to 25 days" says.
  granted: 'permission', authorised: 'permission', authorized: 'permission', empowered: 'permission',
  // What is to happen: "will be removed" and "are scheduled for removal" say one thing.
  will: 'future', scheduled: 'future', planned: 'future', slated: 'future',
};
const NEED = new Set(['has', 'have', 'had', 'need', 'needs']);

/** The force a word carries where it stands ("must" before "not" forbids), or null. */
export function forceAt(words: readonly Word[], i: number): Force | null {
  const w = words[i] as Word;
  let f: Force | null = FORCE[w.word] ?? null;
  if (!f && NEED.has(w.word) && (words[i + 1]?.word === 'to' || (w.word.startsWith('need') && words[i + 1]?.word === 'not'))) f = 'obligation';
  if (w.word === 'cannot') return 'prohibition';
  if (!f) return null;
  const negated = w.negated || !!words[i + 1]?.negator;
  if (!negated) return f;
  // "will not" is a denial, which the polarity check reads.
  if (f === 'future') return null;
  // "must not" and "not allowed" forbid; "not forbidden" permits; "need not" permits.
  if (f === 'prohibition') return 'permission';
  return f === 'obligation' && NEED.has(w.word) ? 'permission' : 'prohibition';
}

/** Every force a text carries. */
export function forces(words: readonly Word[]): Set<Force> {
  const out = new Set<Force>();
  words.forEach((_, i) => {
    const f = forceAt(words, i);
    if (f) out.add(f);
  });
  return out;
}

/** The claim's words that carry a force the evidence carries too, however worded: they count as said. */
export function sameForceWords(claim: readonly Word[], evidence: readonly Word[]): Set<Word> {
  const said = forces(evidence);
  const out = new Set<Word>();
  claim.forEach((w, i) => {
    const f = forceAt(claim, i);
    if (f && said.has(f)) out.add(w);
  });
  return out;
}

/** Whether both texts forbid: a polarity difference is then how each words the prohibition. */
export function bothForbid(claim: readonly Word[], evidence: readonly Word[]): boolean {
  return forces(claim).has('prohibition') && forces(evidence).has('prohibition');
}
