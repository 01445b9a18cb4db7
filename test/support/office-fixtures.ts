// PowerPoint and Excel files for tests (issue 14), written by well-kept writers: pptxgenjs and exceljs.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';

/**
 * A three-slide deck: a title slide; a results slide with a title, a body lower down placed before
 * the title in the file (reading order must put the title first), a table with a header row and
 * first column, and speaker notes; a closing slide with two text boxes side by side.
 */
export async function buildDeck(): Promise<Uint8Array> {
  const pptx = new PptxGenJS();
  pptx.title = 'Quarterly Review';
  pptx.author = 'Finance Team';
  pptx.layout = 'LAYOUT_16x9';

  const first = pptx.addSlide();
  first.addText('Quarterly Review FY2024', { x: 0.5, y: 1.5, w: 9, h: 1, fontSize: 36 });
  first.addText('Prepared by the finance team for the board.', { x: 0.5, y: 3, w: 9, h: 0.8, fontSize: 18 });

  const second = pptx.addSlide();
  // Written first, placed last: reading order follows the slide, not the file.
  second.addText('Revenue grew because enterprise renewals came in early.', { x: 0.5, y: 4.6, w: 9, h: 0.6, fontSize: 14 });
  second.addText('Revenue by region', { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28, bold: true });
  second.addTable(
    [
      [{ text: 'Region' }, { text: 'FY2023' }, { text: 'FY2024' }],
      [{ text: 'North' }, { text: '1,050' }, { text: '1,200' }],
      [{ text: 'South' }, { text: '870' }, { text: '915' }],
    ],
    { x: 0.5, y: 1.4, w: 9, colW: [3, 3, 3], fontSize: 14 },
  );
  second.addNotes('Mention that the South figure excludes the Lisbon office.');

  const third = pptx.addSlide();
  third.addText('Hiring stays frozen until March.', { x: 5.2, y: 1.5, w: 4.3, h: 1, fontSize: 16 });
  third.addText('Travel budgets are cut by ten percent.', { x: 0.5, y: 1.5, w: 4.3, h: 1, fontSize: 16 });

  const out = (await pptx.write({ outputType: 'uint8array' })) as Uint8Array;
  return markTitle(out, 'ppt/slides/slide2.xml', 'Revenue by region');
}

/**
 * pptxgenjs writes text boxes, not title placeholders: the slide's title box becomes a title
 * placeholder here, as PowerPoint's own slides have them (<p:ph type="title"/>).
 */
async function markTitle(bytes: Uint8Array, part: string, title: string): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file(part)!.async('string');
  const at = xml.indexOf(`>${title}<`);
  const sp = xml.lastIndexOf('<p:sp>', at);
  const nvPr = xml.indexOf('<p:nvPr>', sp);
  const nvPrEmpty = xml.indexOf('<p:nvPr/>', sp);
  let next: string;
  if (nvPrEmpty >= 0 && (nvPr < 0 || nvPrEmpty < nvPr) && nvPrEmpty < at) next = `${xml.slice(0, nvPrEmpty)}<p:nvPr><p:ph type="title"/></p:nvPr>${xml.slice(nvPrEmpty + 9)}`;
  else next = `${xml.slice(0, nvPr + 8)}<p:ph type="title"/>${xml.slice(nvPr + 8)}`;
  zip.file(part, next);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/**
 * A workbook: "Revenue" with a header row, region names down column A, numbers formatted "#,##0",
 * a formula total and a percentage; "Notes" with a sentence; a third sheet "Empty".
 */
export async function buildWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Finance Team';
  wb.title = 'Revenue workbook';
  const rev = wb.addWorksheet('Revenue');
  rev.addRow(['Region', 'FY2023', 'FY2024', 'Growth']);
  rev.addRow(['North', 1050, 1200, 0.142857]);
  rev.addRow(['South', 870, 915, 0.0517]);
  rev.addRow(['Total', { formula: 'SUM(B2:B3)', result: 1920 }, { formula: 'SUM(C2:C3)', result: 2115 }, null]);
  for (const col of ['B', 'C']) rev.getColumn(col).numFmt = '#,##0';
  rev.getColumn('D').numFmt = '0.0%';
  const notes = wb.addWorksheet('Notes');
  notes.getCell('A1').value = 'Figures are in thousands of euros.';
  notes.getCell('B3').value = 'Audited by Smith & Partners on 12 March.';
  wb.addWorksheet('Empty');
  const buf = await wb.xlsx.writeBuffer();
  return new Uint8Array(buf as ArrayBuffer);
}

/** The same package with one part's compressed bytes damaged (its ZIP entry can no longer be inflated). */
export async function damagePart(bytes: Uint8Array, part: string): Promise<Uint8Array> {
  // Stored with DEFLATE, then the part's data overwritten in place: the central directory stays sound.
  const zip = await JSZip.loadAsync(bytes);
  const rebuilt = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  const out = rebuilt.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 30 < out.length; at++) {
    if (view.getUint32(at, true) !== 0x04034b50) continue;
    const nameLen = view.getUint16(at + 26, true);
    const extraLen = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(out.subarray(at + 30, at + 30 + nameLen));
    if (name !== part) continue;
    const start = at + 30 + nameLen + extraLen;
    const size = view.getUint32(at + 18, true);
    for (let i = start; i < start + size; i++) out[i] = 0xff;
    return out;
  }
  throw new Error(`no part ${part}`);
}

/**
 * What an Office file protected by a password looks like from outside: an OLE compound file (CFB)
 * whose directory names the streams EncryptionInfo and EncryptedPackage (MS-OFFCRYPTO).
 */
export function encryptedOfficeFile(): Uint8Array {
  const out = new Uint8Array(4096);
  out.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 0);
  const names = ['EncryptionInfo', 'EncryptedPackage'];
  names.forEach((n, i) => out.set(Buffer.from(n, 'utf16le'), 1024 + i * 128));
  return out;
}
