/**
 * A generated report input with one citation of every status and verdict, decisions of every kind
 * (accepted, rejected, flagged, none, cleared, with history), a marker group whose citations come
 * in reverse order, a marker no citation has, a citation no marker points at, and quotes that would
 * be markup, formulas or CSV structure if a renderer forgot to escape them.
 */
import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { buildReport, type CitationInput, type ReportInput, type SourceInput } from '../../../shared/report/build.ts';
import type { Report, ReportExcerpt } from '../../../shared/report/schema.ts';

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A real PNG of the given size (grey, one dark band), as a data: URI. */
export function pngDataUri(width: number, height: number): string {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    rows[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) rows[y * (width + 1) + 1 + x] = y > height / 3 && y < (2 * height) / 3 ? 40 : 235;
  }
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

const hashOf = (text: string): string => sha256Hex(Buffer.from(text));

export const SOURCES: SourceInput[] = [
  { id: 11, title: 'Leave Policy 2024', fileName: 'HR_Policy.pdf', path: '/docs/HR_Policy.pdf', sha256: hashOf('pdf'), size: 1_234_567, kind: 'pdf', health: 'ok', snapshot: true, authors: ['Jane Smith', 'Doe, John'], date: '2024-03-01' },
  { id: 12, title: null, fileName: 'handbook.docx', path: '/docs/handbook.docx', sha256: hashOf('docx'), size: 20_480, kind: 'docx', health: 'modified', snapshot: true, authors: ['Acme Corporation Ltd'], date: '2023' },
  { id: 13, title: 'Meeting notes', fileName: 'notes.txt', path: null, sha256: hashOf('txt'), size: 512, kind: 'text', health: 'missing', snapshot: false, authors: [], date: null },
  // Cited by no citation: must not appear in the report.
  { id: 14, title: 'Unrelated', fileName: 'other.pdf', path: '/docs/other.pdf', sha256: hashOf('other'), size: 1, kind: 'pdf', health: 'ok', snapshot: true, authors: [], date: null },
];

export const SCRIPT_QUOTE = 'Requests go to <script>alert("x & y")</script> HR & Payroll\'s desk';
export const FORMULA_QUOTE = '=HYPERLINK("http://example.invalid","click"), then "sign", here';

export const EXCERPT: ReportExcerpt = {
  image: { dataUri: pngDataUri(60, 18), width: 60, height: 18 },
  boxes: [{ x: 4, y: 6, width: 40, height: 6 }, { x: 0, y: 12, width: 20, height: 5 }],
  caption: 'p. xii (12) of HR_Policy.pdf, around the quote',
};

const t = (minute: number): string => `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z`;

const base = { context: null, unknownSource: null, claimed: {}, notes: [], reviews: [] } satisfies Partial<CitationInput>;

export const CITATIONS: CitationInput[] = [
  {
    ...base, id: 101, marker: '1', claim: 'Employees get 14 days of annual leave.', quote: 'Employees are entitled to 14 days of annual leave.', sourceId: 11, claimed: { page: 12 },
    status: 'verified', verdict: 'supported', score: 1, context: '… Section 4. Employees are entitled to 14 days of annual leave. Leave …',
    match: { sha256: hashOf('pdf'), unit: 'page', page: 12, pageLabel: 'xii', endPage: 12, block: null, endBlock: null, line: null, endLine: null, start: 120, end: 170, firstEnd: null, lastStart: null, method: 'exact', text: 'Employees are entitled to 14 days of annual leave.' },
    reviews: [
      { decision: 'accepted', note: 'Matches the table on p. xii', at: t(5), reviewer: 'Ada Lovelace' },
      { decision: 'flagged', note: 'Check the page label', at: t(1), reviewer: 'Grace Hopper' },
    ],
    excerpt: EXCERPT,
  },
  {
    ...base, id: 102, marker: '2', claim: 'Requests go to HR.', quote: SCRIPT_QUOTE, sourceId: 12, claimed: { paragraph: 7 },
    status: 'verified_elsewhere', verdict: 'weak', score: 0.97,
    match: { sha256: hashOf('docx'), unit: 'block', page: null, pageLabel: null, endPage: null, block: 3, endBlock: 3, line: null, endLine: null, start: 0, end: 60, firstEnd: null, lastStart: null, method: 'normalised', text: 'Requests go to HR & Payroll' },
    reviews: [{ decision: 'rejected', note: 'Wrong department', at: t(6), reviewer: 'Ada Lovelace' }],
  },
  {
    ...base, id: 103, marker: '3', claim: 'Requests must be in writing.', quote: FORMULA_QUOTE + '\nsecond line', sourceId: 11, claimed: { page: 14 },
    status: 'partial', verdict: 'weak', score: 0.81, notes: ['The quote runs on to p. 15.'],
    match: { sha256: hashOf('pdf'), unit: 'page', page: 14, pageLabel: '14', endPage: 15, block: null, endBlock: null, line: null, endLine: null, start: 900, end: 40, firstEnd: 960, lastStart: 12, method: 'fuzzy', text: 'Requests, in writing, to HR' },
    reviews: [{ decision: 'flagged', note: 'Ask the author', at: t(7), reviewer: 'Grace Hopper' }],
  },
  {
    ...base, id: 104, marker: '4', claim: 'Carry-over is limited to 5 days.', quote: 'Up to five days may be carried over.', sourceId: 12, claimed: { paragraph: 9 },
    status: 'not_found', verdict: 'not_found', score: 0, match: null,
  },
  {
    ...base, id: 105, marker: '5', claim: 'The 2019 report agrees.', quote: 'As reported in 2019.', sourceId: null, unknownSource: 'Annual Report 2019',
    status: 'source_unknown', verdict: 'not_found', score: 0, match: null,
    reviews: [{ decision: 'accepted', note: 'Known to the team; not in this workspace', at: t(8), reviewer: 'Ada Lovelace' }],
  },
  {
    ...base, id: 106, marker: '6', claim: 'The policy applies to contractors.', quote: null, sourceId: 13, context: 'Contractors follow the same rules.',
    status: 'no_quote', verdict: 'supported', score: 0, match: null,
    reviews: [
      { decision: 'accepted', note: null, at: t(2), reviewer: 'Ada Lovelace' },
      { decision: 'cleared', note: 'Undo', at: t(9), reviewer: 'Ada Lovelace' },
    ],
  },
  {
    ...base, id: 107, marker: '7', claim: 'Notice is 30 days.', quote: 'Notice of 14 days is required.', sourceId: 13, claimed: { line: 10 },
    status: 'verified', verdict: 'contradicted', score: 0.95,
    match: { sha256: hashOf('txt'), unit: 'line', page: null, pageLabel: null, endPage: null, block: null, endBlock: null, line: 10, endLine: 12, start: 4, end: 30, firstEnd: null, lastStart: null, method: 'normalised', text: 'Notice of 14 days is required.' },
    reviews: [
      { decision: 'accepted', note: 'Looked fine', at: t(3), reviewer: 'Grace Hopper' },
      { decision: 'rejected', note: 'Source says 14, not 30', at: t(10), reviewer: 'Ada Lovelace' },
    ],
  },
  {
    // No marker in the text points at this one.
    ...base, id: 108, marker: '8', claim: 'Leave is approved by a manager.', quote: 'A manager approves leave.', sourceId: 13,
    status: 'verified', verdict: 'supported', score: 1,
    match: { sha256: hashOf('txt'), unit: 'line', page: null, pageLabel: null, endPage: null, block: null, endBlock: null, line: 20, endLine: 20, start: 0, end: 25, firstEnd: null, lastStart: null, method: 'exact', text: 'A manager approves leave.' },
  },
];

export const ANSWER_TEXT =
  'Employees get 14 days of annual leave [1]. Requests go to HR, in writing [3, 2].\n' +
  '# Not a heading: carry-over is limited [4][5]; the 2019 report agrees.\n\n' +
  'The policy applies to contractors [6] & <b>notice</b> is 30 days [7]. See also [1] and [12].';

export function reportInput(overrides: Partial<ReportInput['options']> = {}): ReportInput {
  return {
    answer: { id: 42, origin: 'answer.json', question: 'What does the <leave> policy say?', text: ANSWER_TEXT },
    citations: CITATIONS,
    sources: SOURCES,
    provenance: { workspaceId: 'ws-7f3a', runId: 9, appVersion: '0.1.0', exportedAt: '2026-11-24T11:00:00.000Z', auditHead: 'a'.repeat(64) },
    options: { citations: 'all', excerpts: true, notes: true, reviewer: 'Ada Lovelace', ...overrides },
  };
}

export function fixtureReport(overrides: Partial<ReportInput['options']> = {}): Report {
  return buildReport(reportInput(overrides), sha256Hex);
}
