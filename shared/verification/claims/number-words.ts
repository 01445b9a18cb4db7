/**
 * Quantities written in words, rewritten as figures before a claim is compared with its evidence:
 * "thirty years", "three decades" and "30 years" are one quantity, as are "a dozen" and "12",
 * "twice" and "2 times", "half of" and "50% of". Only the forms that state an amount are touched
 * ("no one", "one of them", "the 19th century", "half-time" stay as written).
 */

const UNITS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const UNIT_RE = Object.keys(UNITS).join('|');
const TENS_RE = Object.keys(TENS).join('|');

/** Durations counted in a larger unit: the same span in years. */
const SPANS: Record<string, number> = { decade: 10, decades: 10, century: 100, centuries: 100 };

// Compiled once: quantitiesAsFigures runs on every claim, quote and context. The global ones are
// only used by replace(), which starts each search at 0 and leaves them at 0.
const TENS_WORD = new RegExp(`^(${TENS_RE})(?:[- ](${UNIT_RE}))?$`);

/** The value of a written number ("thirty", "forty-two", "seven"), or of figures; null when neither. */
function valueOf(word: string): number | null {
  const w = word.toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(w)) return Number(w);
  if (w === 'a' || w === 'an') return 1;
  const m = TENS_WORD.exec(w);
  if (m) return (TENS[m[1] ?? ''] ?? 0) + (m[2] ? (UNITS[m[2]] ?? 0) : 0);
  return UNITS[w] ?? null;
}

// A number as written: figures, a compound of tens ("forty-two"), a tens word, a unit word, or an article.
const NUMBER = `(?:\\d+(?:\\.\\d+)?|(?:${TENS_RE})(?:[- ](?:${UNIT_RE}))?|${UNIT_RE}|an?)`;

const SPAN_WORDS = new RegExp(`\\b(${NUMBER})[- ](decades?|century|centuries)\\b`, 'gi');
const DOZENS = new RegExp(`\\b(${NUMBER}) dozen\\b(?! of\\b)`, 'gi');
const HUNDREDS = new RegExp(`\\b(${NUMBER}) hundred\\b(?!s)`, 'gi');
const TENS_WORDS = new RegExp(`\\b(?:${TENS_RE})(?:[- ](?:${UNIT_RE}))?\\b`, 'gi');

/** A value as figures, without float noise. */
const figures = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));

/**
 * The text with amounts written in words given as figures. Lengths change: use the result for
 * comparing meaning, not for offsets into the source.
 */
export function quantitiesAsFigures(text: string): string {
  let t = text;
  // Spans: "three decades", "a decade", "2 centuries" → years; "the last decade" → "the last 10 years".
  t = t.replace(SPAN_WORDS, (all, n: string, span: string) => {
    const v = valueOf(n);
    return v === null ? all : `${figures(v * (SPANS[span.toLowerCase()] ?? 1))} years`;
  });
  t = t.replace(/\b(last|past|previous|next|coming|following) decade\b/gi, (_all, w: string) => `${w} 10 years`);
  // Dozens: "a dozen", "two dozen", "half a dozen".
  t = t.replace(/\bhalf an? dozen\b/gi, '6');
  t = t.replace(DOZENS, (all, n: string) => {
    const v = valueOf(n);
    return v === null ? all : figures(v * 12);
  });
  // Hundreds: "two hundred", "a hundred" (not "hundreds of").
  t = t.replace(HUNDREDS, (all, n: string) => {
    const v = valueOf(n);
    return v === null ? all : figures(v * 100);
  });
  // Multiples: "twice", "thrice".
  t = t.replace(/\btwice\b/gi, '2 times').replace(/\bthrice\b/gi, '3 times');
  // Shares: "half of", "a quarter of", "three quarters of" → percentages.
  t = t.replace(/\b(?:one|a) half of\b|\bhalf of\b/gi, '50% of');
  t = t.replace(/\b(?:one|a) quarter of\b/gi, '25% of').replace(/\bthree quarters of\b/gi, '75% of');
  // Tens and their compounds ("thirty", "forty-two"): unit words alone are left to the number rules,
  // which read "five days" as 5 and "one of" as no amount.
  t = t.replace(TENS_WORDS, (all) => figures(valueOf(all) ?? 0));
  return t;
}
