import { beginText, endText, moveText, PDFDocument, setFontAndSize, showText, StandardFonts } from 'pdf-lib';

/**
 * A PDF whose every line is a content stream of its own, each Flate-compressed: pdf.js inflates
 * each through its own DecompressionStream (a zlib handle), all at once per page. It is the load
 * that crashed the host when a worker thread was torn down mid-inflate, so the cancel stress test
 * and bench use it.
 */
export async function makeInflateHeavyPdf(pageCount: number, linesPerPage = 4): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Cancel stress document');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pageCount; p++) {
    const page = doc.addPage([612, 792]);
    const fontName = page.node.newFontDictionary('F', font.ref);
    for (let l = 0; l < linesPerPage; l++) {
      const line = `Page ${p}, line ${l + 1}: the retention schedule keeps audit records for seven years.`;
      const ops = [beginText(), setFontAndSize(fontName, 11), moveText(72, 720 - l * 16), showText(font.encodeText(line)), endText()];
      page.node.addContentStream(doc.context.register(doc.context.contentStream(ops)));
    }
  }
  return doc.save({ useObjectStreams: false });
}

/** The same PDF with a comment after its end: other bytes (another SHA-256, another source), the same text. */
export function variant(pdf: Uint8Array, n: number): Uint8Array {
  return Buffer.concat([pdf, Buffer.from(`\n% variant ${n}\n`, 'latin1')]);
}
