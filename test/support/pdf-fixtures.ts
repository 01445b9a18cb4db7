import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { degrees, PDFArray, PDFDocument, PDFName, PDFRef, PDFString, StandardFonts } from 'pdf-lib';

export interface PageSpec {
  /** Lines of text, drawn top to bottom in one column. */
  lines: string[];
  /** Extra columns drawn side by side (multi-column pages). */
  columns?: string[][];
  rotate?: 0 | 90 | 180 | 270;
}

/** Document properties written into the PDF's Info dictionary. */
export interface PdfProperties {
  author?: string;
  created?: Date;
}

/** A real PDF with known text on known pages (Helvetica, WinAnsi), as bytes. */
export async function makePdf(pages: PageSpec[], title = 'Evidence Desk test document', props: PdfProperties = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  if (props.author !== undefined) doc.setAuthor(props.author);
  if (props.created !== undefined) doc.setCreationDate(props.created);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage([612, 792]);
    const columns = spec.columns ?? [spec.lines];
    const width = (612 - 72 * 2) / columns.length;
    columns.forEach((lines, c) => {
      lines.forEach((line, i) => {
        page.drawText(line, { x: 72 + c * width, y: 720 - i * 18, size: 12, font });
      });
    });
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
  }
  return doc.save({ useObjectStreams: false });
}

export function writeFile(dir: string, name: string, bytes: Uint8Array | string): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** The three-page document the slice tests use: each page says which page it is. */
export function threePages(): PageSpec[] {
  return [1, 2, 3].map((n) => ({
    lines: [
      `Evidence Desk fixture, page ${n} of 3.`,
      n === 3 ? 'The third page holds the leave policy: 14 days of annual leave.' : `Ordinary text on page number ${n}.`,
      'A second line so the page has more than one text item.',
    ],
  }));
}

export const FIXTURES_DIR = path.resolve(import.meta.dirname, '..', 'fixtures');

// ---------------------------------------------------------------------------------------------
// PDFs as they arrive from the wild: damaged, updated, labelled. pdf-lib writes a classic xref
// table (useObjectStreams: false), so byte surgery on the saved file is predictable.

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');
const fromLatin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));

/** Every xref entry's offset pushed `by` bytes off its object, as after a careless edit. */
export function withShiftedXref(pdf: Uint8Array, by = 7): Uint8Array {
  const s = latin1(pdf);
  const at = s.lastIndexOf('\nxref');
  const table = s.slice(at).replace(/^(\d{10}) 00000 n/gm, (_m, d: string) => String(Number(d) + by).padStart(10, '0') + ' 00000 n');
  return fromLatin1(s.slice(0, at) + table);
}

/** Bytes after %%EOF (a mail gateway's footer, a botched download) and junk before %PDF-. */
export function withJunkAround(pdf: Uint8Array): Uint8Array {
  return fromLatin1('JUNK BEFORE THE HEADER\n' + latin1(pdf) + '\n\x00\x01<html>trailing garbage</html>\n'.repeat(40));
}

/**
 * Page `pageIndex` (0-based) drawn by a Flate stream whose first block has the invalid type 3, so
 * that pdf.js throws on that page and on no other.
 */
export async function withDamagedPage(pdf: Uint8Array, pageIndex: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  const damaged = doc.context.stream(new Uint8Array([0x78, 0x9c, 0x07, 0x00, 0x00, 0xff]), { Filter: 'FlateDecode' });
  doc.getPage(pageIndex).node.set(PDFName.of('Contents'), doc.context.register(damaged));
  return doc.save({ useObjectStreams: false });
}

/**
 * An incremental update, as Acrobat saves an edit: a new version of page `pageIndex`'s content
 * stream (one line of text) appended with its own xref section and a trailer pointing at the old one.
 */
export async function withIncrementalUpdate(pdf: Uint8Array, pageIndex: number, text: string): Promise<Uint8Array> {
  const s = latin1(pdf);
  const doc = await PDFDocument.load(pdf);
  const contents = doc.getPage(pageIndex).node.lookup(PDFName.of('Contents'), PDFArray).get(0) as PDFRef;
  const font = /\/(Helvetica-\d+) \d+ 0 R/.exec(s)?.[1];
  const root = /\/Root (\d+ \d+ R)/.exec(s)?.[1];
  const size = /\/Size (\d+)/.exec(s)?.[1];
  const prev = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(s)?.[1];
  if (!font || !root || !size || !prev) throw new Error('not a pdf-lib file with a classic xref table');
  const stream = `BT /${font} 12 Tf 72 720 Td (${text}) Tj ET`;
  const object = `${contents.objectNumber} 0 obj\n<< /Length ${stream.length} >>\nstream\n${stream}\nendstream\nendobj\n`;
  const objectAt = s.length + 1;
  const xrefAt = objectAt + object.length;
  const xref = `xref\n0 1\n0000000000 65535 f \n${contents.objectNumber} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n`;
  const trailer = `trailer\n<< /Size ${size} /Root ${root} /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return fromLatin1(`${s}\n${object}${xref}${trailer}`);
}

/** Page labels as a /PageLabels number tree: [first page index, { S, P, St }] pairs. */
export async function withPageLabels(pdf: Uint8Array, ranges: [number, { S?: 'D' | 'R' | 'r' | 'A' | 'a'; P?: string; St?: number }][]): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  const nums = ranges.flatMap(([from, { S, P, St }]) => [
    from,
    doc.context.obj({ ...(S ? { S } : {}), ...(P !== undefined ? { P: PDFString.of(P) } : {}), ...(St !== undefined ? { St } : {}) }),
  ]);
  doc.catalog.set(PDFName.of('PageLabels'), doc.context.obj({ Nums: nums }));
  return doc.save({ useObjectStreams: false });
}

/**
 * A one-page application form: printed text, two filled-in fields (a text field and a choice), a
 * checked box and an empty field; `flatten` draws the fields into the page as Acrobat's "print to PDF" does.
 */
export async function makeFilledForm(flatten = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Application for annual leave.', { x: 72, y: 720, size: 12, font });
  const form = doc.getForm();
  const name = form.createTextField('applicant.name');
  name.setText('Jane Q. Applicant');
  name.addToPage(page, { x: 72, y: 650, width: 300, height: 24 });
  const country = form.createDropdown('country');
  country.addOptions(['France', 'Norway']);
  country.select('Norway');
  country.addToPage(page, { x: 72, y: 610, width: 200, height: 24 });
  const agree = form.createCheckBox('agree');
  agree.check();
  agree.addToPage(page, { x: 72, y: 570, width: 12, height: 12 });
  form.createTextField('remarks').addToPage(page, { x: 72, y: 530, width: 300, height: 24 });
  form.updateFieldAppearances(font);
  if (flatten) form.flatten();
  return doc.save({ useObjectStreams: false });
}

/**
 * A PDF whose pages hold no text, only one image each filling the page, declared `width` × `height`
 * pixels (DeviceRGB, 8 bits) with a few KB of image data: a page "scanned" at that size, cheap to make.
 */
export async function makeImagePages(sizes: [number, number][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const data = zlib.deflateSync(Buffer.alloc(4096, 0x80));
  for (const [width, height] of sizes) {
    const page = doc.addPage([612, 792]);
    const image = doc.context.stream(data, { Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceRGB', BitsPerComponent: 8, Filter: 'FlateDecode' });
    page.node.setXObject(PDFName.of('Im1'), doc.context.register(image));
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream('q 612 0 0 792 0 0 cm /Im1 Do Q')));
  }
  return doc.save({ useObjectStreams: false });
}
