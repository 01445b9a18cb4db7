/**
 * Answer imports, each format from a real file, on both engines (issue 13, Done-when 1): on
 * PostgreSQL the ingested workspace is moved there first, then each answer is imported, verified
 * and read back there as a reviewer; "stores nothing" is checked on the engine's own tables.
 */
import { expect, it } from 'vitest';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import { IMPORT_FORMATS } from '../../../shared/imports/model.ts';
import { VerificationResult } from '../../../shared/verification/result-schema.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { engineSnapshot } from '../../support/engine-rows.ts';
import { describeEngines, type Opened } from '../../support/engines.ts';
import { ingestAll, type PolicyWorkspace, policyWorkspace } from '../../support/policy-workspace.ts';
import { callHandler } from '../../support/workspace.ts';

/** Two contracts' terms, the same sentence on pages 1 and 3 (the Web Annotation test). */
const TERMS_PAGES = [
  { lines: ['Terms for suppliers.', 'Payment is due within 30 days.', 'Late payment incurs interest.'] },
  { lines: ['Unrelated page about parking.'] },
  { lines: ['Terms for customers.', 'Payment is due within 30 days.', 'Refunds follow the same rule.'] },
];

describeEngines('answer imports through the services, each format from a real file', (engine) => {
  // One workspace per engine (the policy and the terms ingested, then moved); each test imports its own answers.
  let shared: Promise<Opened<PolicyWorkspace>> | undefined;
  const open = () =>
    (shared ??= engine.open(
      async (s) => {
        const ws = await policyWorkspace(s);
        await ingestAll(s, [writeFile(ws.docs, 'terms.pdf', await makePdf(TERMS_PAGES))]);
        return ws;
      },
      { as: 'reviewer', scope: 'suite' },
    ));

  const imported = async (name: string, content: string): Promise<AnswerDetail> => {
    const { services, prepared: ws } = await open();
    const file = writeFile(ws.docs, name, content);
    const reply = await services.dispatch('answers.import', readAnswerFile(file));
    if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    return reply.value as AnswerDetail;
  };
  const statuses = (d: AnswerDetail) => Object.fromEntries(d.citations.map((c) => [c.marker, c.result?.status]));

  it('Anthropic response: end_page_number is exclusive, titles map to workspace files', async () => {
    const response = {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'The policy grants ' },
        {
          type: 'text',
          text: 'fourteen days of annual leave',
          citations: [
            // Page 3 alone: [3, 4).
            { type: 'page_location', cited_text: 'Employees receive 14 days of annual leave per calendar year.', document_index: 0, document_title: 'HR_Policy.pdf', start_page_number: 3, end_page_number: 4 },
            // Page 2 alone: [2, 3) — the quote is on p. 3, so it was found elsewhere.
            { type: 'page_location', cited_text: 'Employees receive 14 days of annual leave per calendar year.', document_index: 0, document_title: 'HR_Policy.pdf', start_page_number: 2, end_page_number: 3 },
            // Pages 2–3: [2, 4).
            { type: 'page_location', cited_text: 'Unused leave lapses on 31 March of the following year.', document_index: 0, document_title: 'HR Policy', start_page_number: 2, end_page_number: 4 },
          ],
        },
        { type: 'text', text: '. New starters get ' },
        {
          type: 'text',
          text: 'a laptop on day one',
          citations: [{ type: 'char_location', cited_text: 'New starters receive a laptop on their first day.', document_index: 1, document_title: 'onboarding-notes', start_char_index: 18, end_char_index: 67 }],
        },
        { type: 'text', text: '.' },
      ],
      stop_reason: 'end_turn',
    };
    const d = await imported('claude-response.json', JSON.stringify(response, null, 2));
    expect(d.answer.format).toBe('anthropic-messages');
    expect(statuses(d)).toEqual({ '1': 'verified', '2': 'verified_elsewhere', '3': 'verified', '4': 'verified' });
    expect(d.citations[0]?.claimedLocator).toEqual({ page: 3 });
    expect(d.citations[2]?.claimedLocator).toEqual({ page: 2, pageEnd: 3 });
    expect(d.citations[0]?.result?.page).toBe(3);
    expect(d.citations[3]?.source?.fileName).toBe('onboarding-notes.txt');
    expect(d.citations[0]?.claim).toBe('fourteen days of annual leave');
  });

  it('Markdown with footnotes and a Sources list', async () => {
    const md = `# What are the leave and overtime rules?

Employees receive 14 days of annual leave per year.[^1] Overtime must be approved in writing [^2], and
staff may not work more than 48 hours a week [S3].

[^1]: "Employees receive 14 days of annual leave per calendar year." — HR_Policy.pdf, p. 3
[^2]: “Overtime must be approved in writing by the line manager.” — HR_Policy.pdf, p. 2

## Sources
- [S3] HR_Policy.pdf p. 3: "Staff may not work more than 48 hours in any week."
`;
    const d = await imported('answer.md', md);
    expect(d.answer.format).toBe('markdown');
    expect(d.answer.question).toBe('What are the leave and overtime rules?');
    expect(statuses(d)).toEqual({ '1': 'verified', '2': 'verified', S3: 'verified_elsewhere' });
    expect(d.citations[2]?.result?.page).toBe(2);
    // Two markers in one sentence: each citation claims its own clause.
    expect(d.citations[1]?.claim).toBe('Overtime must be approved in writing.');
    expect(d.citations[2]?.claim).toBe('Staff may not work more than 48 hours a week.');
  });

  it('evidence ledger', async () => {
    const ledger = {
      question: 'Expenses?',
      entries: [
        { claim_id: 'E1', claim_text: 'Travel expenses are reimbursed within 30 days.', verdict: 'supported', evidence_snippet: 'reimbursed within 30 days of a complete claim', source_document: { filename: 'HR_Policy.pdf', page_number: 4 } },
        { claim_id: 'E2', claim_text: 'Receipts must be kept for ten years.', verdict: 'supported', evidence_snippet: 'Receipts must be kept for six years.', source_document: { filename: 'HR_Policy.pdf', page_number: 4 } },
      ],
    };
    const d = await imported('ledger.json', JSON.stringify(ledger));
    expect(d.answer.format).toBe('evidence-ledger');
    expect(d.citations.map((c) => [c.marker, c.result?.status, c.result?.verdict])).toEqual([
      ['E1', 'verified', 'supported'],
      ['E2', 'verified', 'contradicted'],
    ]);
    expect(d.citations[1]?.result?.notes).toContain("the ledger's own verdict: supported");
  });

  it('Web Annotation: prefix and suffix choose between repeated occurrences', async () => {
    const { services } = await open();
    const annotation = (selector: Record<string, unknown>) => ({
      '@context': 'http://www.w3.org/ns/anno.jsonld',
      type: 'Annotation',
      body: { type: 'TextualBody', value: 'Customers must pay within 30 days.' },
      target: { source: 'file:///shared/contracts/terms.pdf', selector: [{ type: 'TextQuoteSelector', exact: 'Payment is due within 30 days.', ...selector }, { type: 'TextPositionSelector', start: 21, end: 51 }] },
    });
    const page = { type: 'AnnotationPage', items: [annotation({ prefix: 'Terms for customers. ' }), annotation({ suffix: ' Late payment' }), annotation({})] };
    const d = await imported('annotations.jsonld', JSON.stringify(page));
    expect(d.answer.format).toBe('w3c-web-annotation');
    expect(d.citations.map((c) => c.result?.page)).toEqual([3, 1, 1]);
    expect(d.citations.every((c) => c.result?.status === 'verified')).toBe(true);
    expect(d.citations[0]?.claimedLocator).toMatchObject({ quotePrefix: 'Terms for customers. ', charStart: 21, charEnd: 51 });
    // Re-verification reads the stored prefix back and lands on the same page.
    expect((await callHandler<AnswerDetail>(services, 'answers.verify', { id: d.answer.id })).citations[0]?.result?.page).toBe(3);
  });

  it('refuses an unknown file with ANSWER_FORMAT_UNKNOWN and stores nothing', async () => {
    const opened = await open();
    const { services, prepared: ws } = opened;
    const before = await engineSnapshot(opened);
    const file = writeFile(ws.docs, 'minutes.txt', 'Minutes of the meeting.\nNothing was decided.\n');
    const reply = await services.dispatch('answers.import', readAnswerFile(file));
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('ANSWER_FORMAT_UNKNOWN');
    expect(reply.error.message).toContain('minutes.txt');
    for (const f of IMPORT_FORMATS) expect(reply.error.message).toContain(f);
    expect(await engineSnapshot(opened)).toBe(before);
    const inline = await services.dispatch('answers.check', { content: '{"hello": 1}', fileName: 'hello.json' });
    expect(inline.ok ? null : inline.error.code).toBe('ANSWER_FORMAT_UNKNOWN');
  });

  it('lists and gets stored answers; check stores nothing', async () => {
    const content = '{"format":"evidence-desk/answer@1","question":"Q?","answer":"A [1]","citations":[{"marker":"1","claim":"Leave is 14 days.","quote":"14 days of annual leave","source":{"file":"HR_Policy.pdf"}}]}';
    const opened = await open();
    const { services } = opened;
    const before = await engineSnapshot(opened);
    const listedBefore = await callHandler<{ id: number }[]>(services, 'answers.list', {});
    const checked = await services.dispatch('answers.check', { content, fileName: 'inline.json' });
    expect(checked.ok).toBe(true);
    VerificationResult.parse(checked.ok ? checked.value : null);
    expect(await engineSnapshot(opened)).toBe(before);
    const stored = await services.dispatch('answers.import', { content, fileName: 'inline.json' });
    expect(stored.ok).toBe(true);
    const id = stored.ok ? (stored.value as AnswerDetail).answer.id : 0;
    // The newest answer first, above those the suite's other tests imported.
    const list = await callHandler<{ id: number }[]>(services, 'answers.list', {});
    expect(list).toHaveLength(listedBefore.length + 1);
    expect(list[0]).toMatchObject({ id, format: 'evidence-desk/answer@1', origin: 'import:inline.json', question: 'Q?', citationCount: 1, latestRun: { summary: { total: 1 } } });
    const got = await services.dispatch('answers.detail', { id });
    expect(got.ok && (got.value as AnswerDetail).verification?.citations[0]?.status).toBe('verified');
    const none = await services.dispatch('answers.detail', { id: 999 });
    expect(none.ok ? null : none.error.code).toBe('ANSWER_NOT_FOUND');
  });
});
