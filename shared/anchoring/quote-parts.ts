/**
 * A quote's editorial marks: what the quoter wrote that the source does not say. An ellipsis
 * leaves text out; words in square brackets stand in for the source's ("[the Company] shall",
 * "[t]he"); "[sic]" and notes such as "(emphasis added)" or "(citations omitted)" are no text of
 * the source at all. Such a quote is anchored as the parts between its marks, in order.
 */

/** Longest stretch of source text an ellipsis may stand for, in normalised chars (~200 words). */
export const ELISION_MAX_GAP = 1200;

// An ellipsis standing for left-out text: "…", "...", ". . .", "[...]", "[…]", "(...)", "(…)".
const ELISION_RE = /\s*(?:\[\s*(?:…|(?:\.\s?){2}\.)\s*\]|\(\s*(?:…|(?:\.\s?){2}\.)\s*\)|(?:\.\s?){2}\.|…)\s*/gu;

// Legal and academic notes about the quote itself: "(emphasis added)", "[italics in original]",
// "(internal quotation marks and citations omitted)", "[sic]".
const NOTE_WORD = '(?:emphas[ie]s|italics?|underlin(?:e|ing)|bold(?:face)?|footnotes?|citations?|internal|quotation|quotes?|marks?|brackets?|alterations?|ellips[ie]s|omissions?|paragraph|breaks?|and|&|,)';
const NOTE_RE = new RegExp(
  `\\s*[(\\[]\\s*(?:sic!?|${NOTE_WORD}(?:\\s*${NOTE_WORD})*\\s+(?:added|supplied|omitted|removed|deleted|mine|ours|in\\s+(?:the\\s+)?original))\\s*[)\\]]`,
  'giu',
);
// Up to three letters in brackets glued to a word: a changed case or ending ("[t]he", "employee[s]").
const GLUED_RE = /\[(\p{L}{0,3})\](?=\p{L})|(?<=\p{L})\[(\p{L}{0,3})\]/gu;
// The quoter's own words in brackets, standing in for the source's. Brackets holding digits are
// no stand-ins: a reference mark ("[12]") or an index ("x[2]") whose number must be checked.
const STAND_IN_RE = /\[([^[\]\d]{1,80})\]/gu;
// A numbered list marker at the start of the quote ("1.", "(2)", "3)").
const LEADING_NUMBER_RE = /^\(?(\d{1,3})[.)]\s+(?=\S)/u;

/**
 * Source text a bracketed stand-in may replace: about as much as its own words. A stand-in names
 * what the source says in other words ("[the Board]" for "It"); it never hides a phrase.
 */
function standInMaxGap(words: string): number {
  return 12 + Math.ceil(1.5 * words.length);
}

export interface QuoteGap {
  kind: 'elision' | 'alteration';
  /** Longest source text (normalised chars) the marks may cover. */
  max: number;
  /** The marks as the quote writes them ("…", "[the Company]"). */
  mark: string;
}

export interface QuotePart {
  text: string;
  /** The marks between this part and the previous one; unset for the first part. */
  gap?: QuoteGap;
}

export interface QuotePlan {
  /** The quote without its notes and "[sic]", brackets dropped (their words kept), ellipses kept. */
  whole: string;
  /** The text between ellipses and bracketed stand-ins, in order; none when the quote has no letters or digits. */
  parts: QuotePart[];
  /** Notes, "[sic]", brackets and a leading list number found, as written: what the quote adds to the source. */
  marks: string[];
  /**
   * The number of a list marker the quote starts with ("2." → "2"), set aside like the marks:
   * where the source numbers the same text otherwise, the quote misquotes that number.
   */
  leadingNumber?: string;
}

/** The parts of a quote between its ellipses (none at its ends), or the quote alone. */
export function splitElisions(quote: string): string[] {
  return planQuote(quote, ELISION_MAX_GAP, false).parts.map((p) => p.text);
}

const hasText = (s: string): boolean => /[\p{L}\p{N}]/u.test(s);

/**
 * The quote's editorial marks and the parts between them (see the module comment); with
 * `editorial` false, its ellipses only.
 */
export function planQuote(quote: string, elisionMaxGap: number = ELISION_MAX_GAP, editorial = true): QuotePlan {
  const marks: string[] = [];
  let leadingNumber: string | undefined;
  let q = quote.trim();
  if (editorial) {
    q = q
      .replace(LEADING_NUMBER_RE, (m, n: string) => {
        marks.push(m.trim());
        leadingNumber = n;
        return '';
      })
      .replace(NOTE_RE, (m) => {
        marks.push(m.trim());
        return ' ';
      })
      .replace(GLUED_RE, (m, a: string | undefined, b: string | undefined) => {
        marks.push(m);
        return a ?? b ?? '';
      })
      .trim();
  }
  const whole = editorial
    ? q.replace(STAND_IN_RE, (m, words: string) => {
        marks.push(m);
        return words;
      })
    : q;

  const parts: QuotePart[] = [];
  // Whether each part's text touched the mark before / after it (no space between).
  const glued: { before: boolean; after: boolean }[] = [];
  let pending: QuoteGap | null = null;
  const addGap = (kind: QuoteGap['kind'], max: number, mark: string): void => {
    pending = pending
      ? { kind: pending.kind === 'elision' ? 'elision' : kind, max: pending.max + max, mark: `${pending.mark} ${mark}` }
      : { kind, max, mark };
  };
  const addText = (raw: string): void => {
    const text = raw.trim();
    if (!hasText(text)) return;
    const part: QuotePart = { text };
    if (parts.length > 0 && pending) part.gap = pending;
    parts.push(part);
    glued.push({ before: !/^\s/u.test(raw), after: !/\s$/u.test(raw) });
    pending = null;
  };
  q.split(ELISION_RE).forEach((chunk, i) => {
    if (i > 0) addGap('elision', elisionMaxGap, '…');
    let last = 0;
    if (editorial) {
      for (const m of chunk.matchAll(STAND_IN_RE)) {
        addText(chunk.slice(last, m.index));
        addGap('alteration', standInMaxGap(m[1] ?? ''), m[0]);
        last = m.index + m[0].length;
      }
    }
    addText(chunk.slice(last));
  });
  // Punctuation glued to a stand-in belongs to the quoter's sentence, not to the source's words
  // ("[the Company]'s" where the source has "its").
  parts.forEach((part, i) => {
    if (part.gap?.kind === 'alteration' && glued[i]?.before) part.text = part.text.replace(/^[^\p{L}\p{N}]+/u, '');
    if (parts[i + 1]?.gap?.kind === 'alteration' && glued[i]?.after) part.text = part.text.replace(/[^\p{L}\p{N}]+$/u, '');
  });
  return leadingNumber === undefined ? { whole, parts, marks } : { whole, parts, marks, leadingNumber };
}
