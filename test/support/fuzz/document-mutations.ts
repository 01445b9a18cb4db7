/**
 * Corpus-like documents (a PDF, a DOCX, a PowerPoint deck, an Excel workbook, an HTML page, a text
 * file, Markdown) generated here, and byte-level damage to them: bit flips, truncation, a chunk
 * duplicated or deleted, a range zeroed or overwritten. Shared by the mutated-documents fuzz test
 * and bench/fuzz.bench.ts.
 */
import { buildDeck, buildWorkbook } from '../office-fixtures.ts';
import fc from 'fast-check';
import { PDFDocument } from 'pdf-lib';
import { makePdf, type PageSpec } from '../pdf-fixtures.ts';
import { makeWordPackage, para, run } from '../word-fixtures.ts';

const PAGES: PageSpec[] = [
  { lines: ['Human Resources Policy', 'Version 3, approved by the board in January 2024.'] },
  { lines: ['Section 3: Leave', 'Employees receive 14 days of annual leave per calendar year.', 'Unused leave lapses on 31 March of the following year.'] },
  { lines: [], columns: [['Left column text about expenses.', 'Receipts are kept.'], ['Right column text.', 'Travel is reimbursed.']] },
];

/** The same pages saved with object streams and a cross-reference stream, as Acrobat does. */
async function withObjectStreams(pdf: Uint8Array): Promise<Uint8Array> {
  return (await PDFDocument.load(pdf)).save({ useObjectStreams: true });
}

/** A Word package with headings, a table, a tracked change and footnotes: several parts to damage. */
function wordDocument(): Promise<Uint8Array> {
  return makeWordPackage({
    styles: '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>',
    body: [
      para(run('Section 3: Leave'), 'Heading1'),
      para(`${run('Employees receive 14 days of annual leave.')}<w:r><w:footnoteReference w:id="1"/></w:r>`),
      para(`<w:ins w:id="9" w:author="HR">${run(' Inserted words.')}</w:ins><w:del w:id="10" w:author="HR"><w:r><w:delText>deleted words</w:delText></w:r></w:del>`),
      `<w:tbl><w:tr><w:tc>${para(run('Grade'))}</w:tc><w:tc>${para(run('Days'))}</w:tc></w:tr></w:tbl>`,
    ].join(''),
    footnotes: `<w:footnote w:id="1">${para(run('Pro rata for part-time staff.'))}</w:footnote>`,
  });
}

export const DOC_KINDS = ['pdf', 'pdf-objstm', 'docx', 'pptx', 'xlsx', 'html', 'txt', 'md'] as const;
export type DocKind = (typeof DOC_KINDS)[number];

export const EXTENSION: Record<DocKind, string> = { pdf: 'pdf', 'pdf-objstm': 'pdf', docx: 'docx', pptx: 'pptx', xlsx: 'xlsx', html: 'html', txt: 'txt', md: 'md' };

const HTML = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Leave policy</title><script>var x = "<p>not text</p>";</script><style>p{color:red}</style></head>
<body><nav>Home · Policies</nav><h1>Section 3: Leave</h1><p>Employees receive <b>14 days</b> of annual leave per calendar year.</p>
<ul><li>Unused leave lapses on 31 March.</li><li>Requests go through the staff portal.</li></ul><table><tr><td>Grade</td><td>Days</td></tr><tr><td>A</td><td>14</td></tr></table>
<pre>line one
  line two</pre><template><p>hidden</p></template><p hidden>hidden too</p><footer>© Evidence Desk — café ünïcödé 日本語</footer></body></html>`;

const TEXT = ['Onboarding notes', '', 'New starters receive a laptop on their first day.', 'Access badges are issued by the facilities team.', 'Café, naïve, 日本語, emoji 😀.', ''].join('\r\n');

const MARKDOWN = ['# Leave policy', '', 'Employees receive **14 days** of annual leave [1].', '', '- Unused leave lapses on 31 March.', '- Requests go through the portal.', '', '```', 'code block', '```', '', '[1]: https://example.org'].join('\n');

/** The unmutated documents, generated once per run. */
export async function baseDocuments(): Promise<Record<DocKind, Uint8Array>> {
  const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
  return {
    pdf: await makePdf(PAGES, 'HR Policy'),
    'pdf-objstm': await withObjectStreams(await makePdf(PAGES.slice(0, 2), 'HR Policy (object streams)')),
    docx: await wordDocument(),
    pptx: await buildDeck(),
    xlsx: await buildWorkbook(),
    html: utf8(HTML),
    txt: utf8(TEXT),
    md: utf8(MARKDOWN),
  };
}

export type ByteMutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate'; at: number; len: number }
  | { op: 'delete'; at: number; len: number }
  | { op: 'zero'; at: number; len: number }
  | { op: 'overwrite'; at: number; bytes: Uint8Array };

const chunk = fc.integer({ min: 1, max: 4096 });
export const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), len: chunk }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: chunk }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('zero' as const), at: fc.nat(), len: chunk }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('overwrite' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }) },
);

/** Damaged copy of `bytes`; positions are taken modulo the current length. */
export function mutateBytes(bytes: Uint8Array, mutations: readonly ByteMutation[]): Uint8Array {
  let b = bytes.slice();
  for (const m of mutations) {
    const n = b.length;
    if (n === 0) break;
    const at = m.at % n;
    // Chunks in proportion to the file: a 4 KB cut out of a 3 KB PDF tests nothing but the header check.
    const len = 'len' in m ? 1 + ((m.len - 1) % Math.max(1, Math.ceil(n / 8))) : 0;
    switch (m.op) {
      case 'flip':
        b[at] = (b[at] ?? 0) ^ (1 << m.bit);
        break;
      case 'truncate':
        b = b.slice(0, at);
        break;
      case 'duplicate': {
        const part = b.slice(at, at + len);
        const out = new Uint8Array(n + part.length);
        out.set(b.subarray(0, at + part.length));
        out.set(part, at + part.length);
        out.set(b.subarray(at + part.length), at + 2 * part.length);
        b = out;
        break;
      }
      case 'delete': {
        const out = new Uint8Array(n - Math.min(len, n - at));
        out.set(b.subarray(0, at));
        out.set(b.subarray(at + len), at);
        b = out;
        break;
      }
      case 'zero':
        b.fill(0, at, at + len);
        break;
      case 'overwrite':
        b.set(m.bytes.subarray(0, n - at), at);
        break;
    }
  }
  return b;
}

export interface DocumentCase {
  kind: DocKind;
  mutations: ByteMutation[];
}

export const documentCase: fc.Arbitrary<DocumentCase> = fc.record({
  kind: fc.constantFrom(...DOC_KINDS),
  mutations: fc.array(byteMutation, { minLength: 1, maxLength: 4 }),
});
