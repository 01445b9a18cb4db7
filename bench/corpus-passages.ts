/**
 * Text of the real corpus as the verification harness samples it: documents with their stored
 * segments, the harness's own ground truth of "the same text", passages of whole tokens, and
 * passages that run over a page break past the page furniture.
 */
import type { SegmentRow } from '../electron/services/store/sources-store.ts';
import type { Rng } from '../test/support/random.ts';

export interface Piece {
  segId: number;
  start: number;
  end: number;
}


/**
 * The harness's own notion of "the same text" (its ground truth), independent of the engine's
 * normaliser so that every engine version is measured on the same citations: compatibility forms,
 * case, whitespace, hyphens, dashes and invisible characters aside.
 */
export function groundKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u00AD\u200B-\u200F\u2010-\u2015\u2212\u2060\uFEFF-]+/g, '')
    .replace(/[“”„«»]/g, '"')
    .replace(/[‘’‚]/g, "'");
}

export interface Doc {
  id: number;
  sha256: string;
  file: string;
  title: string | null;
  isPdf: boolean;
  segs: SegmentRow[];
  /** The document's text as ground-truth keys ("is this text really there?"). */
  dense: string;
}

export interface Passage {
  doc: Doc;
  /** The original text, as stored (line breaks, hyphens, ligatures and all). */
  text: string;
  pieces: Piece[];
  page: number | null;
  label: string | null;
}


export const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
export const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
/** A CJK character is a word of its own; elsewhere words are runs of non-space. */
export const TOKEN_RE = new RegExp(`[${CJK}]|[^\\s${CJK}]+`, 'gu');
export const CJK_PAIR_BREAK = new RegExp(`([${CJK}\\u3000-\\u303f\\uff00-\\uffef])\\s*\\n\\s*(?=[${CJK}\\u3000-\\u303f\\uff00-\\uffef])`, 'gu');

export interface Tok {
  seg: number;
  start: number;
  end: number;
  letters: boolean;
}

export function tokens(doc: Doc): Tok[] {
  const out: Tok[] = [];
  doc.segs.forEach((s, i) => {
    if (s.no_text_layer) return;
    for (const m of s.text.matchAll(TOKEN_RE)) out.push({ seg: i, start: m.index, end: m.index + m[0].length, letters: /\p{L}{2,}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(m[0]) });
  });
  return out;
}

export function passageOf(doc: Doc, toks: Tok[], a: number, b: number): Passage {
  const pieces: Piece[] = [];
  for (let i = a; i <= b; i++) {
    const t = toks[i] as Tok;
    const seg = doc.segs[t.seg] as SegmentRow;
    const last = pieces[pieces.length - 1];
    if (last && last.segId === seg.id) last.end = t.end;
    else pieces.push({ segId: seg.id, start: t.start, end: t.end });
  }
  const byId = new Map(doc.segs.map((s) => [s.id, s]));
  const text = pieces.map((p) => (byId.get(p.segId) as SegmentRow).text.slice(p.start, p.end)).join('\n');
  const first = doc.segs[(toks[a] as Tok).seg] as SegmentRow;
  return { doc, text, pieces, page: first.page, label: first.page_label };
}

/** Passages of 8–40 words, mostly words with letters; PDF passages stay on one page. */
export function samplePassages(r: Rng, doc: Doc, toks: Tok[], count: number, filter: (p: Passage) => boolean = () => true, minWords = 8): Passage[] {
  const out: Passage[] = [];
  const seen = new Set<number>();
  for (let tries = 0; out.length < count && tries < count * 40; tries++) {
    if (toks.length < minWords) break;
    const len = int(r, minWords, Math.min(40, toks.length));
    const a = int(r, 0, toks.length - len);
    const b = a + len - 1;
    if (seen.has(a)) continue;
    const ta = toks[a] as Tok;
    const tb = toks[b] as Tok;
    if (doc.isPdf && ta.seg !== tb.seg) continue;
    // Other formats: a passage may run over a few blocks (table cells, wrapped lines), not far.
    if (tb.seg - ta.seg > 6) continue;
    let letters = 0;
    for (let i = a; i <= b; i++) if ((toks[i] as Tok).letters) letters++;
    if (letters < len * 0.6) continue;
    const p = passageOf(doc, toks, a, b);
    if (!filter(p)) continue;
    seen.add(a);
    out.push(p);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Page furniture: running heads and feet, page numbers. A quote that runs over a page break skips them.

function lineShape(line: string): string {
  return line.toLowerCase().replace(/\d+/g, '#').replace(/\b[ivxlcdm]+\b/g, '#').replace(/\s+/g, ' ').trim();
}

function furnitureShapes(doc: Doc): Set<string> {
  const counts = new Map<string, number>();
  let pages = 0;
  for (const s of doc.segs) {
    const lines = s.text.split('\n').filter((l) => l.trim());
    if (lines.length === 0) continue;
    pages++;
    const edge = new Set([...lines.slice(0, 2), ...lines.slice(-2)].map(lineShape));
    for (const e of edge) counts.set(e, (counts.get(e) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, n]) => n >= 3 && n >= pages * 0.08).map(([k]) => k));
}

function isFurniture(line: string, seg: SegmentRow, shapes: Set<string>): boolean {
  const t = line.trim();
  if (!t) return true;
  if (/^[\divxlcdmIVXLCDM\s.–-]{1,12}$/.test(t)) return true;
  if (shapes.has(lineShape(t))) return true;
  const words = t.split(/\s+/);
  const marks = [String(seg.page ?? ''), seg.page_label ?? ''].filter((x) => x);
  return words.length <= 12 && marks.some((m) => words[0] === m || words[words.length - 1] === m);
}

/** Body text range of a page: furniture lines at its top and bottom (at most 3 each) left out. */
function bodyRange(seg: SegmentRow, shapes: Set<string>): { start: number; end: number } {
  const lines: { start: number; end: number }[] = [];
  let at = 0;
  for (const l of seg.text.split('\n')) {
    lines.push({ start: at, end: at + l.length });
    at += l.length + 1;
  }
  let a = 0;
  let b = lines.length;
  while (a < b && a < 3 && isFurniture(seg.text.slice(lines[a]?.start, lines[a]?.end), seg, shapes)) a++;
  while (b > a && lines.length - b < 3 && isFurniture(seg.text.slice(lines[b - 1]?.start, lines[b - 1]?.end), seg, shapes)) b--;
  return { start: lines[a]?.start ?? 0, end: lines[b - 1]?.end ?? 0 };
}

export function pageBreakPassages(r: Rng, doc: Doc, count: number): Passage[] {
  if (!doc.isPdf) return [];
  const shapes = furnitureShapes(doc);
  const out: Passage[] = [];
  const pairs: number[] = [];
  for (let i = 0; i + 1 < doc.segs.length; i++) {
    const a = doc.segs[i] as SegmentRow;
    const b = doc.segs[i + 1] as SegmentRow;
    if (a.page !== null && b.page === a.page + 1 && a.text.trim().length > 200 && b.text.trim().length > 200) pairs.push(i);
  }
  for (let tries = 0; out.length < count && pairs.length > 0 && tries < count * 10; tries++) {
    const i = pick(r, pairs);
    const a = doc.segs[i] as SegmentRow;
    const b = doc.segs[i + 1] as SegmentRow;
    const ra = bodyRange(a, shapes);
    const rb = bodyRange(b, shapes);
    const ta = [...a.text.slice(ra.start, ra.end).matchAll(TOKEN_RE)].map((m) => ({ start: ra.start + m.index, end: ra.start + m.index + m[0].length }));
    const tb = [...b.text.slice(rb.start, rb.end).matchAll(TOKEN_RE)].map((m) => ({ start: rb.start + m.index, end: rb.start + m.index + m[0].length }));
    const na = int(r, 4, 18);
    const nb = int(r, 4, 18);
    if (ta.length < na || tb.length < nb) continue;
    const sa = ta[ta.length - na] as { start: number };
    const ea = ta[ta.length - 1] as { end: number };
    const eb = tb[nb - 1] as { end: number };
    const sb = tb[0] as { start: number };
    const text = `${a.text.slice(sa.start, ea.end)}\n${b.text.slice(sb.start, eb.end)}`;
    if ((text.match(/\p{L}{2,}/gu) ?? []).length < (na + nb) * 0.5) continue;
    out.push({ doc, text, pieces: [{ segId: a.id, start: sa.start, end: ea.end }, { segId: b.id, start: sb.start, end: eb.end }], page: a.page, label: a.page_label });
  }
  return out;
}

/** Whether the text truly occurs in the document (spacing and case aside). */
export function occursIn(doc: Doc, text: string): boolean {
  const n = groundKey(text);
  return n.length > 0 && doc.dense.includes(n);
}
