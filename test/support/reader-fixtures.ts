import { PDFDict, PDFDocument, PDFHexString, PDFName, StandardFonts, type PDFRef } from 'pdf-lib';

export interface OutlineEntry {
  title: string;
  /** 1-based page the entry points at. */
  page: number;
  children?: OutlineEntry[];
}

export interface ReaderPdfSpec {
  /** Each page's lines of text, top to bottom. */
  pages: string[][];
  /** Pages before `frontMatter` are labelled i, ii, …; the rest 1, 2, … (as a book prints them). */
  frontMatter?: number;
  outline?: OutlineEntry[];
}

const ROMAN: [number, string][] = [
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];
/** Small roman numerals, as /PageLabels style r prints them (enough for front matter). */
export function roman(n: number): string {
  let out = '';
  for (const [v, s] of ROMAN) {
    while (n >= v) {
      out += s;
      n -= v;
    }
  }
  return out;
}

/** The label the fixture gives page `page` (1-based). */
export function readerLabel(page: number, frontMatter = 0): string {
  return page <= frontMatter ? roman(page) : String(page - frontMatter);
}

/** A book-like PDF: text pages, roman-numbered front matter, and an outline (bookmarks) with nesting. */
export async function makeReaderPdf(spec: ReaderPdfSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Evidence Desk reader fixture');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of spec.pages) {
    const page = doc.addPage([612, 792]);
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 720 - i * 18, size: 12, font }));
  }
  balancePageTree(doc);
  const front = spec.frontMatter ?? 0;
  if (front > 0) {
    const nums = [0, doc.context.obj({ S: 'r' }), front, doc.context.obj({ S: 'D' })];
    doc.catalog.set(PDFName.of('PageLabels'), doc.context.obj({ Nums: nums }));
  }
  if (spec.outline && spec.outline.length > 0) {
    const root = doc.context.nextRef();
    const count = addOutlineLevel(doc, root, spec.outline);
    doc.context.assign(root, doc.context.obj({ Type: 'Outlines', First: count.first, Last: count.last, Count: count.count }));
    doc.catalog.set(PDFName.of('Outlines'), root);
  }
  return doc.save({ useObjectStreams: false });
}

function addOutlineLevel(doc: PDFDocument, parent: PDFRef, entries: OutlineEntry[]): { first: PDFRef; last: PDFRef; count: number } {
  const refs = entries.map(() => doc.context.nextRef());
  let count = entries.length;
  entries.forEach((e, i) => {
    const ref = refs[i] as PDFRef;
    const dict = doc.context.obj({
      Title: PDFHexString.fromText(e.title),
      Parent: parent,
      Dest: [doc.getPage(e.page - 1).ref, 'Fit'],
      ...(i > 0 ? { Prev: refs[i - 1] as PDFRef } : {}),
      ...(i < refs.length - 1 ? { Next: refs[i + 1] as PDFRef } : {}),
    });
    if (e.children && e.children.length > 0) {
      const kids = addOutlineLevel(doc, ref, e.children);
      dict.set(PDFName.of('First'), kids.first);
      dict.set(PDFName.of('Last'), kids.last);
      // Negative: closed until the reader opens it.
      dict.set(PDFName.of('Count'), doc.context.obj(-kids.count));
      count += kids.count;
    }
    doc.context.assign(ref, dict);
  });
  return { first: refs[0] as PDFRef, last: refs[refs.length - 1] as PDFRef, count };
}

/**
 * The page tree as pdfTeX and Acrobat write it, balanced (a few kids per node), not pdf-lib's one
 * flat list: a viewer finds page 2,301 through a handful of nodes, as in a real long document.
 */
function balancePageTree(doc: PDFDocument, fanout = 8): void {
  const rootRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
  const setParent = (ref: PDFRef, parent: PDFRef) => doc.context.lookup(ref, PDFDict).set(PDFName.of('Parent'), parent);
  let level = doc.getPages().map((p) => ({ ref: p.ref, count: 1 }));
  while (level.length > fanout) {
    const next: { ref: PDFRef; count: number }[] = [];
    for (let i = 0; i < level.length; i += fanout) {
      const group = level.slice(i, i + fanout);
      const ref = doc.context.nextRef();
      const count = group.reduce((n, g) => n + g.count, 0);
      doc.context.assign(ref, doc.context.obj({ Type: 'Pages', Kids: group.map((g) => g.ref), Count: count }));
      for (const g of group) setParent(g.ref, ref);
      next.push({ ref, count });
    }
    level = next;
  }
  doc.catalog.Pages().set(PDFName.of('Kids'), doc.context.obj(level.map((l) => l.ref)));
  for (const l of level) setParent(l.ref, rootRef);
}
