/**
 * The claim of each marker in a sentence with several: the clause the marker closes, with what the
 * clauses share (a subject the later clause leaves out). "Developers are volunteers [1] and elect
 * a Project Leader every year [2]." gives [1] "Developers are volunteers" and [2] "Developers
 * elect a Project Leader every year"; a sentence with one marker is its own claim.
 */
import { MARKER_GROUP, stripMarkers } from './sentences.ts';

// Words that open a clause without being part of its claim.
const CONNECTIVE = /^(?:,|;|:|\u2014|\u2013|-|\s)*(?:(?:and|but|while|whereas|although|though|yet|so|also|as well as|and also|but also|and then|then|however,?|which|who)\s+)*/i;
// Auxiliaries and modals: a clause that starts with one has left its subject to the sentence.
const AUXILIARY = new Set(
  'is are was were be been being has have had do does did may might must can could shall should will would need needs ought cannot'.split(' '),
);
// Words that start a subject, not a verb phrase.
const SUBJECT_START = /^(?:the|a|an|this|that|these|those|it|they|he|she|we|i|you|its|their|his|her|our|each|every|all|some|no|most|many|both|either|neither|one|there)$/i;
/** A clause shorter than this many words is a fragment ("The Debian Project [1] has …"): its marker claims the sentence. */
const MIN_CLAUSE_WORDS = 4;

const wordsOf = (t: string): string[] => t.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));

const DETERMINER = /^(?:the|a|an|its|their|his|her|our|your|this|that|these|those|no|all|some|each|every|any|\p{N}.*)$/iu;
const PREPOSITION = /^(?:to|in|on|by|for|with|at|from|about|over|under|up|out|into|as)$/i;
const clean = (w: string): string => w.replace(/[^\p{L}\p{N}'-]/gu, '');

/** Whether a clause starts with a verb phrase rather than its own subject ("may vote", "elects the …", "receive a …"). */
function lacksSubject(clause: string): boolean {
  const ws = wordsOf(clause).map(clean);
  const first = ws[0] ?? '';
  if (!first || /^\p{Lu}/u.test(first) || SUBJECT_START.test(first)) return AUXILIARY.has(first.toLowerCase());
  // An adverb before the verb ("also", "usually", "rarely").
  const adverb = /ly$|^(?:also|often|never|not|still|then)$/i.test(first);
  const verb = (adverb ? (ws[1] ?? '') : first).toLowerCase();
  if (AUXILIARY.has(verb)) return true;
  const next = (ws[adverb ? 2 : 1] ?? '').toLowerCase();
  // A verb before its object: "elect a Project Leader", "publishes its minutes", "reports to the board".
  if (DETERMINER.test(next)) return true;
  return /(?:ed|s)$/.test(verb) && PREPOSITION.test(next);
}

/** Whether a word reads as the clause's verb: an auxiliary, or an -s / -ed form after a noun. */
function verbLike(ws: readonly string[], i: number): boolean {
  const w = clean(ws[i] ?? '');
  if (AUXILIARY.has(w.toLowerCase())) return true;
  const before = clean(ws[i - 1] ?? '').toLowerCase();
  return i >= 1 && /^[a-z]+(?:ed|s)$/.test(w) && !/ss$/.test(w) && !DETERMINER.test(before) && !SUBJECT_START.test(before);
}

/** The subject of a clause: its words before the first verb-like word; null when none is found. */
function subjectOf(clause: string): { subject: string; auxiliary: string | null } | null {
  const ws = clause.trim().split(/\s+/);
  for (let i = 1; i < ws.length && i <= 8; i++) {
    if (!verbLike(ws, i)) continue;
    const w = clean(ws[i] ?? '').toLowerCase();
    return { subject: ws.slice(0, i).join(' '), auxiliary: AUXILIARY.has(w) ? w : null };
  }
  return null;
}

/** A clause with no verb: a subject or a name the marker points at ("The Debian Project [1] has …"). */
function isFragment(clause: string): boolean {
  const ws = clause.trim().split(/\s+/);
  return ws.length <= 4 && !ws.some((_, i) => verbLike(ws, i)) && !ws.some((w) => /^[a-z]+(?:ed|s|es)$/.test(clean(w)));
}

export interface MarkerClause {
  /** Offset of the marker group in the sentence. */
  at: number;
  claim: string;
}

/** Claims per marker group of one sentence (markers still in it); the full sentence for a single group. */
export function markerClauses(sentence: string): MarkerClause[] {
  const groups = [...sentence.matchAll(MARKER_GROUP)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const whole = stripMarkers(sentence);
  if (groups.length <= 1) return groups.map((g) => ({ at: g.start, claim: whole }));
  // Each group closes the text since the previous group with text in between; adjacent groups share it.
  const pieces: { from: number; to: number; groups: number[] }[] = [];
  let from = 0;
  groups.forEach((g, i) => {
    const text = sentence.slice(from, g.start);
    const last = pieces[pieces.length - 1];
    if (last && !/[\p{L}\p{N}]/u.test(text)) last.groups.push(i);
    else pieces.push({ from, to: g.start, groups: [i] });
    from = g.end;
  });
  // Words after the last marker ("… [2] every year.") finish the last clause.
  const tail = sentence.slice(from);
  const clauses = pieces.map((p, k) => stripMarkers(sentence.slice(p.from, p.to) + (k === pieces.length - 1 && /[\p{L}\p{N}]/u.test(tail) ? tail : '')));
  if (pieces.length === 1 || isFragment(clauses[0] ?? '') || clauses.some((c) => wordsOf(c).length < MIN_CLAUSE_WORDS - 1)) {
    return groups.map((g) => ({ at: g.start, claim: whole }));
  }
  const subject = subjectOf(clauses[0] ?? '');
  const out: MarkerClause[] = [];
  pieces.forEach((p, k) => {
    let claim = (clauses[k] ?? '').replace(CONNECTIVE, '').replace(/^[,;:\s]+|[,;:\s]+$/g, '');
    if (k > 0 && subject && lacksSubject(claim)) {
      // "was adopted in 1998 [1] and amended in 2007 [2]": the participle takes the auxiliary too.
      const participle = /^[a-z]+ed\b/.test(claim) && subject.auxiliary !== null;
      claim = `${subject.subject} ${participle ? `${subject.auxiliary} ` : ''}${claim}`;
    }
    if (k < pieces.length - 1 || !/[.!?]$/.test(claim)) claim = claim.replace(/[,;:\s]+$/, '');
    if (wordsOf(claim).length < MIN_CLAUSE_WORDS - 1) claim = whole;
    // Each clause reads as a sentence of its own.
    claim = claim.charAt(0).toUpperCase() + claim.slice(1);
    if (!/[.!?]$/.test(claim)) claim += /[.!?]$/.test(whole) ? whole.slice(-1) : '';
    for (const g of p.groups) out.push({ at: groups[g]?.start ?? 0, claim });
  });
  return out;
}
