// Generated documents for the viewer's tests: a DOCX with every kind of block mammoth makes
// (headings, runs, a line break, nested lists, a table, a link, an image, a footnote), an HTML page,
// a Markdown file and a long text file.
import { deflateSync, crc32 } from 'node:zlib';
import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';

/** A small valid PNG (a blue square), so the DOCX has an image the viewer can show. */
export function bluePng(size = 8): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.concat(Array.from({ length: size }, () => Buffer.from([0, ...Array.from({ length: size }, () => [31, 95, 191]).flat()])));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** Quotes the tests look for in the handbook, and the blocks they are in. */
export const HANDBOOK = {
  fileName: 'staff-handbook.docx',
  /** In one paragraph, after a bold run and before a footnote mark. */
  quote: '14 days of annual leave per year',
  /** Runs from the end of one paragraph into the next. */
  spanning: ['lapses on 31 March.', 'Unused days are not paid out.'],
};

export async function makeHandbookDocx(): Promise<Uint8Array> {
  const doc = new Document({
    title: 'Staff Handbook',
    numbering: {
      config: [{ reference: 'steps', levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }] }],
    },
    footnotes: { 1: { children: [new Paragraph('Pro rata for part-time staff.')] } },
    sections: [
      {
        children: [
          new Paragraph({ text: 'Staff Handbook', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Employees accrue '),
              new TextRun({ text: '14 days', bold: true }),
              new TextRun(' of annual leave per year,'),
              new FootnoteReferenceRun(1),
              new TextRun('  subject to   approval by their manager.'),
            ],
          }),
          new Paragraph({ text: 'Requests & approvals', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ children: [new TextRun('Submit requests in writing.'), new TextRun({ text: 'Managers reply within 5 working days.', break: 1 })] }),
          new Paragraph({ text: 'Plan leave early', bullet: { level: 0 } }),
          new Paragraph({ text: 'At least two weeks ahead <for trips abroad>', bullet: { level: 1 } }),
          new Paragraph({ text: 'Tell your team', bullet: { level: 0 } }),
          new Paragraph({ text: 'Open the leave form', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Choose the dates', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Allowances', heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Leave type')] }), new TableCell({ children: [new Paragraph('Days')] })] }),
              new TableRow({ children: [new TableCell({ children: [new Paragraph('Annual leave')] }), new TableCell({ children: [new Paragraph('14')] })] }),
              new TableRow({
                children: [
                  new TableCell({ children: [new Paragraph('Parental leave')] }),
                  new TableCell({ children: [new Paragraph('26 weeks'), new Paragraph('paid at full salary')] }),
                ],
              }),
            ],
          }),
          new Paragraph({
            children: [new TextRun('See '), new ExternalHyperlink({ link: 'https://example.org/hr', children: [new TextRun('the HR portal')] }), new TextRun(' for forms.')],
          }),
          new Paragraph({ children: [new ImageRun({ type: 'png', data: bluePng(), transformation: { width: 48, height: 48 } }), new TextRun(' Figure 1: the leave calendar')] }),
          new Paragraph({ text: 'Carry-over', heading: HeadingLevel.HEADING_3 }),
          new Paragraph('Up to 5 days may be carried over into the next year; the rest lapses on 31 March.'),
          new Paragraph('Unused days are not paid out.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

export const HANDBOOK_HTML = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Leave policy</title>
<style>p { color: red }</style><script>document.title = "SCRIPT";</script></head>
<body>
  <h1>Leave policy</h1>
  <p>Employees accrue <b>14&nbsp;days</b>
     of annual   leave &amp; public holidays.</p>
  <h2>Requests</h2>
  <ul><li>Plan early<ul><li>Two weeks ahead</li></ul></li><li>Tell your team</li></ul>
  <table><tr><th>Type</th><th>Days</th></tr><tr><td>Annual</td><td>14</td></tr></table>
  <pre>
line one
  indented line two</pre>
  <div>Direct text<p>Inner paragraph</p>tail text</div>
  <p>First line<br>second line &lt;tagged&gt;</p>
</body></html>
`;

export const NOTES_MARKDOWN = `---
title: Meeting notes
---

# Meeting notes

The committee met on 3 March.
It approved the budget.

## Budget

\`\`\`
total: 1.2m

items: 14
\`\`\`

- first item
- second item
`;

/**
 * A long plain-text report: paragraphs of 1 to 6 lines between blank lines, one of them (at
 * REPORT.quoteLine) holding a two-line quote.
 */
export const REPORT = {
  fileName: 'audit-report.txt',
  quoteLine: 4321,
  quote: ['The committee approved a budget of 1.2 million', 'for the 2025 programme on 3 March.'],
};

const SENTENCES = [
  'The sample of # invoices was checked against the ledger;\t% exceptions were noted.',
  'Purchase orders above the threshold (# in this batch) carried two signatures.',
  'Vendor master data changes were reviewed for # suppliers, % without a ticket.',
  'Payments were traced to bank statements for # of the selected items.',
  'Credit notes issued after the period end: %, totalling # thousand.',
  'Access rights to the payment system were confirmed for # users.',
];

export function makeReportText(lineCount = 5000): string {
  const lines: string[] = [];
  let para = 0;
  while (lines.length < lineCount) {
    const n = lines.length + 1;
    if (n === REPORT.quoteLine - 1 || n === REPORT.quoteLine + 2) {
      lines.push('');
      continue;
    }
    if (n === REPORT.quoteLine) {
      lines.push(...REPORT.quote);
      continue;
    }
    const size = 1 + (para % 6);
    if (lines.length > 0 && lines[lines.length - 1] !== '' && (para * 7 + n) % (size + 1) === 0) {
      lines.push('');
      para++;
      continue;
    }
    const sentence = SENTENCES[(n * 7) % SENTENCES.length] ?? '';
    lines.push(sentence.replace('#', String((n * 37) % 997)).replace('%', String((n * 13) % 7)));
  }
  return lines.slice(0, lineCount).join('\n') + '\n';
}
