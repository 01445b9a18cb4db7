/**
 * The citations the corpus harness verifies: sampled passages cited the way people and AI systems
 * cite them (see corpus-perturbations.ts), in the answer formats they use (corpus-answers.ts),
 * with negatives that must never come out found and claims whose verdict is known.
 */
import type { Rng } from '../test/support/random.ts';
import { compactName, goodTitle, looseName, markdownAnswer, nativeAnswer } from './corpus-answers.ts';
import { changeNumber, dehyphenate, elide, expandLigatures, keepHyphens, shuffleWords, swapQuotesAndDashes, trimmed, typos } from './corpus-perturbations.ts';
import { groundKey, occursIn, pageBreakPassages, pick, samplePassages, tokens, type Doc, type Passage, type Piece } from './corpus-passages.ts';

const PASSAGES_PER_DOC = 30;
const PAGE_BREAKS_PER_DOC = 10;
const NUMBER_PASSAGES_PER_DOC = 10;

/** claim: the claim changes a number, `contradicted` is right; claim-ok: it does not, `contradicted` is wrong. */
export type Kind = 'positive' | 'negative' | 'claim' | 'claim-ok';

export interface Cite {
  perturbation: string;
  kind: Kind;
  doc: Doc;
  /** The passage occurs more than once in its document: any of its places is the right one. */
  repeated?: boolean;
  /** The answer file as written, and its name (the parser detects the format by content). */
  content: string;
  fileName: string;
  /** Positives: where the text really is. */
  truth: Piece[] | null;
  /** The reference is deliberately ambiguous: source_unknown is the right answer. */
  expectUnknown?: boolean;
}

export function buildCites(r: Rng, docs: Doc[]): Cite[] {
  const cites: Cite[] = [];
  const withText = docs.filter((d) => d.dense.length >= 60);
  const compactCounts = new Map<string, number>();
  for (const d of docs) compactCounts.set(compactName(d.file), (compactCounts.get(compactName(d.file)) ?? 0) + 1);
  const titleCounts = new Map<string, number>();
  for (const d of docs) if (d.title) titleCounts.set(d.title.toLowerCase(), (titleCounts.get(d.title.toLowerCase()) ?? 0) + 1);

  for (const doc of withText) {
    const toks = tokens(doc);
    const passages = samplePassages(r, doc, toks, PASSAGES_PER_DOC);
    const add = (perturbation: string, kind: Kind, content: string | null, truth: Piece[] | null, fileName = 'answer.json', extra: Partial<Cite> = {}): void => {
      if (content !== null) cites.push({ perturbation, kind, doc, content, fileName, truth, ...extra });
    };
    const repeatedIn = (text: string): boolean => {
      const n = groundKey(text);
      const at = doc.dense.indexOf(n);
      return at >= 0 && doc.dense.indexOf(n, at + 1) >= 0;
    };
    const page = (p: Passage): Record<string, unknown> => (p.page !== null ? { page: p.page } : {});
    const file = { file: doc.file };
    for (const p of passages) {
      const flat = dehyphenate(p.text);
      const claim = flat;
      const before = cites.length;
      add('verbatim', 'positive', nativeAnswer(claim, p.text, file, page(p)), p.pieces);
      add('line breaks and hyphens removed', 'positive', nativeAnswer(claim, flat, file, page(p)), p.pieces);
      const kept = keepHyphens(p.text);
      if (kept !== flat) add('line breaks removed, line-end hyphens kept', 'positive', nativeAnswer(claim, kept, file, page(p)), p.pieces);
      const lig = expandLigatures(p.text);
      if (lig !== p.text) add('ligatures / presentation forms expanded', 'positive', nativeAnswer(claim, lig, file, page(p)), p.pieces);
      const sw = swapQuotesAndDashes(p.text);
      if (sw !== p.text) add('quotes and dashes swapped', 'positive', nativeAnswer(claim, sw, file, page(p)), p.pieces);
      add('whitespace collapsed', 'positive', nativeAnswer(claim, p.text.replace(/\s+/g, ' ').trim(), file, page(p)), p.pieces);
      add('typos (~3% of letters)', 'positive', nativeAnswer(claim, typos(r, flat, 0.03), file, page(p)), p.pieces);
      const el = elide(r, flat);
      if (el) add('middle elided (… / ... / [...])', 'positive', nativeAnswer(claim, el, file, page(p)), p.pieces);
      add('trimmed, mid-sentence with ellipses', 'positive', nativeAnswer(claim, trimmed(r, flat), file, page(p)), p.pieces);
      if (doc.isPdf && p.page !== null) {
        const pages = doc.segs.length;
        const off = p.page > 1 && (r() < 0.5 || p.page >= pages) ? p.page - 1 : p.page + 1;
        add('page off by one', 'positive', nativeAnswer(claim, p.text, file, { page: off }), p.pieces);
        add('page absent', 'positive', nativeAnswer(claim, p.text, file, {}), p.pieces);
        if (p.label && p.label !== String(p.page) && /^[A-Za-z0-9-]+$/.test(p.label)) {
          add('page given as its label (p. iv, p. T-3, printed number)', 'positive', markdownAnswer(claim, flat, `${doc.file}, p. ${p.label}`), p.pieces, 'answer.md');
        }
      }
      const loose = looseName(doc);
      const ambiguous = (compactCounts.get(compactName(loose)) ?? 0) > 1 || docs.filter((d) => compactName(d.file) === compactName(loose)).length > 1;
      const looseMd = markdownAnswer(claim, flat, `${loose}${p.page !== null ? `, p. ${p.page}` : ''}`);
      if (ambiguous) add('source: ambiguous loose name → source_unknown', 'negative', looseMd, null, 'answer.md', { expectUnknown: true });
      else add('source: loose name (R Full Reference Manual, free culture.pdf)', 'positive', looseMd, p.pieces, 'answer.md');
      if (goodTitle(doc.title) && (titleCounts.get(doc.title.toLowerCase()) ?? 0) === 1) {
        add('source: title from metadata', 'positive', nativeAnswer(claim, p.text, { title: doc.title }, page(p)), p.pieces);
      }
      add('source: sha256', 'positive', nativeAnswer(claim, p.text, { sha256: doc.sha256 }, page(p)), p.pieces);

      // Negatives.
      const shuffled = shuffleWords(r, flat);
      if (shuffled && !occursIn(doc, shuffled)) add('NEG shuffled words of a real passage', 'negative', nativeAnswer(shuffled, shuffled, file, page(p)), null);
      const other = pick(r, withText.filter((d) => d !== doc && compactName(d.file).slice(0, 12) !== compactName(doc.file).slice(0, 12)));
      if (other && !occursIn(other, flat)) {
        add('NEG passage of document A cited to document B', 'negative', nativeAnswer(claim, flat, { file: other.file }, {}), null, 'answer.json', { doc: other });
      }
      if (repeatedIn(p.text)) for (let i = before; i < cites.length; i++) (cites[i] as Cite).repeated = true;
    }
    for (const p of pageBreakPassages(r, doc, PAGE_BREAKS_PER_DOC)) {
      add('spanning a page break (furniture skipped)', 'positive', nativeAnswer(dehyphenate(p.text), dehyphenate(p.text), file, page(p)), p.pieces);
    }
    for (const p of samplePassages(r, doc, toks, NUMBER_PASSAGES_PER_DOC, (q) => /(?<![\p{L}\d])\d{1,4}(?![\d\p{L}])/u.test(q.text) && !/[{}\\<>=]/.test(q.text))) {
      const flat = dehyphenate(p.text);
      const changed = changeNumber(r, flat);
      if (!changed || occursIn(doc, changed)) continue;
      add('NEG quote and claim with one number changed', 'negative', nativeAnswer(changed, changed, file, page(p)), null);
      add('CLAIM true quote, claim with one number changed', 'claim', nativeAnswer(changed, flat, file, page(p)), p.pieces);
    }
  }
  return cites;
}
