/**
 * Round two of the corpus citations: habits of real quoting that round one leaves out. Legal and
 * academic editing ([t]he, [the Company], [sic], "(emphasis added)"), chat formatting (Markdown
 * emphasis, list markers, other end punctuation), short quotes repeated elsewhere in their
 * document, whole paragraphs with typos, claims that write the quote's numbers another way, and
 * Anthropic exchanges (a plain-text document cited by character offsets, a PDF sent as base64,
 * both without a title). A seeded generator of its own keeps round one's citations unchanged.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Rng } from '../test/support/random.ts';
import { anthropicAnswer, nativeAnswer, webAnnotationAnswer, type AnthropicDocument } from './corpus-answers.ts';
import type { Cite, Kind } from './corpus-citations.ts';
import {
  bracketAlteration,
  bracketFirstLetter,
  changeNumber,
  dehyphenate,
  listMarked,
  markdownWrapped,
  numbersReworded,
  punctuationChanged,
  shuffleWords,
  sicAndNote,
  typos,
} from './corpus-perturbations.ts';
import { groundKey, int, occursIn, pick, samplePassages, tokens, type Doc, type Passage, type Piece, type Tok } from './corpus-passages.ts';
import type { SegmentRow } from '../electron/services/store/sources-store.ts';

const EDITED_PER_DOC = 12;
const SHORT_PER_DOC = 12;
const LONG_PER_DOC = 2;
const NUMBER_PASSAGES_PER_DOC = 8;
const ANTHROPIC_PER_DOC = 4;
const CONTEXT = 32;

const isPlainText = (doc: Doc): boolean => /\.(?:txt|md)$/i.test(doc.file);

/** The 1-based line of `offset` in a text segment. */
function lineAt(seg: SegmentRow, offset: number): number {
  let n = seg.line_start ?? 1;
  for (let i = 0; i < offset; i++) if (seg.text.charCodeAt(i) === 10) n++;
  return n;
}

/** The claimed location a citing tool gives for a passage of one segment: page, paragraph or line. */
function locatorOf(doc: Doc, seg: SegmentRow, start: number): Record<string, unknown> {
  if (doc.isPdf && seg.page !== null) return { page: seg.page };
  if (seg.line_start !== null) return { line: lineAt(seg, start) };
  if (seg.paragraph !== null) return { paragraph: seg.paragraph };
  return {};
}

/** The text a claimed location covers (the page, the line, the paragraph): a quote unique there can be placed. */
function claimedText(doc: Doc, seg: SegmentRow, start: number, end: number): string {
  if (seg.line_start === null || doc.isPdf) return seg.text;
  const a = seg.text.lastIndexOf('\n', start - 1) + 1;
  const b = seg.text.indexOf('\n', end);
  return seg.text.slice(a, b < 0 ? seg.text.length : b);
}

function count(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) n++;
  return n;
}

/** Short passages (2–4 words of one segment) whose text is repeated elsewhere in the document. */
function repeatedShortPassages(r: Rng, doc: Doc, toks: Tok[], want: number): Passage[] {
  const out: Passage[] = [];
  const seen = new Set<number>();
  for (let tries = 0; out.length < want && tries < want * 400 && toks.length > 4; tries++) {
    const len = int(r, 2, 4);
    const a = int(r, 0, toks.length - len);
    const ta = toks[a] as Tok;
    const tb = toks[a + len - 1] as Tok;
    if (seen.has(a) || ta.seg !== tb.seg) continue;
    let letters = 0;
    for (let i = a; i < a + len; i++) if ((toks[i] as Tok).letters) letters++;
    if (letters < len) continue;
    const seg = doc.segs[ta.seg] as SegmentRow;
    const text = seg.text.slice(ta.start, tb.end);
    const key = groundKey(text);
    if (key.length < 8 || count(doc.dense, key) < 2 || count(groundKey(claimedText(doc, seg, ta.start, tb.end)), key) !== 1) continue;
    seen.add(a);
    out.push({ doc, text, pieces: [{ segId: seg.id, start: ta.start, end: tb.end }], page: seg.page, label: seg.page_label });
  }
  return out;
}

/** Whole paragraphs: 1,500–2,500 characters from one page (PDF) or a few consecutive blocks. */
function longPassages(r: Rng, doc: Doc, toks: Tok[], want: number): Passage[] {
  const out: Passage[] = [];
  for (let tries = 0; out.length < want && tries < want * 60 && toks.length > 200; tries++) {
    const a = int(r, 0, toks.length - 200);
    const first = toks[a] as Tok;
    let b = a;
    const pieces: Piece[] = [];
    let chars = 0;
    for (; b < toks.length && chars < 1500; b++) {
      const t = toks[b] as Tok;
      if (doc.isPdf && t.seg !== first.seg) break;
      if (t.seg - first.seg > 40) break;
      const seg = doc.segs[t.seg] as SegmentRow;
      const last = pieces[pieces.length - 1];
      if (last && last.segId === seg.id) last.end = t.end;
      else pieces.push({ segId: seg.id, start: t.start, end: t.end });
      chars += t.end - t.start + 1;
    }
    if (chars < 1500 || chars > 2500) continue;
    const byId = new Map(doc.segs.map((s) => [s.id, s]));
    const text = pieces.map((p) => (byId.get(p.segId) as SegmentRow).text.slice(p.start, p.end)).join('\n');
    if ((text.match(/\p{L}{2,}/gu) ?? []).length < (b - a) * 0.5) continue;
    const seg = doc.segs[first.seg] as SegmentRow;
    out.push({ doc, text, pieces, page: seg.page, label: seg.page_label });
  }
  return out;
}

/** A plain-text document as a tool reads it (line endings unified), and where each stored segment starts in it. */
function plainTextOf(doc: Doc, corpus: string): { data: string; segStart: Map<number, number> } | null {
  let data: string;
  try {
    data = fs.readFileSync(path.join(corpus, doc.file), 'utf8').replace(/\r\n?/g, '\n');
  } catch {
    return null;
  }
  if (data.includes('\uFFFD')) return null; // not UTF-8: a tool would have sent other text
  const lineStarts = [0];
  for (let i = 0; i < data.length; i++) if (data.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const segStart = new Map<number, number>();
  for (const s of doc.segs) {
    const at = lineStarts[(s.line_start ?? 1) - 1];
    if (at !== undefined && data.startsWith(s.text, at)) segStart.set(s.id, at);
  }
  return { data, segStart };
}

/** The same text with trailing spaces cut and runs of blank lines squeezed, as some tools send it; offsets mapped. */
function squeezed(data: string): { text: string; map: (offset: number) => number } {
  const keep: number[] = [];
  let text = '';
  const lines = data.split('\n');
  let at = 0;
  let blank = 0;
  lines.forEach((raw, i) => {
    const line = raw.replace(/[ \t]+$/, '');
    blank = line.length === 0 ? blank + 1 : 0;
    if (blank <= 1) {
      for (let k = 0; k < line.length; k++) keep[at + k] = text.length + k;
      text += line;
      if (i < lines.length - 1) {
        keep[at + raw.length] = text.length;
        text += '\n';
      }
    }
    at += raw.length + 1;
  });
  return { text, map: (offset) => keep[offset] ?? text.length };
}

export function buildHabitCites(r: Rng, docs: Doc[], corpus: string): Cite[] {
  const cites: Cite[] = [];
  const withText = docs.filter((d) => d.dense.length >= 60);
  const pdfBase64 = new Map<number, string>();
  for (const doc of withText) {
    const add = (perturbation: string, kind: Kind, content: string | null, truth: Piece[] | null, extra: Partial<Cite> = {}): void => {
      if (content !== null) cites.push({ perturbation, kind, doc, content, fileName: 'answer.json', truth, ...extra });
    };
    const file = { file: doc.file };
    const page = (p: Passage): Record<string, unknown> => (p.page !== null ? { page: p.page } : {});
    const toks = tokens(doc);
    const repeated = (text: string): boolean => count(doc.dense, groundKey(text)) > 1;

    // Editorial marks and formatting.
    const passages = samplePassages(r, doc, toks, EDITED_PER_DOC, (p) => !/[[\]()*_`]/.test(p.text));
    for (const p of passages) {
      const flat = dehyphenate(p.text);
      const extra = repeated(p.text) ? { repeated: true } : {};
      add('editorial: first letter bracketed, case changed ([t]he …)', 'positive', ((q) => (q ? nativeAnswer(flat, q, file, page(p)) : null))(bracketFirstLetter(flat)), p.pieces, extra);
      add('editorial: words replaced by the quoter’s [bracketed words]', 'positive', ((q) => (q ? nativeAnswer(flat, q, file, page(p)) : null))(bracketAlteration(r, flat)), p.pieces, extra);
      add('editorial: [sic] and (emphasis added) / (citations omitted)', 'positive', ((q) => (q ? nativeAnswer(flat, q, file, page(p)) : null))(sicAndNote(r, flat)), p.pieces, extra);
      add('formatting: quote in Markdown emphasis or backticks', 'positive', nativeAnswer(flat, markdownWrapped(r, flat), file, page(p)), p.pieces, extra);
      add('formatting: list marker added in front (1. / (a) / • / -)', 'positive', nativeAnswer(flat, listMarked(r, flat), file, page(p)), p.pieces, extra);
      // Negatives: a real passage's words shuffled, dressed in editorial marks; two far-apart
      // passages joined by a bracketed stand-in.
      const shuffled = shuffleWords(r, flat);
      const dressed = shuffled ? sicAndNote(r, shuffled) : null;
      if (shuffled && dressed && !occursIn(doc, shuffled)) add('NEG shuffled words with [sic] and (emphasis added)', 'negative', nativeAnswer(dressed, dressed, file, page(p)), null);
      const other = pick(r, passages);
      const seg = (q: Passage): number => doc.segs.findIndex((s) => s.id === q.pieces[0]?.segId);
      if (other !== p && Math.abs(seg(other) - seg(p)) >= 3) {
        const a = flat.split(' ').slice(0, int(r, 5, 8)).join(' ');
        const bw = dehyphenate(other.text).split(' ');
        const b = bw.slice(bw.length - int(r, 5, 8)).join(' ');
        // Truly apart: B does not follow A closely anywhere in the document.
        const ka = groundKey(a);
        const kb = groundKey(b);
        let near = false;
        for (let at = doc.dense.indexOf(ka); at >= 0 && !near; at = doc.dense.indexOf(ka, at + 1)) {
          const next = doc.dense.indexOf(kb, at + ka.length);
          near = next >= 0 && next - (at + ka.length) < 400;
        }
        if (!near && !occursIn(doc, `${a} ${b}`)) add('NEG two far-apart passages joined by a [bracketed] stand-in', 'negative', nativeAnswer(`${a} ${b}`, `${a} [${pick(r, ['the Company', 'it', 'the Board'])}] ${b}`, file, page(p)), null);
      }
    }

    // Short quotes repeated elsewhere in the document: the claimed place, or the quote's context, picks.
    for (const p of repeatedShortPassages(r, doc, toks, SHORT_PER_DOC)) {
      const piece = p.pieces[0] as Piece;
      const seg = doc.segs.find((s) => s.id === piece.segId) as SegmentRow;
      const flat = dehyphenate(p.text);
      add('short quote (2–4 words) repeated in the document, location claimed', 'positive', nativeAnswer(flat, flat, file, locatorOf(doc, seg, piece.start)), p.pieces);
      add('short quote (2–4 words) repeated in the document, with its punctuation changed', 'positive', nativeAnswer(flat, punctuationChanged(r, flat), file, locatorOf(doc, seg, piece.start)), p.pieces);
      const prefix = seg.text.slice(Math.max(0, piece.start - CONTEXT), piece.start);
      const suffix = seg.text.slice(piece.end, piece.end + CONTEXT);
      // As W3C means them: the quote with its context occurs once.
      if (groundKey(prefix + suffix).length >= 16 && count(doc.dense, groundKey(prefix + p.text + suffix)) === 1) add('short quote (2–4 words) repeated in the document, TextQuoteSelector prefix/suffix', 'positive', webAnnotationAnswer(flat, flat, prefix, suffix, doc.file), p.pieces);
    }

    // Whole paragraphs with typos.
    for (const p of longPassages(r, doc, toks, LONG_PER_DOC)) {
      add('long quote (1,500–2,500 characters, ~2% typos)', 'positive', nativeAnswer(dehyphenate(p.text).split(' ').slice(0, 30).join(' '), typos(r, dehyphenate(p.text), 0.02), file, page(p)), p.pieces, repeated(p.text) ? { repeated: true } : {});
    }

    // Claims that write the quote's numbers another way: supported, never contradicted; and the
    // same with one number changed: contradicted.
    for (const p of samplePassages(r, doc, toks, NUMBER_PASSAGES_PER_DOC, (q) => /(?<![\p{L}\d])\d{1,7}(?![\d\p{L}])/u.test(q.text) && !/[{}\\<>=]/.test(q.text))) {
      const flat = dehyphenate(p.text);
      const reworded = numbersReworded(flat);
      if (!reworded) continue;
      add('CLAIM-OK true quote, claim writes its numbers another way (1 million, 12 per cent, twelve)', 'claim-ok', nativeAnswer(reworded, flat, file, page(p)), p.pieces);
      add('CLAIM-OK true quote, claim names a section (Under Section 4.2, …)', 'claim-ok', nativeAnswer(`Under Section ${int(r, 2, 40)}.${int(r, 1, 9)}, ${flat}`, flat, file, page(p)), p.pieces);
      const changed = changeNumber(r, reworded);
      if (changed && !occursIn(doc, changed)) add('CLAIM true quote, reworded claim with one number changed', 'claim', nativeAnswer(changed, flat, file, page(p)), p.pieces);
    }

    // Anthropic exchanges with the document in the request, no title.
    if (isPlainText(doc)) {
      const plain = plainTextOf(doc, corpus);
      if (plain) {
        for (const p of samplePassages(r, doc, toks, ANTHROPIC_PER_DOC)) {
          const piece = p.pieces[0] as Piece;
          const at = plain.segStart.get(piece.segId);
          const last = p.pieces[p.pieces.length - 1] as Piece;
          const endAt = plain.segStart.get(last.segId);
          if (at === undefined || endAt === undefined) continue;
          const a = at + piece.start;
          const b = endAt + last.end;
          const doc0: AnthropicDocument = { kind: 'text', data: plain.data };
          add('Anthropic: plain-text document without a title, char_location', 'positive', anthropicAnswer(dehyphenate(p.text), { type: 'char_location', cited_text: plain.data.slice(a, b), start_char_index: a, end_char_index: b }, doc0), p.pieces);
        }
        for (const p of repeatedShortPassages(r, doc, toks, ANTHROPIC_PER_DOC)) {
          const piece = p.pieces[0] as Piece;
          const at = plain.segStart.get(piece.segId);
          if (at === undefined) continue;
          // The tool's copy of the text: trailing spaces cut and blank lines squeezed, so its offsets are not ours.
          const sq = squeezed(plain.data);
          const a = sq.map(at + piece.start);
          const b = sq.map(at + piece.end - 1) + 1;
          add('Anthropic: short repeated cited_text, char_location in a re-spaced copy', 'positive', anthropicAnswer(p.text, { type: 'char_location', cited_text: sq.text.slice(a, b), start_char_index: a, end_char_index: b }, { kind: 'text', data: sq.text, title: doc.file }), p.pieces);
        }
      }
    } else if (doc.isPdf) {
      let b64 = pdfBase64.get(doc.id);
      if (b64 === undefined) {
        let bytes: Buffer | null = null;
        try {
          bytes = fs.readFileSync(path.join(corpus, doc.file));
        } catch {
          bytes = null;
        }
        // An encrypted PDF is no document a model can read.
        b64 = bytes && !bytes.includes('/Encrypt') ? bytes.toString('base64') : '';
        pdfBase64.set(doc.id, b64);
      }
      if (b64) {
        for (const p of samplePassages(r, doc, toks, 2)) {
          if (p.page === null) continue;
          add('Anthropic: PDF sent as base64 without a title, page_location', 'positive', anthropicAnswer(dehyphenate(p.text), { type: 'page_location', cited_text: dehyphenate(p.text), start_page_number: p.page, end_page_number: p.page + 1 }, { kind: 'pdf', base64: b64 }), p.pieces, repeated(p.text) ? { repeated: true } : {});
        }
      }
    }
  }
  return cites;
}
