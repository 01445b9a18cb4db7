/**
 * The meaning checks of a claim against its evidence, combined: which key words the evidence says
 * (stems and senses, so a faithful paraphrase holds), then polarity, direction, roles, modality,
 * quantifiers, names and added content. Numbers and dates are checked before, by verdict.ts.
 */
import { normalise } from '../../anchoring/normalise.ts';
import { NO_LEXICON, type Lexicon } from '../lexicon.ts';
import {
  addedContent,
  firstNegator,
  modalityGap,
  oppositeWords,
  polarityClash,
  polarityNote,
  quantifierGap,
  substitutedName,
  substitutedWord,
  unsaidVerb,
  swappedRoles,
  type Finding,
} from './checks.ts';
import { exchangedAttributes, exchangedParticipants, reassignedRole } from './exchange.ts';
import { bothForbid, sameForceWords } from './deontic.ts';
import { absoluteForConditional, broaderDenial, judgeClash } from './negation.ts';
import { unmentionedThing, unsaidAdverb, unstatedCause } from './overclaim.ts';
import { matchTerms, overlapOf, type TermMatch } from './overlap.ts';
import { readWords, type Word } from './words.ts';
import { readBounds, sameBound } from './bounds.ts';
import { readAffixalNegation, readPrivation } from './affixes.ts';

/** Share of key words the evidence must say for a claim to be supported. */
export const SUPPORT_OVERLAP = 0.6;

export interface SupportInput {
  claim: string;
  /** The quote's own sentence(s) in the source (or the quote alone). */
  core: string;
  /** The text around it. */
  context: string;
  lexicon?: Lexicon | undefined;
}

export interface SupportJudgement {
  verdict: 'supported' | 'weak' | 'contradicted';
  findings: Finding[];
  /** Share of the claim's key words the evidence says; null when the claim has none. */
  overlap: number | null;
  matches: TermMatch[];
}

/** ".", "!" or "?": where a sentence of the context ends. */
const sentenceEnd = (code: number): boolean => code === 0x2e || code === 0x21 || code === 0x3f;

/**
 * The sentence(s) of `context` that hold `quote`, or the quote itself when the context does not
 * hold it: a claim paraphrases the quote's sentence, not the paragraph around it.
 */
export function quoteSentences(quote: string, context: string): string {
  const q = normalise(quote).replace(/\s+/g, ' ').trim();
  if (!q || !context) return quote;
  const flat = context.replace(/\s+/g, ' ');
  const at = normalise(flat).indexOf(q);
  if (at < 0) return quote;
  // normalise keeps lengths for Latin text; where it does not, the quote alone is the core.
  if (normalise(flat).length !== flat.length) return quote;
  let a = at;
  while (a > 0 && !sentenceEnd(flat.charCodeAt(a - 1))) a--;
  let b = at + q.length;
  while (b < flat.length && !sentenceEnd(flat.charCodeAt(b))) b++;
  return flat.slice(a, Math.min(flat.length, b + 1)).trim();
}

export function judgeSupport(input: SupportInput): SupportJudgement {
  const lexicon = input.lexicon ?? NO_LEXICON;
  // Bounds on numbers ("no more than 4 grams", "must not exceed 5 days"): their negations deny nothing.
  const claimBounds = readBounds(input.claim);
  const coreBounds = readBounds(input.core);
  const claimWords = readPrivation(readAffixalNegation(readWords(input.claim, claimBounds), lexicon), lexicon);
  const coreWords = readPrivation(readAffixalNegation(readWords(input.core, coreBounds), lexicon), lexicon);
  const contextWords = readAffixalNegation(readWords(input.context, readBounds(input.context)), lexicon);
  // A modal word of the claim whose force the quote carries in other words ("required" for "must",
  // "banned" for "not allowed") is said, and so is a word of a bound the quote states in its own
  // words ("exceed" of "not exceed 4 grams" for "no more than 4 grams").
  const forceSaid = sameForceWords(claimWords, coreWords);
  const boundSaid = (w: Word): boolean => claimBounds.some((b) => w.start >= b.start && w.start < b.end && sameBound(b, coreBounds) !== undefined);
  const matches = matchTerms(claimWords, coreWords, contextWords, lexicon).map((m): TermMatch =>
    m.where !== 'core' && (forceSaid.has(m.word) || boundSaid(m.word)) ? { ...m, where: 'core', evidence: [] } : m,
  );
  let overlap = overlapOf(matches);
  const findings: Finding[] = [];
  const supportedByWords = (o: number | null): boolean => o !== null && o >= SUPPORT_OVERLAP - 1e-9;

  // A claim of several sentences is compared, for meaning, by the one that says most of the quote:
  // its other sentences are other statements ("… no longer need …" elsewhere is no denial of "need").
  const bySentence = new Map<number, number>();
  for (const m of matches) if (m.where === 'core') bySentence.set(m.word.sentence, (bySentence.get(m.word.sentence) ?? 0) + 1);
  const focus = [...bySentence.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
  const focusWords = claimWords.filter((w) => w.sentence === focus);
  const focusMatches = matches.filter((m) => m.word.sentence === focus);

  // Both forbid ("banned" / "not allowed"): a negation on one side only is how it words the ban.
  const forbid = bothForbid(focusWords, coreWords);
  const clash = forbid ? null : polarityClash(focusMatches);
  const opposite = oppositeWords(focusWords, coreWords, lexicon, contextWords);
  if (opposite) {
    // The opposite word says the same thing with the other sign: it counts as said for the overlap.
    const i = matches.findIndex((m) => m.word === opposite.claim);
    if (i >= 0 && matches[i]?.where === null) overlap = overlapOf(matches.map((m, k) => (k === i ? { ...m, where: 'core' as const } : m)));
  }
  if (opposite && (clash || forbid)) {
    // Two turns make the same statement: "banned" for "not allowed", "failed to rise" for "fell".
  } else if (opposite) {
    findings.push({
      code: 'direction',
      effect: supportedByWords(overlap) ? 'contradicts' : 'weakens',
      note: `the claim says "${opposite.claim.word}"; the source says the opposite, "${opposite.evidence.word}"`,
    });
  } else if (clash) {
    // Read by what each negation is about: a denial of something only one side says weakens.
    const judged = judgeClash(clash, focusWords, coreWords, focusMatches, polarityNote(clash, { claim: firstNegator(claimWords), evidence: firstNegator(coreWords) }), lexicon);
    if (judged) findings.push(supportedByWords(overlap) ? judged : { ...judged, effect: 'weakens' });
  }
  const roles =
    swappedRoles(focusWords, coreWords, focusMatches, lexicon) ??
    exchangedParticipants(focusWords, coreWords, focusMatches, lexicon) ??
    exchangedAttributes(focusWords, coreWords, focusMatches, lexicon) ??
    reassignedRole(focusWords, coreWords, focusMatches, lexicon);
  if (roles && opposite) {
    // Both turned round ("older … more likely than younger" for "younger … less likely than older"): the same statement.
    findings.splice(findings.findIndex((f) => f.code === 'direction'), 1);
  } else if (roles) findings.push(supportedByWords(overlap) ? roles : { ...roles, effect: 'weakens' });
  for (const f of [
    modalityGap(focusWords, coreWords),
    quantifierGap(focusWords, coreWords),
    substitutedName(claimWords, coreWords, contextWords),
    opposite || roles ? null : substitutedWord(focusWords, coreWords, focusMatches, lexicon),
    // Added words matter where most words are said: otherwise the low overlap says it all.
    supportedByWords(overlap)
      ? addedContent(matches, lexicon) ?? unsaidVerb(matches, lexicon) ?? unmentionedThing(claimWords, coreWords, input.core, matches, lexicon) ?? unsaidAdverb(matches, coreWords, lexicon)
      : null,
    unstatedCause(input.claim, input.core),
    clash ? null : absoluteForConditional(focusWords, coreWords, focusMatches),
    broaderDenial(focusMatches, lexicon),
  ]) {
    if (f) findings.push(f);
  }

  const verdict = findings.some((f) => f.effect === 'contradicts')
    ? 'contradicted'
    : findings.length > 0 || !supportedByWords(overlap)
      ? 'weak'
      : 'supported';
  return { verdict, findings, overlap, matches };
}
