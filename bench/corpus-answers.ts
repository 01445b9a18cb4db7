/** Answer files as the citing tools write them, one citation each (the parser detects the format). */
import type { Doc } from './corpus-passages.ts';

/** Names people actually use for some of the files (the rest get generated loose names). */
const LOOSE_NAMES: Record<string, string> = {
  'r-fullrefman.pdf': 'R Full Reference Manual',
  'tracemonkey.pdf': 'tracemonkey',
  'freeculture.pdf': 'free culture.pdf',
  'debian-constitution.txt': 'Debian Constitution',
  'twenty-years-of-pandoc.md': 'Twenty years of pandoc',
  'un-icerd-toc.docx': 'UN ICERD TOC',
  'pdkids.pdf': 'PD Kids',
  'octave.pdf': 'Octave',
  'lshort-zh-cn.pdf': 'LShort zh_CN',
  'docx4j-tables.docx': 'docx4j tables',
};

export interface SourceSpec {
  file?: string;
  title?: string;
  sha256?: string;
}

export function nativeAnswer(claim: string, quote: string, source: SourceSpec, locator: Record<string, unknown>): string {
  return JSON.stringify({
    format: 'evidence-desk/answer@1',
    question: 'What does the source say?',
    answer: `${claim} [1]`,
    citations: [{ marker: '1', claim, quote, source, locator }],
  });
}

/** A Markdown answer: the reference definition as people write it ("quote" — source, p. iv). */
export function markdownAnswer(claim: string, quote: string, sourceText: string): string | null {
  if (/[“”\n]/.test(quote)) return null;
  return `Question: What does the source say?\n\n${claim.replace(/\[/g, '(').replace(/\]/g, ')')} [1]\n\n[1]: “${quote}” — ${sourceText}\n`;
}

export function looseName(doc: Doc): string {
  const hand = LOOSE_NAMES[doc.file];
  if (hand) return hand;
  const stem = doc.file.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  // "HR_Policy.pdf" → "HR Policy": separators become spaces, words capitalised.
  return stem
    .split(/[-_.\s]+/)
    .filter((w) => w)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

export function compactName(s: string): string {
  return s.toLowerCase().replace(/\.[a-z0-9]{1,5}$/, '').replace(/[^\p{L}\p{N}]+/gu, '');
}

export function goodTitle(t: string | null): t is string {
  return !!t && t.trim().length >= 6 && !/^(untitled|microsoft word|this is style|producer)/i.test(t.trim());
}

/** A W3C Web Annotation: the claim as its body, the quote as a TextQuoteSelector with its context. */
export function webAnnotationAnswer(claim: string, exact: string, prefix: string, suffix: string, file: string): string {
  return JSON.stringify({
    '@context': 'http://www.w3.org/ns/anno.jsonld',
    type: 'Annotation',
    body: { type: 'TextualBody', value: claim },
    target: { source: `file:///home/analyst/docs/${encodeURIComponent(file)}`, selector: { type: 'TextQuoteSelector', exact, prefix, suffix } },
  });
}

/** A document block of an Anthropic Messages API request. */
export type AnthropicDocument =
  | { kind: 'text'; data: string; title?: string }
  | { kind: 'pdf'; base64: string; title?: string };

/**
 * An Anthropic exchange as a user saves it: the request (its document and question) and the
 * response, whose one text block cites the document once.
 */
export function anthropicAnswer(claim: string, citation: Record<string, unknown>, doc: AnthropicDocument): string {
  const source = doc.kind === 'text' ? { type: 'text', media_type: 'text/plain', data: doc.data } : { type: 'base64', media_type: 'application/pdf', data: doc.base64 };
  const document: Record<string, unknown> = { type: 'document', source, citations: { enabled: true } };
  if (doc.title) document.title = doc.title;
  const request = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: [document, { type: 'text', text: 'What does the document say?' }] }] };
  const response = {
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text: claim, citations: [{ ...citation, document_index: 0, document_title: doc.title ?? null }] }],
    stop_reason: 'end_turn',
  };
  return JSON.stringify({ request, response });
}
