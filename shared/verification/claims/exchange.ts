/**
 * Role checks that read argument order and clause membership rather than one pivot verb (see
 * swappedRoles in checks.ts): two participants exchanged across a relation both texts share
 * ("the city donated its maps to Calloway" for "Calloway donated his maps to the city"), and
 * attributes exchanged between clauses ("highest in A and lowest in B" for "highest in B and
 * lowest in A"). Each finds a contradiction only where the source states the other arrangement.
 */
import type { Lexicon } from '../lexicon.ts';
import type { TermMatch } from './overlap.ts';
import type { Finding } from './checks.ts';
import { predicateAt } from './overclaim.ts';
import type { Word } from './words.ts';

// Prepositions that relate two participants as verbs do ("replaced A with B", "moved from A to B").
const RELATION_PREPOSITIONS = new Set(['to', 'from', 'with', 'than', 'into', 'onto', 'against', 'over', 'for']);
// Connectives that order two events ("A after B"): a relation whatever stands before them.
const TEMPORAL = new Set(['after', 'before']);
// Words that make two participants interchangeable: "A and B merged", "between A and B".
const SYMMETRIC = new Set(['and', 'between', 'both', 'each', 'other', 'versus', 'vs', 'together', 'mutually']);
const BE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being']);

/** Each word's first place in `words` (as indexOf finds it), worked out once per list: the role checks ask it for every pair. */
const wordIndexes = new WeakMap<readonly Word[], Map<Word, number>>();
function indexOfWords(words: readonly Word[]): Map<Word, number> {
  let index = wordIndexes.get(words);
  if (!index) {
    index = new Map();
    for (let i = 0; i < words.length; i++) if (!index.has(words[i] as Word)) index.set(words[i] as Word, i);
    wordIndexes.set(words, index);
  }
  return index;
}

/**
 * Where the quote's sentence says a claim word (by the same stem when it can): the places, or
 * null when it says it nowhere. The quote may be given twice (the source's sentence and the
 * quoter's spelling), so a word may have one place per copy.
 */
function placesOf(m: TermMatch | undefined, evidence: readonly Word[]): number[] | null {
  if (!m || m.where !== 'core') return null;
  const same = m.evidence.filter((e) => e.stem === m.word.stem);
  const index = indexOfWords(evidence);
  const at = [...new Set((same.length > 0 ? same : m.evidence).map((e) => index.get(e) ?? -1).filter((i) => i >= 0))];
  return at.length > 0 ? at : null;
}

/** The first place, when every place of the word is in a different sentence (one per copy of the quote). */
function placeOf(m: TermMatch | undefined, evidence: readonly Word[]): number | null {
  const at = placesOf(m, evidence);
  if (!at) return null;
  const sentences = new Set(at.map((i) => (evidence[i] as Word).sentence));
  return sentences.size === at.length ? (at[0] as number) : null;
}

/** Whether the verb at `at` is passive: a form of "be" just before it, or "by" just after ("founded in 1952 by"). */
export function passive(words: readonly Word[], at: number): boolean {
  const before = words.slice(Math.max(0, at - 2), at).some((w) => BE.has(w.word));
  const after = words.slice(at + 1, at + 4).some((w) => w.word === 'by');
  return (before && /(?:ed|en)$/.test((words[at] as Word).word)) || after;
}

/**
 * Whether the preposition at `at` relates two participants: not after a verb that makes its sides
 * interchangeable ("merged with", "competed against"), not "up to" (a bound), not "to" before a verb.
 */
function relating(words: readonly Word[], at: number, lexicon: Lexicon): boolean {
  if (TEMPORAL.has((words[at] as Word).word)) return true;
  const before = words[at - 1]?.word ?? '';
  const after = words[at + 1]?.word ?? '';
  // A preposition after a verb or predicate ("pay for", "free for", "merged with") is the verb's own, not a link of two participants.
  const predicate = at > 0 && !(words[at - 1] as Word).minor && predicateAt(words, at - 1, lexicon);
  return !predicate && !lexicon.verbal(before) && before !== 'up' && !((words[at] as Word).word === 'to' && lexicon.verbal(after));
}

// Words after which a participle describes a noun ("of paid leave", "the revised plan"): no relation.
const DETERMINERS = new Set(['the', 'a', 'an', 'of', 'its', 'their', 'his', 'her', 'our', 'this', 'these', 'those', 'no', 'any', 'some', 'all', 'each', 'every']);
const ARTICLES = new Set(['the', 'a', 'an', 'any', 'its', 'their', 'his', 'her', 'our', 'this', 'these', 'those']);
const attributive = (words: readonly Word[], at: number): boolean => DETERMINERS.has(words[at - 1]?.word ?? '');

/** The small words that link two words (determiners aside): "after", "for", "of", or none. */
function linkWords(words: readonly Word[], from: number, to: number): string {
  return words.slice(from + 1, to).filter((w) => w.minor && !DETERMINERS.has(w.word)).map((w) => w.word).join(' ');
}

/**
 * The same verb in the same frame: the same stem, written as a verb on both sides, in the same
 * voice, and with the same preposition (or none) before its next argument ("be given to children"
 * and "children be given aspirin" promote different objects).
 */
function sameVerb(claim: readonly Word[], ci: number, evidence: readonly Word[], ei: number, lexicon: Lexicon): boolean {
  const c = claim[ci] as Word;
  const e = evidence[ei] as Word;
  if (e.minor || e.stem !== c.stem || !lexicon.verbal(e.word) || attributive(evidence, ei)) return false;
  if (passive(claim, ci) !== passive(evidence, ei)) return false;
  const frame = (words: readonly Word[], at: number): string => {
    for (let i = at + 1; i < words.length; i++) {
      const w = words[i] as Word;
      if (!w.minor) return '';
      if (RELATION_PREPOSITIONS.has(w.word) || w.word === 'by') return w.word;
    }
    return '';
  };
  return frame(claim, ci) === frame(evidence, ei);
}

/** Whether two words at `a` < `b` are joined as equals ("A and B", "between A and B"): a symmetric word between them and no verb. */
function joined(words: readonly Word[], a: number, b: number, lexicon: Lexicon): boolean {
  const between = words.slice(a + 1, b);
  return between.some((w) => SYMMETRIC.has(w.word)) && !between.some((w) => !w.minor && lexicon.verbal(w.word));
}

/**
 * Two words that could fill each other's place: arguments (names, parties, things and their
 * kinds), not what is done or how (verbs as written, adverbs).
 */
function exchangeable(a: Word, b: Word, lexicon: Lexicon): boolean {
  const argument = (w: Word): boolean => w.name || lexicon.agent(w.word) || (!lexicon.verbal(w.word) && !/ly$/.test(w.word));
  return argument(a) && argument(b);
}

/**
 * Two participants of the claim on either side of a relation (a verb or a relational preposition)
 * that the source puts on the other sides of the same relation, in the same voice.
 */
export function exchangedParticipants(claim: readonly Word[], evidence: readonly Word[], matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  const byWord = new Map(matches.map((m) => [m.word, m]));
  const places = claim.map((w) => placesOf(byWord.get(w), evidence));
  // Relation words of the claim and where the source says them (same stem: a synonym's place says nothing).
  const relations: { ci: number; ei: number[] }[] = [];
  claim.forEach((w, ci) => {
    const prep = RELATION_PREPOSITIONS.has(w.word) || TEMPORAL.has(w.word);
    if (!prep && (w.minor || w.name || !lexicon.verbal(w.word) || attributive(claim, ci))) return;
    if (prep && !relating(claim, ci, lexicon)) return;
    const ei = evidence
      .map((e, i) => ({ e, i }))
      .filter(({ e, i }) => (prep ? e.word === w.word && relating(evidence, i, lexicon) : sameVerb(claim, ci, evidence, i, lexicon)))
      .map(({ i }) => i);
    if (ei.length > 0) relations.push({ ci, ei });
  });
  const sentence = (i: number): number => (evidence[i] as Word).sentence;
  for (let a = 0; a < claim.length; a++) {
    const wa = claim[a] as Word;
    const pas = places[a];
    if (!pas || wa.minor) continue;
    for (let b = a + 1; b < claim.length; b++) {
      const wb = claim[b] as Word;
      const pbs = places[b];
      if (!pbs || wb.minor || wa.sentence !== wb.sentence || wa.stem === wb.stem) continue;
      if (joined(claim, a, b, lexicon)) continue;
      // The source must never have them in the claim's order in a sentence.
      if (pas.some((pa) => pbs.some((pb) => pa < pb && sentence(pa) === sentence(pb)))) continue;
      for (const rel of relations) {
        if (rel.ci <= a || rel.ci >= b) continue;
        const hit = rel.ei.some((er) =>
          pbs.some((pb) => pas.some((pa) => pb < er && er < pa && sentence(pb) === sentence(pa) && sentence(er) === sentence(pa) && !joined(evidence, pb, pa, lexicon))),
        );
        if (!hit || !exchangeable(wa, wb, lexicon)) continue;
        const via = (claim[rel.ci] as Word).word;
        return { code: 'roles', effect: 'contradicts', note: `the claim has "${wa.word}" before "${via}" and "${wb.word}" after it; the source has them the other way round` };
      }
    }
  }
  return null;
}

/**
 * What the claim says together in one clause that the source says in two, each with the other's
 * partner: two pairs exchanged ("the opposition proposed …, and the mayor voted against" for "the
 * mayor proposed …, and the opposition voted against"; "highest in A and lowest in B" for
 * "highest in B and lowest in A").
 */
export function exchangedAttributes(claim: readonly Word[], evidence: readonly Word[], matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  const byWord = new Map(matches.map((m) => [m.word, m]));
  const placed = claim
    .map((w) => ({ w, at: placeOf(byWord.get(w), evidence) }))
    .filter((x): x is { w: Word; at: number } => x.at !== null && !x.w.minor);
  const clauseOf = (at: number): number => (evidence[at] as Word).clause;
  for (const x of placed) {
    for (const y of placed) {
      if (x.w.clause !== y.w.clause || x.w.stem === y.w.stem || clauseOf(x.at) === clauseOf(y.at)) continue;
      // The source says y with the opposite of x ("lowest downstream" where it has "highest
      // downstream … and lowest upstream"): y must follow the opposite as its complement, not
      // precede it as a subject both clauses share ("the wing was closed … and reopened").
      const opposite = evidence.findIndex((e, j) => e.clause === clauseOf(y.at) && j < y.at && !e.minor && !e.negated && e.stem !== x.w.stem && lexicon.opposite(x.w.word, e.word));
      const o = evidence[opposite];
      // In the same frame on both sides: "lowest downstream" / "highest downstream", not "reopened after a renovation" / "closed for renovation".
      const xi = claim.indexOf(x.w);
      const yi = claim.indexOf(y.w);
      // A negated attribute ("does not open … Sundays") says what its opposite says ("closed on Sundays").
      if (o && !x.w.negated && xi < yi && linkWords(claim, xi, yi) === linkWords(evidence, opposite, y.at) && !claim.some((c) => c.stem === o.stem || lexicon.covers(c.word, o.word))) {
        return { code: 'roles', effect: 'contradicts', note: `the claim says "${x.w.word}" of "${y.w.word}"; the source says "${o.word}" of it` };
      }
      // Two pairs exchanged: u, v together in another clause of the claim, with E(u) = E(y) and E(v) = E(x).
      for (const u of placed) {
        if (u.w.clause === x.w.clause || clauseOf(u.at) !== clauseOf(y.at) || u.w.stem === y.w.stem || !exchangeable(x.w, u.w, lexicon)) continue;
        const v = placed.find((p) => p.w.clause === u.w.clause && p !== u && clauseOf(p.at) === clauseOf(x.at) && p.w.stem !== x.w.stem);
        if (v) {
          return {
            code: 'roles',
            effect: 'contradicts',
            note: `the claim says "${x.w.word}" with "${y.w.word}" and "${u.w.word}" with "${v.w.word}"; the source pairs "${x.w.word}" with "${v.w.word}" and "${u.w.word}" with "${y.w.word}"`,
          };
        }
      }
    }
  }
  return null;
}

// "Both parties", "either party", "each side": the claim speaks of the parties together.
const QUANTIFIED = new Set(['both', 'either', 'each', 'any', 'all', 'every']);

/** A party: a name, a person or body of people, or a word made a party by its ending ("licensor" from "license"). */
export function party(w: Word, lexicon: Lexicon): boolean {
  if (w.name || lexicon.agent(w.word)) return true;
  if (lexicon.senseCount(w.word) > 0) return false;
  const m = w.word.match(/^(.{3,}?)(?:ee|or|er)s?$/);
  return !!m && [`${m[1]}`, `${m[1]}e`].some((base) => lexicon.verbal(base) || lexicon.predicative(base));
}

/**
 * What the claim says of one party that the source says of another: most of the claim's clause
 * (two words or more) sits in a clause of the source that names a different party where the
 * claim has its own ("the tenant is responsible for structural repairs" where the source has
 * "the landlord is responsible for structural repairs, while the tenant …"; "the licensee
 * retains the rights" for "the licensor retains the rights").
 */
export function reassignedRole(claim: readonly Word[], evidence: readonly Word[], matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  const byWord = new Map(matches.map((m) => [m.word, m]));
  const saidStems = new Set(matches.filter((m) => m.where !== null).flatMap((m) => [m.word.stem, ...m.evidence.map((e) => e.stem)]));
  const claimStems = new Set(claim.map((w) => w.stem));
  for (let i = 0; i < claim.length; i++) {
    const x = claim[i] as Word;
    // A party the source never mentions is a substitution (substitutedWord), not a role moved.
    if (x.minor || !party(x, lexicon) || !byWord.get(x)?.where) continue;
    if (claim.slice(Math.max(0, i - 3), i).some((w) => QUANTIFIED.has(w.word))) continue;
    // A party named only as a modifier ("a neighbour of the patient", "the patient's card") plays no role of its own.
    const head = claim.slice(0, i).reverse().find((w) => !ARTICLES.has(w.word));
    if (head?.word === 'of' || /'s$/.test(x.word)) continue;
    const xAt = placeOf(byWord.get(x), evidence);
    // The rest of the claim's clause that the source says in one place.
    const rest = claim
      .map((w) => ({ w, at: w === x || w.minor || w.clause !== x.clause || party(w, lexicon) ? null : placeOf(byWord.get(w), evidence) }))
      .filter((r): r is { w: Word; at: number } => r.at !== null);
    const clauses = new Set(rest.map((r) => (evidence[r.at] as Word).clause));
    if (rest.length < 2 || clauses.size !== 1) continue;
    const clause = [...clauses][0] as number;
    if (xAt !== null && (evidence[xAt] as Word).clause === clause) continue;
    // The party the source names there, on the side of the claim's words the claim's party is on.
    const before = rest.every((r) => claim.indexOf(r.w) > i);
    const firstAt = Math.min(...rest.map((r) => r.at));
    const lastAt = Math.max(...rest.map((r) => r.at));
    const other = evidence.find((e, j) => e.clause === clause && !e.minor && party(e, lexicon) && !claimStems.has(e.stem) && !saidStems.has(e.stem) && (before ? j < firstAt : j > lastAt));
    if (other) {
      return { code: 'roles', effect: 'contradicts', note: `the claim says of "${x.word}" what the source says of "${other.word}"` };
    }
  }
  return null;
}
