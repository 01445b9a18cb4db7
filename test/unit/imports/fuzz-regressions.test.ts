// Bugs the importer fuzz properties found (test/unit/fuzz/importers.fuzz.test.ts), each pinned by
// the smallest input that showed it. Before the fixes each threw a ZodError or RangeError (an
// uncoded INTERNAL error at the boundary) or ran for minutes.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/contract/errors.ts';
import { MAX_CITATIONS, MAX_CLAIM_CHARS, parseAnswer } from '../../../shared/imports/index.ts';
import { ImportedAnswer } from '../../../shared/imports/model.ts';
import { stripMarkers } from '../../../shared/imports/sentences.ts';

function parsed(content: string): ImportedAnswer {
  return ImportedAnswer.parse(parseAnswer(content, 'answer.json'));
}

function refusal(content: string): AppError {
  try {
    parseAnswer(content, 'answer.json');
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

const message = (citations: unknown[], role: unknown = 'assistant') =>
  JSON.stringify({ type: 'message', role, content: [{ type: 'text', text: 'Employees get 14 days.', citations }] });

describe('numbers beyond 2^53 are no locator (they were ZodErrors)', () => {
  it('Markdown p. 99999999999999999999 and p. 0 claim no page', () => {
    const a = parsed('Leave is 14 days [1].\n\n[1]: "14 days" — HR_Policy.pdf, p. 99999999999999999999, line 0, ¶ 123456789012345678901');
    expect(a.citations[0]?.locator).toEqual({});
    expect(parsed('Leave [1].\n\n[1]: "14 days" — HR_Policy.pdf, p. 0').citations[0]?.locator.page).toBeUndefined();
  });

  it('Anthropic char_location 1e300 and a ledger page_number 1e21 are dropped', () => {
    expect(parsed(message([{ type: 'char_location', cited_text: '14 days', start_char_index: 1e300, end_char_index: 2 }])).citations[0]?.locator).toEqual({ charEnd: 2 });
    const ledger = JSON.stringify({ entries: [{ claim_text: 'c', evidence_snippet: 'q', source_document: { filename: 'a.pdf', page_number: 1e21, page_end: '99999999999999999999' } }] });
    expect(parsed(ledger).citations[0]?.locator).toEqual({});
  });

  it('a native page "99999999999999999999" is ANSWER_INVALID, not a ZodError', () => {
    const native = JSON.stringify({ format: 'evidence-desk/answer@1', answer: 'a [1]', citations: [{ marker: '1', source: { file: 'a.pdf' }, locator: { page: '99999999999999999999' } }] });
    expect(refusal(native).code).toBe('ANSWER_INVALID');
  });
});

describe('references that name no file', () => {
  it('a ledger source_document of blanks, an Anthropic title "#.pdf", a W3C source "#page=2" give no empty file name', () => {
    const ledger = JSON.stringify([{ claim_text: 'c', evidence_snippet: 'q', source_document: '\t\t' }]);
    expect(parsed(ledger).citations[0]?.sourceRef).toEqual({});
    expect(parsed(message([{ type: 'page_location', cited_text: 'q', document_title: '#.pdf', start_page_number: 1, end_page_number: 2 }])).citations[0]?.sourceRef).toEqual({ title: '#.pdf' });
    const wa = JSON.stringify({ type: 'Annotation', body: 'c', target: { source: '#page=2', selector: { type: 'TextQuoteSelector', exact: 'q' } } });
    expect(parsed(wa).citations[0]?.sourceRef).toEqual({});
  });
});

describe('offset ranges that end before they start', () => {
  it('keep only their start (Anthropic char_location, W3C TextPositionSelector)', () => {
    expect(parsed(message([{ type: 'char_location', cited_text: 'q', start_char_index: 40, end_char_index: 3 }])).citations[0]?.locator).toEqual({ charStart: 40 });
    const wa = JSON.stringify({ type: 'Annotation', body: 'c', target: { source: 'a.txt', selector: [{ type: 'TextQuoteSelector', exact: 'q' }, { type: 'TextPositionSelector', start: 9, end: 2 }] } });
    expect(parsed(wa).citations[0]?.locator).toEqual({ charStart: 9 });
  });
});

describe('deep nesting (RangeError: Maximum call stack size exceeded)', () => {
  it('a W3C refinedBy chain 20,000 deep is read without recursion', () => {
    const deep = `${'{"type":"FragmentSelector","value":"page=2","refinedBy":'.repeat(20_000)}{"type":"TextQuoteSelector","exact":"q"}${'}'.repeat(20_000)}`;
    const a = parsed(`{"type":"Annotation","body":"c","target":{"source":"a.pdf","selector":${deep}}}`);
    expect(a.citations[0]?.locator.page).toBe(2);
  });

  it('an Anthropic role that is a deeply nested array is ANSWER_INVALID', () => {
    const content = message([]).replace('"role":"assistant"', `"role":${'['.repeat(20_000)}1${']'.repeat(20_000)}`);
    const e = refusal(content);
    expect(e.code).toBe('ANSWER_INVALID');
    expect(e.message).toContain('not a string but an array');
  });
});

describe('what one file can make the importer do is bounded', () => {
  it('thousands of markers in one long Markdown sentence: refused as ANSWER_INVALID (it ran out of memory)', () => {
    const body = 'Leave is 14 days [1] '.repeat(MAX_CITATIONS + 1);
    const e = refusal(`${body}\n\n[1]: "14 days" — HR_Policy.pdf, p. 3`);
    expect(e.code).toBe('ANSWER_INVALID');
    expect(e.message).toContain(`${(MAX_CITATIONS + 1).toLocaleString('en')} citations`);
  });

  it('a claim longer than a sentence can be is cut, with a note', () => {
    const a = parsed(`${'word '.repeat(2_000)}[1]\n\n[1]: "14 days" — HR_Policy.pdf`);
    expect(a.citations[0]?.claim.length).toBeLessThanOrEqual(MAX_CLAIM_CHARS + 1);
    expect(a.citations[0]?.notes?.join(' ')).toContain('characters long');
  });

  it('damaged Markdown of long runs of openers and blanks parses in one pass (each was quadratic)', () => {
    // Unclosed “ and « (the quote pattern), "§" (the section pattern), a question line and a
    // heading padded with 100,000 blanks, a run of tabs before no punctuation (stripMarkers).
    const n = 100_000;
    const lines = [
      `Question: why?${' '.repeat(n)}x`,
      `# Heading${' '.repeat(n)}x? y`,
      `Claim [1]${'\t'.repeat(n)}x.`,
      `[1]: "14 days" ${'“«'.repeat(n / 2)} ${'§ '.repeat(n / 2)} HR_Policy.pdf`,
    ];
    const a = parsed(lines.join('\n'));
    expect(a.citations.map((c) => c.quote)).toEqual(['14 days']);
    expect(stripMarkers(`a${' '.repeat(n)}b .`)).toBe('a b.');
  });

  it('definition, Sources and question lines holding U+2028 after a run of blanks are read in one pass', () => {
    const blanks = ' '.repeat(100_000);
    const a = parsed(`Question:${blanks}why?\u2028really\n\nClaim [^1] [S2].\n\n[^1]:${blanks}"14 days"\u2028HR_Policy.pdf\n## Sources${blanks}x\u2028y\n- [S2]${blanks}"lapses"\u2028HR_Policy.pdf`);
    expect(a.question).toBe('why?\u2028really');
    expect(a.citations.map((c) => c.quote)).toEqual(['14 days', 'lapses']);
  });

  it('a run of "a.a.a." is split into sentences in one pass (each dot looked back over the whole run)', () => {
    const a = parsed(`${'a.'.repeat(100_000)} Claim [1].\n\n[1]: "14 days" — HR_Policy.pdf`);
    expect(a.citations[0]?.quote).toBe('14 days');
  });

  it('thousands of char_location citations into a long request document: its code points are counted once (each citation re-split the whole text)', () => {
    const doc = `𝔸 ${'Employees receive 14 days of annual leave. '.repeat(25_000)}`;
    const citations = Array.from({ length: 2_000 }, (_, i) => ({ type: 'char_location', cited_text: 'Employees receive', document_index: 0, start_char_index: 2 + i * 43, end_char_index: 19 + i * 43 }));
    const content = JSON.stringify({
      request: { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', data: doc } }] }] },
      response: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Claim.', citations }] },
    });
    const a = parsed(content);
    // Offsets counted in code points (𝔸 is one, two UTF-16 units): the text after each holds " 14 days".
    expect(a.citations).toHaveLength(2_000);
    expect(a.citations.every((c) => c.suffix?.startsWith(' 14 days'))).toBe(true);
  });

  it('an Anthropic text block with a long run of blanks inside it is read in one pass (its trailing-space pattern was quadratic)', () => {
    const text = `Employees get 14 days.${' '.repeat(100_000)}x `;
    const a = parsed(JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'text', text, citations: [{ type: 'page_location', cited_text: '14 days', start_page_number: 3, end_page_number: 4 }] }] }));
    expect(a.answerText.endsWith('x[1]')).toBe(true);
  });
});
