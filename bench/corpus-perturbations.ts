/** How people and tools change a quote when they cite it. */
import type { Rng } from '../test/support/random.ts';
import { CJK_PAIR_BREAK, int, pick } from './corpus-passages.ts';

/** Line breaks and line-end hyphens gone, as when a quote is retyped or pasted from a reflowed view. */
export function dehyphenate(text: string): string {
  return text
    .replace(CJK_PAIR_BREAK, '$1')
    .replace(/(\p{L})[-\u00AD\u2010]\s*\n\s*(\p{Ll})/gu, '$1$2')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Line breaks gone but line-end hyphens kept ("well-\nknown" → "well-known"), as compounds are typed. */
export function keepHyphens(text: string): string {
  return dehyphenate(text.replace(/(\p{L})([-\u2010])\s*\n\s*(\p{L})/gu, '$1$2$3'));
}

export function expandLigatures(text: string): string {
  // Latin ligatures and Arabic presentation forms: what a person types instead.
  return text.replace(/[\uFB00-\uFB06\uFB50-\uFDFF\uFE70-\uFEFF]/g, (c) => c.normalize('NFKC'));
}

export function swapQuotesAndDashes(text: string): string {
  // Both ways: curly quotes become straight, straight ones curly; dashes become "--" / "-" and back.
  let open = true;
  return text.replace(/[“”„‘’"—–]|(?<=\p{L})'(?=\p{L})| - /gu, (c) => {
    switch (c) {
      case '“': case '”': case '„': return '"';
      case '‘': case '’': return "'";
      case '—': return '--';
      case '–': return '-';
      case ' - ': return ' – ';
      case "'": return '’';
      default:
        open = !open;
        return open ? '”' : '“';
    }
  });
}

export function typos(r: Rng, text: string, rate: number): string {
  const chars = [...text];
  const letters = chars.map((c, i) => (/\p{L}/u.test(c) ? i : -1)).filter((i) => i > 0 && i < chars.length - 1);
  const n = Math.max(1, Math.round(letters.length * rate));
  for (let k = 0; k < n && letters.length > 0; k++) {
    const i = pick(r, letters);
    const op = r();
    const c = chars[i] ?? '';
    if (!/\p{L}/u.test(c)) continue;
    if (op < 0.4) chars[i] = c === 'e' ? 'a' : 'e';
    else if (op < 0.65) chars[i] = '';
    else if (op < 0.85) chars[i] = c + c;
    else if (/\p{L}/u.test(chars[i + 1] ?? '')) {
      chars[i] = chars[i + 1] ?? '';
      chars[i + 1] = c;
    }
  }
  return chars.join('');
}

const ELLIPSES = [' … ', ' ... ', '...', ' [...] ', ' […] '];

export function elide(r: Rng, text: string): string | null {
  const words = text.split(' ');
  if (words.length < 14) return null;
  const keepA = int(r, 4, Math.floor(words.length * 0.4));
  const keepB = int(r, 4, Math.floor(words.length * 0.4));
  if (keepA + keepB >= words.length - 1) return null;
  return `${words.slice(0, keepA).join(' ')}${pick(r, ELLIPSES)}${words.slice(words.length - keepB).join(' ')}`;
}

export function trimmed(r: Rng, text: string): string {
  return `${pick(r, ['…', '...', '... '])}${text}${pick(r, ['…', '...', ' ...'])}`;
}

export function changeNumber(r: Rng, text: string): string | null {
  const nums = [...text.matchAll(/(?<![\d.,])\d+(?![\d])/g)];
  if (nums.length === 0) return null;
  const m = pick(r, nums);
  const v = Number(m[0]);
  const changed = String(v + int(r, 1, 9) * (v >= 10 ? int(r, 1, 3) : 1));
  return text.slice(0, m.index) + changed + text.slice(m.index + m[0].length);
}

export function shuffleWords(r: Rng, text: string): string | null {
  const words = text.split(' ');
  if (words.length < 8) return null;
  // "test test Test test" shuffled is the same text: only varied wording makes a fabrication.
  if (new Set(words.map((w) => w.toLowerCase())).size < words.length * 0.6) return null;
  for (let i = words.length - 1; i > 0; i--) {
    const j = int(r, 0, i);
    [words[i], words[j]] = [words[j] as string, words[i] as string];
  }
  const out = words.join(' ');
  return out === text ? null : out;
}

// ---------------------------------------------------------------------------------------------
// Editorial habits of legal and academic quoting, and formatting added by chat tools

/** "[t]he rule": the first letter's case changed and bracketed, as when a quote starts mid-sentence. */
export function bracketFirstLetter(text: string): string | null {
  const m = /^(\p{L})(\p{L})/u.exec(text);
  if (!m) return null;
  const c = m[1] as string;
  const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
  return flipped === c ? null : `[${flipped}]${text.slice(1)}`;
}

const STAND_INS = ['the Company', 'the Board', 'the Agreement', 'such party', 'the Licensee', 'these rules', 'it', 'they'];

/** One or two words in the middle replaced by the quoter's own words in brackets ("[the Company] shall"). */
export function bracketAlteration(r: Rng, text: string): string | null {
  const words = text.split(' ');
  if (words.length < 10) return null;
  const at = int(r, 3, words.length - 5);
  const n = int(r, 1, 2);
  return [...words.slice(0, at), `[${pick(r, STAND_INS)}]`, ...words.slice(at + n)].join(' ');
}

const NOTES = [' (emphasis added)', ' [emphasis added]', ' (emphasis in original)', ' (citations omitted)', ' (internal quotation marks omitted)'];

/** "[sic]" after a word, and an editorial note at the end. */
export function sicAndNote(r: Rng, text: string): string | null {
  const words = text.split(' ');
  if (words.length < 4) return null;
  const at = int(r, 1, words.length - 2);
  return `${[...words.slice(0, at + 1), '[sic]', ...words.slice(at + 1)].join(' ')}${pick(r, NOTES)}`;
}

/** The quote set in Markdown emphasis or code, as chat tools render it. */
export function markdownWrapped(r: Rng, text: string): string {
  const mark = pick(r, ['*', '**', '_', '`']);
  return `${mark}${text}${mark}`;
}

/** A list marker in front of the quote that the source does not have there. */
export function listMarked(r: Rng, text: string): string {
  return `${pick(r, ['1. ', '2) ', '(a) ', 'b. ', '• ', '- ', '* ', 'iii. '])}${text}`;
}

/** Other punctuation at the quote's end (and sometimes its start), as when a phrase is lifted from a sentence. */
export function punctuationChanged(r: Rng, text: string): string {
  const core = text.replace(/[.,;:!?]+$/u, '');
  return `${r() < 0.3 ? '(' : ''}${core}${pick(r, ['.', ';', ',', ':', '!', '.)'])}`;
}

const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

/**
 * The same numbers written another way, as a claim paraphrases its quote: 1,000,000 ↔ 1 million,
 * 12% ↔ 12 per cent, 1200 ↔ 1,200, small counts in words. Null when there is nothing to rewrite.
 */
export function numbersReworded(text: string): string | null {
  const re = /(?<![\p{L}\p{N}.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\s?%|\s+per cent\b|\s+percent\b)?(?![\p{N}]|\.\d|,\d)(?=(\s+\p{L}{3,})?)/gu;
  const out = text.replace(re, (all: string, whole: string, frac: string | undefined, pc: string | undefined, next: string | undefined) => {
    const v = Number(whole.replace(/,/g, '') + (frac ?? ''));
    if (!Number.isFinite(v)) return all;
    if (pc) return `${whole}${frac ?? ''}${pc.includes('%') ? ' per cent' : '%'}`;
    if (frac) return all;
    if (v >= 1e6 && v % 1e5 === 0) return `${v / 1e6} million`;
    if (v >= 1000 && v < 1e6 && !/^(?:1[5-9]|20)\d\d$/.test(whole)) return whole.includes(',') ? whole.replace(/,/g, '') : v.toLocaleString('en-US');
    if (v >= 2 && v <= 20 && next) return SMALL[v] as string;
    return all;
  });
  return out !== text ? out : null;
}
