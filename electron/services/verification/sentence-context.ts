/** The evidence around a match: whole sentences, a bounded reach either way. */

/** Sentences around a match, up to this many characters each side, are the verdict's context. */
const CONTEXT_REACH = 400;

const TERMINATOR = /[.!?]["'”’)\]]*\s|\n\s*\n/g;

/** The sentences around [start, end) of a text, at most CONTEXT_REACH characters either way. */
export function sentenceContext(text: string, start: number, end: number): string {
  const from = Math.max(0, start - CONTEXT_REACH);
  let a = from;
  TERMINATOR.lastIndex = from;
  for (let m = TERMINATOR.exec(text); m && m.index + m[0].length <= start; m = TERMINATOR.exec(text)) a = m.index + m[0].length;
  const stop = Math.min(text.length, end + CONTEXT_REACH);
  let b = stop;
  TERMINATOR.lastIndex = end;
  const next = TERMINATOR.exec(text);
  if (next && next.index < stop) b = next.index + 1;
  return text.slice(a, b).trim();
}
