// Citations as they come from people and AI systems, checked end to end on generated documents:
// printed page labels, loose source names, quotes over a page break past running heads, across
// the columns of a two-column page, along a DOCX table row, in Chinese without the PDF's line
// breaks; elided quotes; and quotes that change a number (never verified, claim contradicted).
import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import { PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { candidateTerms } from '../../../shared/anchoring/index.ts';
import { parseAnswerFile } from '../../../electron/services/verification/parse-answer-file.ts';
import { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { AnchoringStore } from '../../../electron/services/store/anchoring-store.ts';
import { SearchStore } from '../../../electron/services/store/search-store.ts';
import { citationInputs, Verifier, type CitationOutcome } from '../../../electron/services/verification/verifier.ts';
import { makePdf, writeFile, type PageSpec } from '../../support/pdf-fixtures.ts';
import { rng } from '../../support/random.ts';
import type { TestServices } from '../../support/workspace.ts';
import { ingestAll, nativeAnswer, policyWorkspace } from '../../support/policy-workspace.ts';
import { withDocsWorkspace } from './docs-workspace.ts';

type Services = TestServices;

function check(services: Services, docs: string, citations: Record<string, unknown>[]): Record<string, VerificationResult['citations'][number]> {
  const file = writeFile(docs, `answer-${Math.random().toString(36).slice(2)}.json`, nativeAnswer(citations));
  const v = VerificationResult.parse(services.answers.check(readAnswerFile(file)));
  return Object.fromEntries(v.citations.map((c) => [c.marker, c]));
}

/** A PDF whose pages carry printed labels: roman front matter, then arabic from 1. */
async function labelledPdf(pages: PageSpec[], romanPages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf(pages, 'Reference Manual'));
  doc.catalog.set(PDFName.of('PageLabels'), doc.context.obj({ Nums: [0, { S: 'r' }, romanPages, { S: 'D' }] }));
  return doc.save({ useObjectStreams: false });
}

describe('citations as written in the wild, verified through the services', () => {
  let services: Services;
  let docs: string;
  withDocsWorkspace((opened) => ({ services, docs } = opened));

  it('reads a claimed page as its printed label: "p. ii", a printed number, a label the source lacks', async () => {
    const pages: PageSpec[] = [
      { lines: ['Preface', 'This manual describes the reporting tools of the statistics package.'] },
      { lines: ['Contents', 'The contents list every function of the package in alphabetical order.'] },
      { lines: ['Chapter 1', 'The summary function prints quantiles of every numeric column.'] },
      { lines: ['Chapter 2', 'The plot function draws a scatter plot of two numeric columns.'] },
      { lines: ['Chapter 3', 'The export function writes a table to a comma separated file.'] },
    ];
    await ingestAll(services, [writeFile(docs, 'refman.pdf', await labelledPdf(pages, 2))]);
    const md = (quote: string, loc: string): string => `Question: What does the manual say?\n\nIt says so [1].\n\n[1]: “${quote}” — refman.pdf, ${loc}\n`;
    const checkMd = (content: string) => VerificationResult.parse(services.answers.check({ content, fileName: 'a.md' })).citations[0];

    expect(checkMd(md('every function of the package in alphabetical order', 'p. ii'))).toMatchObject({ status: 'verified', match: { page: 2 } });
    // "p. 2" as printed: physical page 4. Either reading of the number is the claimed location.
    const printed = checkMd(md('draws a scatter plot of two numeric columns', 'p. 2'));
    expect(printed).toMatchObject({ status: 'verified', match: { page: 4 } });
    expect(printed?.notes.join(' ')).toMatch(/page printed "2" \(p\. 4 of the file\)/);
    const physical = checkMd(md('every function of the package in alphabetical order', 'p. 2'));
    expect(physical).toMatchObject({ status: 'verified', match: { page: 2 } });
    // A label or a page the source does not have is a wrong location, not an absent one.
    const noLabel = checkMd(md('writes a table to a comma separated file', 'p. xiv'));
    expect(noLabel).toMatchObject({ status: 'verified_elsewhere', match: { page: 5 } });
    expect(noLabel?.notes.join(' ')).toMatch(/no page labelled "xiv"/);
    const byId = check(services, docs, [{ marker: '1', claim: 'c', quote: 'writes a table to a comma separated file', source: { file: 'refman.pdf' }, locator: { page: 9 } }]);
    expect(byId['1']).toMatchObject({ status: 'verified_elsewhere', match: { page: 5 } });
    expect(byId['1']?.notes.join(' ')).toMatch(/no page 9/);
  });

  it('resolves loose source names and titles, and never guesses between several', async () => {
    const ws = await policyWorkspace(services);
    const text = (s: string): string => `${s}\n\nThe remaining paragraphs are intentionally left blank.\n`;
    await ingestAll(services, [
      writeFile(ws.docs, 'r-fullrefman.txt', text('The apply function applies a function over the margins of an array.')),
      writeFile(ws.docs, 'freeculture.txt', text('Free cultures are cultures that leave a great deal open for others to build upon.')),
      writeFile(ws.docs, 'annual-report-2023.txt', text('Revenue grew by four percent in the first year.')),
      writeFile(ws.docs, 'annual-report-2024.txt', text('Revenue grew by six percent in the second year.')),
    ]);
    const by = check(services, ws.docs, [
      { marker: '1', claim: 'c', quote: 'Overtime must be approved in writing by the line manager.', source: { file: 'hr-policy.PDF' } },
      { marker: '2', claim: 'c', quote: 'applies a function over the margins of an array', source: { title: 'R Full Reference Manual' } },
      { marker: '3', claim: 'c', quote: 'leave a great deal open for others to build upon', source: { file: 'free culture.pdf' } },
      { marker: '4', claim: 'c', quote: 'Receipts must be kept for six years.', source: { title: 'hr policy' } },
      { marker: '5', claim: 'c', quote: 'Revenue grew by four percent', source: { title: 'Annual Report' } },
      { marker: '6', claim: 'c', quote: 'Receipts must be kept for six years.', source: { file: 'Budget_2023.xlsx' } },
    ]);
    expect(by['1']).toMatchObject({ status: 'verified', match: { file: 'HR_Policy.pdf', page: 2 } });
    expect(by['1']?.notes.join(' ')).toMatch(/"hr-policy\.PDF" read as HR_Policy\.pdf \("HR Policy"\)/);
    expect(by['2']).toMatchObject({ status: 'verified', match: { file: 'r-fullrefman.txt' } });
    expect(by['3']).toMatchObject({ status: 'verified', match: { file: 'freeculture.txt' } });
    expect(by['4']).toMatchObject({ status: 'verified', match: { file: 'HR_Policy.pdf' } });
    expect(by['5']).toMatchObject({ status: 'source_unknown', match: null });
    expect(by['5']?.notes.join(' ')).toMatch(/could be any of 2 sources \(annual-report-2023\.txt, annual-report-2024\.txt\)/);
    expect(by['6']?.status).toBe('source_unknown');
  });

  it('finds a quote over a page break past the running head and foot, and one over the columns of a page', async () => {
    const report: PageSpec[] = [
      { lines: ['Annual Report 2024', 'The new building will open in the spring and the old site', 'will close at the end of the same year, after the remu-', '- 11 -'] },
      { lines: ['12    Annual Report 2024', 'neration review. Staff will be consulted about the move.', 'The canteen stays open.'] },
      {
        lines: [],
        columns: [
          ['Tracing compilers record the hot paths', 'of a loop and compile them into a trace', 'tree that covers the common cases of exe-'],
          ['cution with type-specialized machine code', 'guarded by checks on every type.'],
        ],
      },
    ];
    await ingestAll(services, [writeFile(docs, 'report.pdf', await makePdf(report))]);
    const by = check(services, docs, [
      { marker: '1', claim: 'The old site closes after the remuneration review.', quote: 'the old site will close at the end of the same year, after the remuneration review. Staff will be consulted', source: { file: 'report.pdf' }, locator: { page: 1 } },
      { marker: '2', claim: 'Traces cover the common cases.', quote: 'a trace tree that covers the common cases of execution with type-specialized machine code', source: { file: 'report.pdf' }, locator: { page: 3 } },
    ]);
    expect(by['1']).toMatchObject({ status: 'verified', score: 1, match: { page: 1 } });
    expect(by['1']?.notes.join(' ')).toMatch(/runs on to p\. 2/);
    expect(by['1']?.notes.join(' ')).toMatch(/running head \/ foot .*skipped: "- 11 - 12 Annual Report 2024"/);
    expect(by['2']).toMatchObject({ status: 'verified', score: 1, match: { page: 3 } });
  });

  it('verifies elided quotes part by part and never a quote with a changed number', async () => {
    const ws = await policyWorkspace(services);
    const by = check(services, ws.docs, [
      { marker: '1', claim: 'Unused leave lapses on 31 March.', quote: 'Employees receive 14 days of annual leave … lapses on 31 March of the following year.', source: { file: 'HR_Policy.pdf' }, locator: { page: 3 } },
      { marker: '2', claim: 'Travel expenses are reimbursed within 45 days.', quote: 'Travel expenses are reimbursed within 45 days of a complete claim.', source: { file: 'HR_Policy.pdf' }, locator: { page: 4 } },
      { marker: '3', claim: 'Staff may not work more than 48 hours.', quote: 'Staff may not work more than 48 hours … Unused leave lapses', source: { file: 'HR_Policy.pdf' }, locator: { page: 2 } },
    ]);
    expect(by['1']).toMatchObject({ status: 'verified', verdict: 'supported', score: 1, match: { page: 3 } });
    expect(by['1']?.match?.text).toMatch(/^Employees receive 14 days of annual leave per calendar year\.\s+Unused leave lapses on 31 March of the following year\.$/);
    expect(by['1']?.notes.join(' ')).toMatch(/leaves out text in one place.*found in order/);
    // The quote is the source's sentence but for its number: not found as written, claim contradicted.
    expect(by['2']).toMatchObject({ status: 'not_found', verdict: 'contradicted', match: null, score: 0 });
    expect(by['2']?.notes.join(' ')).toMatch(/not in HR_Policy\.pdf as written: on p\. 4 the source has the same words with other numbers \(30 where the quote has 45\)/);
    expect(by['2']?.notes.join(' ')).toMatch(/45 days.*30 days/);
    // Parts may sit on neighbouring pages: in order and within reach.
    expect(by['3']).toMatchObject({ status: 'verified', match: { page: 2 } });
    expect(by['3']?.notes.join(' ')).toMatch(/runs on to p\. 3/);
    const file = writeFile(ws.docs, 'flags.json', nativeAnswer([{ marker: '2', claim: 'Travel expenses are reimbursed within 45 days.', quote: 'Travel expenses are reimbursed within 45 days of a complete claim.', source: { file: 'HR_Policy.pdf' } }]));
    const v = VerificationResult.parse(services.answers.check(readAnswerFile(file)));
    expect(v.riskFlags.map((f) => f.code)).toEqual(expect.arrayContaining(['contradiction', 'missing_evidence']));
  });
});

describe('candidate narrowing where FTS cannot help, in sources too large to scan whole', () => {
  let services: Services;
  let docs: string;
  let verifier: Verifier;
  withDocsWorkspace((opened) => {
    ({ services, docs } = opened);
    // A small full-scan limit stands in for a large source: only narrowed candidates are searched.
    verifier = new Verifier(new AnchoringStore(services.db), new SearchStore(services.db), { fullScanChars: 300 });
  });

  const verify = (content: string, fileName = 'a.json'): CitationOutcome => {
    const input = citationInputs(parseAnswerFile(content, fileName))[0];
    if (!input) throw new Error('no citation');
    return verifier.verifyCitation(input);
  };

  it('finds a Chinese quote typed without the line breaks the source wraps it with (no FTS terms)', async () => {
    const r = rng(2024);
    const han = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质'.split('');
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      let line = '';
      for (let j = 0; j < 28; j++) line += han[Math.floor(r() * han.length)];
      lines.push(line);
    }
    const text = `${lines.map((l, i) => (i % 6 === 5 ? `${l}。\n` : `${l}\n`)).join('')}`;
    const file = writeFile(docs, 'zh-manual.txt', text);
    await ingestAll(services, [file]);
    // 20 characters from the end of line 201 into line 202, typed as one run.
    const quote = `${lines[200]?.slice(18)}${lines[201]?.slice(0, 10)}`;
    const o = verify(nativeAnswer([{ marker: '1', claim: '一个说法', quote, source: { file: 'zh-manual.txt' } }]));
    expect(o.status).toBe('verified');
    expect(o.match?.score).toBe(1);
    expect(o.match?.text.replace(/\n/g, '')).toBe(quote);
    // Neither the claimed location (none), FTS (no terms) nor a full scan (too large) found it.
    expect(candidateTerms(quote)).toEqual([]);
    expect((services.db.prepare('SELECT sum(length(text)) AS n FROM segments').get() as { n: number }).n).toBeGreaterThan(300);
  });

  /** Paragraphs of filler with the given lines placed among them (line numbers as in the file). */
  function filler(special: Record<number, string>, count = 60): string {
    const lines: string[] = [];
    for (let i = 1; i <= count; i++) lines.push(special[i] ?? `Paragraph ${i} describes routine matters of procedure and nothing else.`);
    return `${lines.join('\n')}\n`;
  }

  it('finds words the source spells with ligature characters (oﬃce, ﬁnancial) through full-text search', async () => {
    await ingestAll(services, [writeFile(docs, 'typeset.txt', filler({ 40: 'The oﬃce of ﬁnancial aﬀairs keeps the ledgers.' }))]);
    const o = verify(nativeAnswer([{ marker: '1', claim: 'An office keeps the ledgers.', quote: 'office of financial affairs', source: { file: 'typeset.txt' } }]));
    expect(o).toMatchObject({ status: 'verified', match: { text: 'oﬃce of ﬁnancial aﬀairs' } });
  });

  it('finds a heading the PDF draws letter-spaced ("F I N A N C I A L   S T A T E M E N T S") through full-text search', async () => {
    const body = (n: number): string[] => [`Page ${n} lists the routine matters of procedure and nothing else.`, 'The board met twice and approved the minutes.'];
    const pages: PageSpec[] = [
      { lines: body(1) },
      { lines: ['F I N A N C I A L   S T A T E M E N T S', ...body(2)] },
      { lines: ['S u m m a r y   o f   A c c o u n t s', ...body(3)] },
      { lines: body(4) },
    ];
    await ingestAll(services, [writeFile(docs, 'tracked.pdf', await makePdf(pages))]);
    const o = verify(nativeAnswer([{ marker: '1', claim: 'There are statements.', quote: 'Financial Statements', source: { file: 'tracked.pdf' } }]));
    // pdfjs keeps one space for the wide gap; the match is a normalised one all the same, and
    // exactly the letter-spaced characters, not the line around them.
    expect(o).toMatchObject({ status: 'verified', match: { page: 2, score: 1, method: 'normalised', text: 'F I N A N C I A L S T A T E M E N T S' } });
    const summary = verify(nativeAnswer([{ marker: '1', claim: 'A summary.', quote: 'summary of accounts', source: { file: 'tracked.pdf' } }]));
    expect(summary).toMatchObject({ status: 'verified', match: { page: 3, score: 1, text: 'S u m m a r y o f A c c o u n t s' } });
    // Found through FTS (the letters as a phrase), not by a full scan: the source is over the limit.
    expect(`${o.notes.join(' ')} ${summary.notes.join(' ')}`).not.toMatch(/whole source/);
    expect((services.db.prepare('SELECT sum(length(text)) AS n FROM segments').get() as { n: number }).n).toBeGreaterThan(300);
  });

  it('places a short quote of common words by the TextQuoteSelector context around it', async () => {
    const text = filler({ 12: 'At that time the board was small.', 45: 'The rules changed in 1998. At that time the whole project was new.' });
    await ingestAll(services, [writeFile(docs, 'history.txt', text)]);
    const annotation = {
      type: 'Annotation',
      body: { type: 'TextualBody', value: 'The project was new then.' },
      target: { source: 'history.txt', selector: { type: 'TextQuoteSelector', exact: 'At that time', prefix: 'The rules changed in 1998. ', suffix: ' the whole project was new.' } },
    };
    const o = verify(JSON.stringify(annotation));
    expect(o.status).toBe('verified');
    expect(o.match?.segment.lineStart).toBeLessThanOrEqual(45);
    expect(o.match?.segment.text.slice(o.match.start - 27, o.match.start)).toBe('The rules changed in 1998. ');
  });

  it('takes the claimed line to choose between repeats of a short quote in one passage', async () => {
    await ingestAll(services, [writeFile(docs, 'leave.txt', 'Annual leave is counted in days.\nAnnual leave is pro-rated for part-time staff.\nSick leave is separate.\n')]);
    const o = verify(nativeAnswer([{ marker: '1', claim: 'Leave is pro-rated.', quote: 'annual leave', source: { file: 'leave.txt' }, locator: { line: 2 } }]));
    expect(o).toMatchObject({ status: 'verified', match: { start: 33 } });
  });

  it('finds a quote along a DOCX table row: cells are blocks of their own', async () => {
    const cells = (row: string[]): TableRow => new TableRow({ children: row.map((c) => new TableCell({ children: [new Paragraph(c)] })) });
    const rows = [['Name', 'Sport', 'Fame', 'Controversy']];
    for (let i = 0; i < 30; i++) rows.push([`Player number ${i}`, i % 2 ? 'Baseball' : 'Football', i % 3 ? 'Moderate' : 'High', `Incident ${i}`]);
    rows.splice(17, 0, ['Lebron James', 'Basketball', 'Very High', 'Leaving Cleveland']);
    const doc = new Document({ sections: [{ children: [new Paragraph('Athletes and their reputations'), new Table({ rows: rows.map(cells) }), new Paragraph('End of the table.')] }] });
    await ingestAll(services, [writeFile(docs, 'athletes.docx', new Uint8Array(await Packer.toBuffer(doc)))]);
    const o = verify(nativeAnswer([{ marker: '1', claim: 'LeBron James is very famous.', quote: 'Lebron James Basketball Very High Leaving Cleveland', source: { file: 'athletes.docx' } }]));
    expect(o.status).toBe('verified');
    expect(o.match?.segment.text).toBe('Lebron James');
    expect(o.match?.endSegment?.text).toBe('Leaving Cleveland');
  });
});
