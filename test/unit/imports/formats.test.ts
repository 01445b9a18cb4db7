import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
import { IMPORT_FORMATS, parseAnswer } from '../../../shared/imports/index.ts';

const SHA = 'a'.repeat(64);

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}

describe('native evidence-desk/answer@1', () => {
  const file = JSON.stringify(
    {
      format: 'evidence-desk/answer@1',
      question: 'How much annual leave do employees get?',
      answer: 'Employees get 14 days of annual leave [1]. Unused days lapse in March [2].',
      citations: [
        {
          marker: '1',
          claim: 'Employees get 14 days of annual leave.',
          quote: '14 days of annual leave',
          context: 'Employees receive 14 days of annual leave per calendar year.',
          source: { sha256: SHA.toUpperCase(), file: 'HR_Policy.pdf' },
          locator: { page: 12 },
          confidence: 'high',
          method: 'direct_quote',
        },
        { marker: 2, quote: '', source: { file: 'HR_Policy.pdf' }, locator: { page: 13, pageEnd: 14 }, method: 'paraphrase' },
      ],
    },
    null,
    2,
  );

  it('parses citations, sources and locators, and takes a missing claim from the marker\'s sentence', () => {
    const a = parseAnswer(file, 'answer.json');
    expect(a.format).toBe('evidence-desk/answer@1');
    expect(a.question).toBe('How much annual leave do employees get?');
    expect(a.citations).toHaveLength(2);
    expect(a.citations[0]).toMatchObject({
      marker: '1',
      quote: '14 days of annual leave',
      sourceRef: { sha256: SHA, file: 'HR_Policy.pdf' },
      locator: { page: 12 },
      method: 'direct_quote',
      confidence: 'high',
    });
    // An empty quote is no quote (a paraphrase); the claim comes from the answer text.
    expect(a.citations[1]).toMatchObject({ marker: '2', quote: null, locator: { page: 13, pageEnd: 14 }, claim: 'Unused days lapse in March.' });
  });

  it('names the file and the broken field when the format is declared but not followed', () => {
    const bad = JSON.stringify({ format: 'evidence-desk/answer@1', answer: 'x', citations: [{ marker: '1', source: {} }] });
    const e = errorOf(() => parseAnswer(bad, 'broken.json'));
    expect(e.code).toBe('ANSWER_INVALID');
    expect(e.message).toContain('broken.json');
    expect(e.message).toMatch(/citations\.0\.source/);
  });
});

describe('Markdown answers', () => {
  it('reads [^n] footnotes whose definitions carry quote, file and page, over several lines', () => {
    const md = [
      '---',
      'question: "What does the policy say about leave?"',
      '---',
      '',
      'Employees receive **14 days** of annual leave.[^1] Unused leave lapses on 31 March of the',
      'following year [^2], and carry-over needs approval [^3].',
      '',
      '[^1]: “Employees receive 14 days of annual leave per calendar year.” — HR_Policy.pdf, p. 12',
      '[^2]: "Unused leave lapses on 31 March" — HR_Policy.pdf, pp. 12–13',
      '[^3]: The manager approves any carry-over',
      '    (paraphrase) — Leave Handbook, § Carry-over',
    ].join('\n');
    const a = parseAnswer(md, 'answer.md');
    expect(a.format).toBe('markdown');
    expect(a.question).toBe('What does the policy say about leave?');
    expect(a.citations.map((c) => c.marker)).toEqual(['1', '2', '3']);
    expect(a.citations[0]).toMatchObject({
      quote: 'Employees receive 14 days of annual leave per calendar year.',
      sourceRef: { file: 'HR_Policy.pdf' },
      locator: { page: 12 },
      claim: 'Employees receive **14 days** of annual leave.',
      method: 'direct_quote',
    });
    expect(a.citations[1]).toMatchObject({ quote: 'Unused leave lapses on 31 March', locator: { page: 12, pageEnd: 13 } });
    // Two markers in one sentence: each claims the clause it closes.
    expect(a.citations[1]?.claim).toBe('Unused leave lapses on 31 March of the following year.');
    expect(a.citations[2]?.claim).toBe('Carry-over needs approval.');
    expect(a.citations[2]).toMatchObject({ quote: null, method: 'paraphrase', sourceRef: { title: 'Leave Handbook' } });
    expect(a.citations[2]?.locator.section).toBe('Carry-over');
    expect(a.answerText).not.toContain('[^1]:');
  });

  it('reads [S1] markers with a Sources list, sha256 and line locators', () => {
    const md = `## Question: Who approves overtime?

Overtime must be approved in writing by the line manager [S1]. Payment follows within 30 days [S2][S3].

## Sources
- [S1] Overtime_Rules.txt lines 4–6: "Overtime must be approved in writing by the line manager"
- [S2] payroll.docx ¶ 7: "paid within 30 days"
- [S3] sha256:${SHA} p. 2: "within thirty days"
`;
    const a = parseAnswer(md, 'a.md');
    expect(a.question).toBe('Who approves overtime?');
    expect(a.citations).toHaveLength(3);
    expect(a.citations[0]).toMatchObject({ marker: 'S1', sourceRef: { file: 'Overtime_Rules.txt' }, locator: { line: 4, lineEnd: 6 }, claim: 'Overtime must be approved in writing by the line manager.' });
    expect(a.citations[1]).toMatchObject({ marker: 'S2', sourceRef: { file: 'payroll.docx' }, locator: { paragraph: 7 }, quote: 'paid within 30 days' });
    expect(a.citations[2]).toMatchObject({ marker: 'S3', sourceRef: { sha256: SHA }, locator: { page: 2 } });
    expect(a.citations[1]?.claim).toBe('Payment follows within 30 days.');
  });

  it('reads [1]: reference definitions and notes undefined or unused markers', () => {
    const md = `Leave is 14 days [1]. Sick pay is covered elsewhere [2].

[1]: "14 days of annual leave" — HR_Policy.pdf, page 3
[9]: "never cited" — Other.pdf
`;
    const a = parseAnswer(md, 'a.md');
    expect(a.citations.map((c) => c.marker)).toEqual(['1', '2', '9']);
    expect(a.citations[1]?.notes?.[0]).toMatch(/\[2\] has no definition/);
    expect(a.citations[1]?.sourceRef).toEqual({});
    expect(a.citations[2]?.notes?.[0]).toMatch(/never cited/);
    expect(a.citations[0]?.locator).toEqual({ page: 3 });
  });

  it('ignores ordinary links and numbers in brackets', () => {
    const md = `See [the handbook](https://example.org) and the table [1].

[1]: "annual leave table" — Handbook.pdf p. 4
`;
    const a = parseAnswer(md, 'a.md');
    expect(a.citations).toHaveLength(1);
    expect(a.citations[0]?.claim).toBe('See [the handbook](https://example.org) and the table.');
  });
});

describe('Anthropic Messages API responses', () => {
  const response = {
    id: 'msg_01XYZ',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [
      { type: 'text', text: 'According to the policy, ' },
      {
        type: 'text',
        text: 'employees receive 14 days of annual leave',
        citations: [
          {
            type: 'page_location',
            cited_text: 'Employees receive 14 days of annual leave per calendar year. ',
            document_index: 0,
            document_title: 'HR_Policy.pdf',
            start_page_number: 3,
            end_page_number: 4,
          },
        ],
      },
      { type: 'text', text: ', and ' },
      {
        type: 'text',
        text: 'leave lapses at the end of March',
        citations: [
          { type: 'page_location', cited_text: 'Unused leave lapses on 31 March', document_index: 0, document_title: 'HR_Policy.pdf', start_page_number: 3, end_page_number: 5 },
          { type: 'char_location', cited_text: 'lapses on 31 March', document_index: 1, document_title: 'Leave FAQ', start_char_index: 120, end_char_index: 138 },
          { type: 'content_block_location', cited_text: 'Leave lapses.', document_index: 2, document_title: 'notes.md', start_block_index: 2, end_block_index: 4 },
        ],
      },
      { type: 'text', text: '.' },
    ],
    stop_reason: 'end_turn',
    usage: { input_tokens: 2100, output_tokens: 80 },
  };

  it('maps page_location with an exclusive end page, char and content-block locations', () => {
    const a = parseAnswer(JSON.stringify(response), 'claude.json');
    expect(a.format).toBe('anthropic-messages');
    expect(a.citations).toHaveLength(4);
    // end_page_number is exclusive: 3..4 is page 3 alone, 3..5 is pages 3–4.
    expect(a.citations[0]?.locator).toEqual({ page: 3 });
    expect(a.citations[1]?.locator).toEqual({ page: 3, pageEnd: 4 });
    expect(a.citations[2]?.locator).toEqual({ charStart: 120, charEnd: 138 });
    expect(a.citations[3]?.locator).toEqual({ paragraph: 2 });
    expect(a.citations[0]).toMatchObject({ claim: 'employees receive 14 days of annual leave', quote: 'Employees receive 14 days of annual leave per calendar year. ', sourceRef: { file: 'HR_Policy.pdf', title: 'HR_Policy.pdf', documentIndex: 0 } });
    expect(a.citations[2]?.sourceRef).toEqual({ title: 'Leave FAQ', documentIndex: 1 });
    expect(a.answerText).toBe('According to the policy, employees receive 14 days of annual leave[1], and leave lapses at the end of March[2][3][4].');
  });

  it('takes the question and document titles from a wrapping request', () => {
    const wrapped = {
      request: {
        model: 'claude-sonnet-4-5',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: '…' }, title: 'HR_Policy.pdf', citations: { enabled: true } },
              { type: 'text', text: 'How much annual leave do employees get?' },
            ],
          },
        ],
      },
      response: { ...response, content: [{ type: 'text', text: 'Fourteen days.', citations: [{ type: 'page_location', cited_text: '14 days', document_index: 0, start_page_number: 2, end_page_number: 3 }] }] },
    };
    const a = parseAnswer(JSON.stringify(wrapped), 'exchange.json');
    expect(a.question).toBe('How much annual leave do employees get?');
    expect(a.citations[0]?.sourceRef).toMatchObject({ file: 'HR_Policy.pdf', documentIndex: 0 });
    expect(a.citations[0]?.locator).toEqual({ page: 2 });
  });
});

describe('evidence-ledger JSON', () => {
  it('reads entries with claim_text, verdict, evidence_snippet and source_document', () => {
    const ledger = {
      question: 'What are the leave rules?',
      answer: 'Employees receive 14 days; leave lapses in March.',
      entries: [
        { claim_id: 'C1', claim_text: 'Employees receive 14 days of annual leave.', verdict: 'supported', confidence: 0.92, evidence_snippet: '14 days of annual leave', source_document: { filename: 'docs/HR_Policy.pdf', page_number: 3 } },
        { claim_id: 'C2', claim_text: 'Leave lapses in March.', verdict: 'weak', evidence_snippet: '', source_document: { filename: 'HR_Policy.pdf' } },
        {
          claim_text: 'Carry-over needs approval.',
          verdict: 'supported',
          evidence: [
            { evidence_snippet: 'approved by the line manager', source_document: { filename: 'Handbook.pdf', page_number: 9 } },
            { snippet: 'approval in writing', source_document: { filename: 'FAQ.txt' } },
          ],
        },
      ],
    };
    const a = parseAnswer(JSON.stringify(ledger), 'ledger.json');
    expect(a.format).toBe('evidence-ledger');
    expect(a.question).toBe('What are the leave rules?');
    expect(a.citations.map((c) => c.marker)).toEqual(['C1', 'C2', '3.1', '3.2']);
    expect(a.citations[0]).toMatchObject({ claim: 'Employees receive 14 days of annual leave.', quote: '14 days of annual leave', sourceRef: { file: 'HR_Policy.pdf' }, locator: { page: 3 }, confidence: '0.92' });
    expect(a.citations[0]?.notes).toEqual(["the ledger's own verdict: supported"]);
    expect(a.citations[1]).toMatchObject({ quote: null, method: 'paraphrase' });
    expect(a.citations[3]).toMatchObject({ quote: 'approval in writing', sourceRef: { file: 'FAQ.txt' }, claim: 'Carry-over needs approval.' });
  });

  it('accepts a bare array of entries', () => {
    const a = parseAnswer(JSON.stringify([{ claim_text: 'X is 5.', evidence_snippet: 'X is 5', source_document: { filename: 'x.txt', page_number: 1 } }]), 'l.json');
    expect(a.format).toBe('evidence-ledger');
    expect(a.answerText).toBe('X is 5. [1]');
  });
});

describe('W3C Web Annotation JSON', () => {
  it('reads TextQuoteSelector with prefix and suffix, TextPositionSelector and a page fragment', () => {
    const collection = {
      '@context': 'http://www.w3.org/ns/anno.jsonld',
      type: 'AnnotationCollection',
      label: 'Which notice period applies?',
      first: {
        type: 'AnnotationPage',
        items: [
          {
            id: 'urn:uuid:1',
            type: 'Annotation',
            body: { type: 'TextualBody', value: 'The notice period is one month.', purpose: 'commenting' },
            target: {
              source: 'file:///home/ana/cases/Contract%20A.pdf#page=4',
              selector: [
                { type: 'TextQuoteSelector', exact: 'one month', prefix: 'the notice period is ', suffix: ' for staff' },
                { type: 'TextPositionSelector', start: 1200, end: 1209 },
              ],
            },
          },
          {
            type: 'Annotation',
            body: [{ type: 'TextualBody', value: 'tag', purpose: 'tagging' }, { type: 'TextualBody', value: 'Only a position is given.' }],
            target: { source: 'https://intranet.example/docs/policy.txt', selector: { type: 'TextPositionSelector', start: 10, end: 40 } },
          },
        ],
      },
    };
    const a = parseAnswer(JSON.stringify(collection), 'notes.jsonld');
    expect(a.format).toBe('w3c-web-annotation');
    expect(a.question).toBe('Which notice period applies?');
    expect(a.citations[0]).toMatchObject({
      marker: '1',
      claim: 'The notice period is one month.',
      quote: 'one month',
      prefix: 'the notice period is ',
      suffix: ' for staff',
      sourceRef: { file: 'Contract A.pdf' },
      locator: { page: 4, charStart: 1200, charEnd: 1209 },
    });
    expect(a.citations[1]).toMatchObject({ quote: null, claim: 'Only a position is given.', sourceRef: { file: 'policy.txt' }, locator: { charStart: 10, charEnd: 40 } });
    expect(a.citations[1]?.notes?.[0]).toMatch(/no TextQuoteSelector/);
  });

  it('accepts a single annotation with a FragmentSelector', () => {
    const one = { type: 'Annotation', body: 'Claim.', target: { source: 'report.pdf', selector: [{ type: 'FragmentSelector', value: 'page=7' }, { type: 'TextQuoteSelector', exact: 'quoted' }] } };
    const a = parseAnswer(JSON.stringify(one), 'one.json');
    expect(a.citations[0]).toMatchObject({ claim: 'Claim.', quote: 'quoted', locator: { page: 7 }, sourceRef: { file: 'report.pdf' } });
  });
});

describe('format detection', () => {
  it('refuses an unknown file with ANSWER_FORMAT_UNKNOWN naming the file and every accepted format', () => {
    for (const [name, content] of [
      ['notes.txt', 'Just some notes without any citations.\nAnother line.'],
      ['data.json', JSON.stringify({ results: [1, 2, 3] })],
      ['empty.md', '  \n'],
      ['broken.json', '{ "format": "evidence-desk/answer@1", '],
    ] as const) {
      const e = errorOf(() => parseAnswer(content, name));
      expect(e.code).toBe('ANSWER_FORMAT_UNKNOWN');
      expect(e.message).toContain(name);
      for (const f of IMPORT_FORMATS) expect(e.message).toContain(f);
    }
  });

  it('detects by content, not by file name', () => {
    const md = 'Claim [1].\n\n[1]: "quote" — a.pdf p. 1\n';
    expect(parseAnswer(md, 'answer.json').format).toBe('markdown');
    const native = JSON.stringify({ format: 'evidence-desk/answer@1', answer: '', citations: [] });
    expect(parseAnswer(`\uFEFF${native}`, 'x.md').format).toBe('evidence-desk/answer@1');
  });
});

describe('page labels as claimed locators', () => {
  const native = (page: unknown): string =>
    JSON.stringify({
      format: 'evidence-desk/answer@1',
      answer: 'A claim [1].',
      citations: [{ marker: '1', claim: 'A claim.', quote: 'a quote', source: { file: 'manual.pdf' }, locator: { page } }],
    });

  it('reads a page given as printed ("iv", "T-3") in native JSON, and a numeric string as a number', () => {
    expect(parseAnswer(native('iv'), 'a.json').citations[0]?.locator).toEqual({ pageLabel: 'iv' });
    expect(parseAnswer(native('T-3'), 'a.json').citations[0]?.locator).toEqual({ pageLabel: 'T-3' });
    expect(parseAnswer(native('12'), 'a.json').citations[0]?.locator).toEqual({ page: 12 });
    expect(parseAnswer(native(12), 'a.json').citations[0]?.locator).toEqual({ page: 12 });
    const e = errorOf(() => parseAnswer(native('the preface'), 'a.json'));
    expect(e.code).toBe('ANSWER_INVALID');
    expect(e.message).toMatch(/locator\.page/);
  });

  it('reads "p. iv", "p. xxix", "page T-3" and "p. A-2" in Markdown definitions, and keeps numbers as numbers', () => {
    const md = (loc: string): string => `A claim [1].\n\n[1]: “a quote” — manual.pdf, ${loc}\n`;
    expect(parseAnswer(md('p. iv'), 'a.md').citations[0]).toMatchObject({ sourceRef: { file: 'manual.pdf' }, locator: { pageLabel: 'iv' } });
    expect(parseAnswer(md('p. xxix'), 'a.md').citations[0]?.locator).toEqual({ pageLabel: 'xxix' });
    expect(parseAnswer(md('page T-3'), 'a.md').citations[0]?.locator).toEqual({ pageLabel: 'T-3' });
    expect(parseAnswer(md('p. A-2'), 'a.md').citations[0]?.locator).toEqual({ pageLabel: 'A-2' });
    expect(parseAnswer(md('p. 12'), 'a.md').citations[0]?.locator).toEqual({ page: 12 });
    expect(parseAnswer(md('pp. 12–13'), 'a.md').citations[0]?.locator).toEqual({ page: 12, pageEnd: 13 });
    // A title that merely contains a word is no label.
    expect(parseAnswer('A claim [1].\n\n[1]: “a quote” — Annual Report, page two\n', 'a.md').citations[0]?.locator).toEqual({});
  });

  it('reads a printed page label in an evidence ledger', () => {
    const ledger = JSON.stringify([{ claim_text: 'A claim.', evidence_snippet: 'a quote', source_document: { filename: 'manual.pdf', page_number: 'xii' } }]);
    expect(parseAnswer(ledger, 'l.json').citations[0]?.locator).toEqual({ pageLabel: 'xii' });
  });
});
