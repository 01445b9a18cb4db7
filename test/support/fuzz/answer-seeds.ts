/**
 * Valid answer files of every import format, citing the policy workspace's documents
 * (HR_Policy.pdf, onboarding-notes.txt; test/support/policy-workspace.ts): the starting points
 * the fuzz properties mutate. Each is parsed cleanly by shared/imports as it stands.
 */
import type { ImportFormat } from '../../../shared/imports/model.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface JsonSeed {
  format: Exclude<ImportFormat, 'markdown'>;
  value: JsonValue;
}

const LEAVE = 'Employees receive 14 days of annual leave per calendar year.';
const LAPSE = 'Unused leave lapses on 31 March of the following year.';
const NOTES_TEXT = 'New starters receive a laptop on their first day.\nAccess badges are issued by the facilities team.';

export const JSON_SEEDS: readonly JsonSeed[] = [
  {
    format: 'evidence-desk/answer@1',
    value: {
      format: 'evidence-desk/answer@1',
      question: 'How much annual leave do employees get?',
      answer: 'Employees get 14 days of annual leave [1]. Unused days lapse [2].',
      citations: [
        { marker: '1', claim: 'Employees get 14 days of annual leave.', quote: LEAVE, context: null, source: { file: 'HR_Policy.pdf', title: 'HR Policy' }, locator: { page: 3, line: 2 }, confidence: 'high', method: 'direct_quote' },
        { marker: 2, quote: LAPSE, source: { sha256: 'A'.repeat(64), file: 'HR_Policy.pdf' }, locator: { page: 'iii', pageEnd: 4, paragraph: 0, section: 'Leave' }, method: 'paraphrase' },
      ],
    },
  },
  {
    format: 'anthropic-messages',
    value: {
      request: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', title: 'HR_Policy.pdf', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjcK' } },
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: NOTES_TEXT } },
              { type: 'document', title: 'Handbook', source: { type: 'content', content: [{ type: 'text', text: LEAVE }, { type: 'text', text: LAPSE }] } },
              { type: 'document', source: { type: 'url', url: 'https://example.org/docs/onboarding-notes.txt#x' } },
              { type: 'text', text: 'How much annual leave do employees get?' },
            ],
          },
        ],
      },
      response: {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: 'According to the policy, ' },
          { type: 'text', text: 'employees get 14 days of leave.', citations: [{ type: 'page_location', cited_text: LEAVE, document_index: 0, document_title: 'HR_Policy.pdf', start_page_number: 3, end_page_number: 4 }] },
          { type: 'text', text: ' Laptops come on day one.', citations: [{ type: 'char_location', cited_text: 'New starters receive a laptop', document_index: 1, start_char_index: 0, end_char_index: 29 }] },
          { type: 'text', text: ' Leave lapses.', citations: [{ type: 'content_block_location', cited_text: LAPSE, document_index: 2, document_title: 'Handbook', start_block_index: 1, end_block_index: 2 }] },
        ],
      },
    },
  },
  {
    format: 'evidence-ledger',
    value: {
      question: 'What does the HR policy say about leave?',
      entries: [
        { claim_id: 'c1', claim_text: 'Employees get 14 days of annual leave.', verdict: 'supported', confidence: 0.9, evidence_snippet: LEAVE, source_document: { filename: 'HR_Policy.pdf', page_number: 3 } },
        {
          claim_id: 2,
          claim_text: 'Leave lapses in March.',
          verdict: 'supported',
          evidence: [
            { evidence_snippet: LAPSE, source_document: { filename: '/tmp/docs/HR_Policy.pdf', page_number: '3', page_end: 4, section: 'Leave' } },
            { snippet: 'New starters receive a laptop', source_document: 'onboarding-notes.txt' },
          ],
        },
      ],
    },
  },
  {
    format: 'w3c-web-annotation',
    value: {
      '@context': 'http://www.w3.org/ns/anno.jsonld',
      type: 'AnnotationPage',
      question: 'What does the HR policy say about leave?',
      items: [
        {
          type: 'Annotation',
          body: { type: 'TextualBody', value: 'Employees get 14 days of annual leave.' },
          target: {
            source: 'file:///docs/HR_Policy.pdf#page=3',
            selector: [
              { type: 'TextQuoteSelector', exact: LEAVE, prefix: 'Section 3: Leave\n', suffix: '\nUnused' },
              { type: 'FragmentSelector', value: 'page=3', refinedBy: { type: 'TextPositionSelector', start: 17, end: 77 } },
            ],
          },
        },
        { type: ['Annotation'], bodyValue: 'Laptops on day one.', target: ['onboarding-notes.txt', { source: 'onboarding-notes.txt', selector: { type: 'TextQuoteSelector', exact: 'New starters receive a laptop' } }] },
      ],
    },
  },
];

export const MARKDOWN_SEEDS: readonly string[] = [
  [
    '---',
    'question: "How much annual leave do employees get?"',
    '---',
    'Employees receive 14 days of annual leave [1]. Unused days lapse in March.[^2]',
    'Laptops come on the first day [S3], [1, 2].',
    '',
    `[1]: "${LEAVE}" — HR_Policy.pdf, p. 3`,
    `[^2]: “${LAPSE}” — HR_Policy.pdf, pp. 3–4, lines 2-3`,
    '  continued on an indented line ¶ 2',
    '',
    '## Sources',
    '- [S3] onboarding-notes.txt line 3: "New starters receive a laptop on their first day."',
    '- [4] a summary of the rules — HR Policy, § Leave',
  ].join('\n'),
  ['Question: What do new starters get?', '', 'A laptop on day one [1].', '', '[1]: «New starters receive a laptop» onboarding-notes.txt p. iv sha256:' + 'b'.repeat(64)].join('\r\n'),
];
