import fs from 'node:fs';
import path from 'node:path';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';

export interface PageSpec {
  /** Lines of text, drawn top to bottom in one column. */
  lines: string[];
  /** Extra columns drawn side by side (multi-column pages). */
  columns?: string[][];
  rotate?: 0 | 90 | 180 | 270;
}

/** A real PDF with known text on known pages (Helvetica, WinAnsi), as bytes. */
export async function makePdf(pages: PageSpec[], title = 'Evidence Desk test document'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
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
