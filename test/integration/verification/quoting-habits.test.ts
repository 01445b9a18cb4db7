// Citations as people and AI systems really write them, verified end to end on generated
// documents: legal editing marks, chat formatting, list bullets, PDF text that lost its ligature
// glyphs, short quotes repeated in their document, claims that write numbers another way, and
// Anthropic exchanges with their documents.
import { expect, it } from 'vitest';
import { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import type { TestServices } from '../../support/workspace.ts';
import { describeEngines } from '../../support/engines.ts';
import { callHandler } from '../../support/workspace.ts';
import { withEngineDocs } from './docs-workspace.ts';
import { ingestAll, nativeAnswer } from '../../support/policy-workspace.ts';

type Services = TestServices;
type Checked = VerificationResult['citations'][number];

const CHARTER = [
  'Board Charter',
  '',
  'The Board shall approve the annual budget before the end of March each year. It shall also',
  'review the risk register at every second meeting. The Company shall indemnify each director',
  'against claims made in good faith. Directors recieve a fee set by the remuneration committee.',
  '',
].join('\n');

/** Checked through the handler: on PostgreSQL, over the shared pool's sources. */
async function check(services: Services, citations: Record<string, unknown>[]): Promise<Record<string, Checked>> {
  const v = VerificationResult.parse(await callHandler(services, 'answers.check', { content: nativeAnswer(citations), fileName: 'answer.json' }));
  return Object.fromEntries(v.citations.map((c) => [c.marker, c]));
}

describeEngines('quoting habits, verified through the services', (engine) => {
  let services: Services;
  let docs: string;
  withEngineDocs(engine, (opened) => ({ services, docs } = opened));

  it('verifies quotes edited with [brackets], [sic] and (emphasis added), and says what the marks stand for', async () => {
    await ingestAll(services, [writeFile(docs, 'charter.txt', CHARTER)]);
    const source = { file: 'charter.txt' };
    const by = await check(services, [
      { marker: '1', claim: 'The board approves the budget before March.', quote: '[t]he Board shall approve the annual budget before the end of March each year', source },
      { marker: '2', claim: 'The board reviews the risk register at every second meeting.', quote: 'before the end of March each year. [The Board] shall also review the risk register at every second meeting', source },
      { marker: '3', claim: 'Directors receive a fee.', quote: 'Directors recieve [sic] a fee set by the remuneration committee (emphasis added)', source },
      { marker: '4', claim: 'The board approves the budget.', quote: 'The Board shall approve the annual budget [the Company] shall indemnify each director', source },
    ]);
    expect(by['1']).toMatchObject({ status: 'verified', verdict: 'supported', score: 1, match: { line: 3, text: 'The Board shall approve the annual budget before the end of March each year' } });
    expect(by['1']?.notes.join(' ')).toMatch(/editorial marks of the quote set aside .*: \[t\]/);
    expect(by['2']).toMatchObject({ status: 'verified', verdict: 'supported', score: 1 });
    expect(by['2']?.notes.join(' ')).toMatch(/its own words in brackets where the source has other text: \[The Board\] for "It"/);
    expect(by['3']).toMatchObject({ status: 'verified', score: 1, match: { text: 'Directors recieve a fee set by the remuneration committee' } });
    expect(by['3']?.notes.join(' ')).toMatch(/set aside .*: \[sic\], \(emphasis added\)/);
    // A stand-in joins no two passages a sentence apart.
    expect(by['4']).toMatchObject({ status: 'not_found', match: null });
  });

  it('reads quotes as chat tools format them, and sources with bullets or lost ligature glyphs', async () => {
    const rules = '• Employees receive 14 days of annual leave per calendar year.\n• Unused leave lapses on 31 March of the following year.\n9. Members vote by show of hands.\n10. They may vote by proxy when absent.\n';
    const pdf = await makePdf([{ lines: ['Audit report', 'The nancial statements were audited by an independent rm.', 'Their e ect on the o ce was small.'] }]);
    await ingestAll(services, [writeFile(docs, 'rules.txt', rules), writeFile(docs, 'audit.pdf', pdf)]);
    const by = await check(services, [
      { marker: '1', claim: 'Employees get 14 days.', quote: '**Employees receive 14 days of annual leave per calendar year.**', source: { file: 'rules.txt' } },
      { marker: '2', claim: 'Unused leave lapses in March.', quote: '- per calendar year. Unused leave lapses on 31 March', source: { file: 'rules.txt' } },
      { marker: '3', claim: 'Members may vote by proxy.', quote: '`They may vote by proxy when absent`;', source: { file: 'rules.txt' } },
      { marker: '4', claim: '11. Members may vote by proxy.', quote: '11. They may vote by proxy when absent.', source: { file: 'rules.txt' } },
      { marker: '5', claim: 'The statements were audited by an independent firm.', quote: 'an independent firm', source: { file: 'audit.pdf' }, locator: { page: 1 } },
      { marker: '6', claim: 'The effect on the office was small.', quote: 'Their effect on the office was small.', source: { file: 'audit.pdf' } },
    ]);
    expect(by['1']).toMatchObject({ status: 'verified', verdict: 'supported', score: 1, match: { text: 'Employees receive 14 days of annual leave per calendar year.' } });
    expect(by['2']).toMatchObject({ status: 'verified', score: 1 });
    expect(by['2']?.match?.text).toBe('per calendar year.\n• Unused leave lapses on 31 March');
    expect(by['3']).toMatchObject({ status: 'verified', score: 1, match: { text: 'They may vote by proxy when absent' } });
    // The source numbers that rule 10: the quote's "11." is a misquote, and so is the claim's.
    expect(by['4']).toMatchObject({ status: 'not_found', verdict: 'contradicted', match: null });
    expect(by['4']?.notes.join(' ')).toMatch(/10 where the quote has 11/);
    expect(by['5']).toMatchObject({ status: 'verified', match: { page: 1, text: 'an independent rm' } });
    expect(by['5']?.score).toBeGreaterThan(0.9);
    expect(by['6']).toMatchObject({ status: 'verified', verdict: 'supported', match: { text: 'Their e ect on the o ce was small.' } });
  });

  it('supports claims that write the quote\'s numbers another way, and contradicts changed ones', async () => {
    await ingestAll(services, [writeFile(docs, 'results.txt', 'Results\n\nRevenue grew by 12% in 2023 to 5,000,000 euros, and headcount rose to twenty people on 1 March 2024.\nUnder Article 5, the quorum is 7 members.\n')]);
    const source = { file: 'results.txt' };
    const quote = 'Revenue grew by 12% in 2023 to 5,000,000 euros, and headcount rose to twenty people on 1 March 2024.';
    const by = await check(services, [
      { marker: '1', claim: 'Revenue grew 12 per cent in 2023 to €5 million, and headcount rose to 20 people on March 1, 2024.', quote, source },
      { marker: '2', claim: 'Revenue rose 15 percent in 2023.', quote, source },
      { marker: '3', claim: 'Article 5 sets a quorum of 7 members.', quote: 'the quorum is 7 members', source },
      { marker: '4', claim: 'Article 5 sets a quorum of 9 members.', quote: 'Under Article 5, the quorum is 7 members.', source },
    ]);
    expect(by['1']).toMatchObject({ status: 'verified', verdict: 'supported' });
    expect(by['2']).toMatchObject({ status: 'verified', verdict: 'contradicted' });
    expect(by['2']?.notes.join(' ')).toMatch(/15.*12%/);
    expect(by['3']?.verdict).not.toBe('contradicted');
    expect(by['4']).toMatchObject({ status: 'verified', verdict: 'contradicted' });
  });

  function exchange(document: Record<string, unknown>, citation: Record<string, unknown>): string {
    return JSON.stringify({
      request: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [document, { type: 'text', text: 'What does it say?' }] }] },
      response: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'It says so.', citations: [{ document_index: 0, document_title: (document.title as string | undefined) ?? null, ...citation }] }] },
    });
  }
  const checkOne = async (content: string): Promise<Checked> =>
    VerificationResult.parse(await callHandler(services, 'answers.check', { content, fileName: 'exchange.json' })).citations[0] as Checked;

  it('knows a PDF sent as base64 without a title by its bytes', async () => {
    const pdf = await makePdf([{ lines: ['Cover page.'] }, { lines: ['Travel expenses are reimbursed within 30 days of a complete claim.'] }]);
    await ingestAll(services, [writeFile(docs, 'expenses-policy.pdf', pdf)]);
    const document = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from(pdf).toString('base64') } };
    const c = await checkOne(exchange(document, { type: 'page_location', cited_text: 'Travel expenses are reimbursed within 30 days of a complete claim.', start_page_number: 2, end_page_number: 3 }));
    expect(c).toMatchObject({ status: 'verified', match: { file: 'expenses-policy.pdf', page: 2 } });
    // Other bytes under no title: no source, whatever the text.
    const other = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('%PDF-1.4 another file').toString('base64') } };
    expect((await checkOne(exchange(other, { type: 'page_location', cited_text: 'Travel expenses are reimbursed', start_page_number: 2, end_page_number: 3 }))).status).toBe('source_unknown');
  });

  it('places a repeated cited_text at its char_location in a copy of the text spaced otherwise', async () => {
    const stored = 'Minutes   \n\n\n\nThe board met.   \nIt approved the budget.\n\n\n\nThe board met.\nIt rejected the merger.\n';
    await ingestAll(services, [writeFile(docs, 'minutes.txt', stored)]);
    // The tool trimmed trailing spaces and squeezed blank lines: its offsets are not ours.
    const seen = 'Minutes\n\nThe board met.\nIt approved the budget.\n\nThe board met.\nIt rejected the merger.\n';
    const at = seen.lastIndexOf('The board met.');
    const c = await checkOne(exchange({ type: 'document', title: 'minutes.txt', source: { type: 'text', media_type: 'text/plain', data: seen } }, { type: 'char_location', cited_text: 'The board met.', start_char_index: at, end_char_index: at + 14 }));
    expect(c).toMatchObject({ status: 'verified', match: { line: 10 } });
    // The untitled text is the ingested file's: known by its SHA-256.
    const untitled = await checkOne(exchange({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: stored } }, { type: 'char_location', cited_text: 'It rejected the merger.', start_char_index: stored.indexOf('It rejected'), end_char_index: stored.indexOf('It rejected') + 23 }));
    expect(untitled).toMatchObject({ status: 'verified', match: { file: 'minutes.txt', line: 11 } });
  });
});
