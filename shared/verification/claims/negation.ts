/**
 * What a negation is about: the first content word it governs ("do not pay for admission" denies
 * paying, not admission; "no link between A and B" denies a link). A polarity clash contradicts
 * only when that word is one both texts say; when the claim or the source denies something the
 * other does not mention, the claim is weak, not contradicted. Two negations in one clause
 * ("may not enter … without giving notice") state a condition, not a denial.
 */
import type { Lexicon } from '../lexicon.ts';
import type { TermMatch } from './overlap.ts';
import type { Finding } from './checks.ts';
import type { Word } from './words.ts';

const DOUBLE_REACH = 8;

/** Clauses with two negations close together: "not … without", "never … unless not". */
function doublyNegated(words: readonly Word[]): Set<number> {
  const out = new Set<number>();
  let last = -1;
  words.forEach((w, i) => {
    if (!w.negator) return;
    if (last >= 0 && i - last <= DOUBLE_REACH && (words[last] as Word).clause === w.clause) out.add(w.clause);
    last = i;
  });
  return out;
}

/**
 * The words negations are about: the first content word after each cue, the verb after a
 * catenative ("not need to migrate", "not able to pay"), and each further item of a list the
 * negation reaches ("not copy, sell or lend").
 */
export function negationFocus(words: readonly Word[]): Set<Word> {
  const out = new Set<Word>();
  const cancelled = doublyNegated(words);
  words.forEach((w, i) => {
    // A word negated by its own prefix is what its negation is about.
    if (w.affixal) out.add(w);
    if (!w.negator || cancelled.has(w.clause)) return;
    let j = words.findIndex((x, k) => k > i && !x.minor && !/ly$/.test(x.word));
    if (j < 0 || !(words[j] as Word).negated) return;
    out.add(words[j] as Word);
    if (words[j + 1]?.word === 'to' && words[j + 2] && !(words[j + 2] as Word).minor) out.add(words[j + 2] as Word);
    // List items: a content word right after a comma or "or" / "nor" / "and", still under the negation.
    for (j = j + 1; j < words.length && (words[j] as Word).negated; j++) {
      const x = words[j] as Word;
      const prev = words[j - 1] as Word;
      if (!x.minor && (['or', 'nor', 'and'].includes(prev.word) || x.start > prev.start + prev.word.length + 1)) out.add(x);
    }
  });
  return out;
}

/** The content words either side of a word, as stems. */
function sides(words: readonly Word[], w: Word): string[] {
  const i = words.indexOf(w);
  const left = words.slice(0, i).reverse().find((x) => !x.minor);
  const right = words.slice(i + 1).find((x) => !x.minor);
  return [left?.stem, right?.stem].filter((x): x is string => !!x);
}

/**
 * Whether the other text has, in the denied word's place, a word of the same sense the term
 * matching missed ("rise" for "not increase": a word of one of their senses, either way round).
 */
function saidOtherwise(focus: Set<Word>, side: readonly Word[], other: readonly Word[], unsaid: ReadonlySet<Word>, lexicon: Lexicon): boolean {
  return [...focus].some((f) => {
    const around = sides(side, f);
    return other.some((o) => unsaid.has(o) && (lexicon.covers(o.word, f.word) || lexicon.covers(f.word, o.word)) && sides(other, o).some((s) => around.includes(s)));
  });
}

/**
 * A polarity clash read by what each negation is about: `contradicts` when the denied word is one
 * both say, `weakens` when only one side says it, null when the clash is a double negation's.
 */
export function judgeClash(
  clash: { claimNegated: Word[]; evidenceNegated: Word[] },
  claim: readonly Word[],
  evidence: readonly Word[],
  matches: readonly TermMatch[],
  note: string,
  lexicon: Lexicon,
): Finding | null {
  const byWord = new Map(matches.map((m) => [m.word, m]));
  const unsaidClaim = new Set(matches.filter((m) => m.where === null).map((m) => m.word));
  const saidEvidence = new Set(matches.flatMap((m) => m.evidence));
  const unsaidEvidence = new Set(evidence.filter((e) => !e.minor && !saidEvidence.has(e)));
  if (clash.claimNegated.length > 0) {
    const focus = negationFocus(claim);
    if (focus.size === 0) return null;
    // "does not open on holidays" where the source has "is closed on holidays": the opposite word,
    // in a clause with another word both say, is the same statement turned twice.
    const place = (e: Word): boolean => matches.some((m) => m.where === 'core' && !focus.has(m.word) && m.evidence.some((x) => x.clause === e.clause));
    if ([...focus].some((f) => evidence.some((e) => !e.minor && !e.negated && lexicon.opposite(f.word, e.word) && place(e)))) return null;
    const on = clash.claimNegated.some((w) => focus.has(w)) || saidOtherwise(focus, claim, evidence, unsaidEvidence, lexicon);
    return { code: 'polarity', effect: on ? 'contradicts' : 'weakens', note: on ? note : `the claim denies "${[...focus].map((w) => w.word).join('", "')}", which the source does not say either way` };
  }
  const focus = negationFocus(evidence);
  if (focus.size === 0) return null;
  const on = clash.evidenceNegated.some((w) => byWord.get(w)?.evidence.some((e) => focus.has(e))) || saidOtherwise(focus, evidence, claim, unsaidClaim, lexicon);
  return { code: 'polarity', effect: on ? 'contradicts' : 'weakens', note: on ? note : `the source denies "${[...new Set([...focus].map((w) => w.word))].join('", "')}", which the claim does not say either way` };
}

/**
 * A claim that denies outright what the source denies only under a condition ("may never enter"
 * for "may not enter … without giving notice"): weak, the source allows it when the condition is
 * met. A claim that keeps the condition but drops the denial contradicts.
 */
export function absoluteForConditional(claim: readonly Word[], evidence: readonly Word[], matches: readonly TermMatch[]): Finding | null {
  const conditional = doublyNegated(evidence);
  if (conditional.size === 0) return null;
  // The claim keeps the condition ("without a parent") but drops the source's other negation
  // ("cannot buy … without" → "can buy … without"): it permits what the source forbids.
  const claimCues = new Set(claim.filter((w) => w.negator).map((w) => w.word));
  const cues = evidence.filter((e) => e.negator && conditional.has(e.clause));
  if (cues.some((e) => claimCues.has(e.word))) {
    const dropped = cues.find((e) => !claimCues.has(e.word));
    const target = dropped ? evidence.slice(evidence.indexOf(dropped) + 1).find((x) => !x.minor) : undefined;
    if (dropped && target && matches.some((m) => m.where === 'core' && !m.word.negated && m.evidence.includes(target))) {
      return { code: 'polarity', effect: 'contradicts', note: `the source says "${dropped.word} ${target.word}" unless its condition is met; the claim drops the "${dropped.word}"` };
    }
    return null;
  }
  const focus = negationFocus(claim);
  const byWord = new Map(matches.map((m) => [m.word, m]));
  const hit = [...focus].find((w) => byWord.get(w)?.evidence.some((e) => conditional.has(e.clause)));
  if (!hit) return null;
  return { code: 'polarity', effect: 'weakens', note: `the claim denies "${hit.word}" outright; the source denies it only under a condition` };
}

/**
 * A denial of a broader thing than the source denies ("must not be given any painkillers" for
 * "must not be given aspirin"): a negation does not carry over from a narrower word to a broader one.
 */
export function broaderDenial(matches: readonly TermMatch[], lexicon: Lexicon): Finding | null {
  for (const m of matches) {
    if (m.where !== 'core' || !m.word.negated || m.evidence.some((e) => e.stem === m.word.stem)) continue;
    const narrower = m.evidence.find((e) => lexicon.covers(m.word.word, e.word) && !lexicon.covers(e.word, m.word.word));
    if (narrower && m.evidence.every((e) => !lexicon.covers(e.word, m.word.word))) {
      return { code: 'quantifier', effect: 'weakens', note: `the claim denies it of "${m.word.word}" in general; the source only of "${narrower.word}"` };
    }
  }
  return null;
}
