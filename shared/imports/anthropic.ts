/**
 * An Anthropic Messages API response with citations: text blocks carrying `citations` of type
 * page_location (start_page_number inclusive, end_page_number exclusive), char_location
 * (start_char_index / end_char_index), content_block_location (start_block_index /
 * end_block_index, exclusive); each with cited_text, document_index and document_title. The claim
 * is the text block the citation is attached to. Accepted as the bare response, or wrapped as
 * `{ "request": {...}, "response": {...} }` (the request's document blocks name the documents and
 * its last user message is the question) or `{ "question": "...", "response": {...} }`.
 */
import { baseName, compact, isPlainObject, nonNegativeInt, positiveInt, str, type ClaimedLocator, type ImportedAnswer, type ImportedCitation, type ParseOutcome, type SourceRef } from './model.ts';

function isMessage(x: unknown): x is { content: unknown[] } & Record<string, unknown> {
  return isPlainObject(x) && x.type === 'message' && Array.isArray(x.content);
}

interface RequestDoc {
  title?: string;
}

/** Document blocks of the request in order (document_index counts them across messages). */
function requestDocuments(request: unknown): RequestDoc[] {
  if (!isPlainObject(request) || !Array.isArray(request.messages)) return [];
  const docs: RequestDoc[] = [];
  for (const msg of request.messages) {
    if (!isPlainObject(msg) || !Array.isArray(msg.content)) continue;
    for (const block of msg.content) {
      if (isPlainObject(block) && block.type === 'document') docs.push(compact({ title: str(block.title) }));
    }
  }
  return docs;
}

function requestQuestion(request: unknown): string | null {
  if (!isPlainObject(request) || !Array.isArray(request.messages)) return null;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const msg = request.messages[i];
    if (!isPlainObject(msg) || msg.role !== 'user') continue;
    if (typeof msg.content === 'string') return msg.content.trim() || null;
    if (Array.isArray(msg.content)) {
      const text = msg.content
        .filter((b): b is Record<string, unknown> => isPlainObject(b) && b.type === 'text' && typeof b.text === 'string')
        .map((b) => String(b.text))
        .join('\n')
        .trim();
      if (text) return text;
    }
  }
  return null;
}

function sourceRefOf(c: Record<string, unknown>, docs: RequestDoc[]): SourceRef {
  const index = nonNegativeInt(c.document_index);
  const title = str(c.document_title) ?? (index !== undefined ? docs[index]?.title : undefined) ?? str(c.title);
  const url = str(c.url) ?? str(c.source);
  const ref: SourceRef = {};
  if (index !== undefined) ref.documentIndex = index;
  if (title) {
    ref.title = title;
    if (/\.[A-Za-z0-9]{2,5}$/.test(title)) ref.file = baseName(title);
  }
  if (!ref.file && url) ref.file = baseName(url);
  return ref;
}

function locatorOf(c: Record<string, unknown>): { locator: ClaimedLocator; notes: string[] } {
  const notes: string[] = [];
  const locator: ClaimedLocator = {};
  switch (c.type) {
    case 'page_location': {
      const start = positiveInt(c.start_page_number);
      const endExclusive = positiveInt(c.end_page_number);
      if (start !== undefined) {
        locator.page = start;
        // end_page_number is exclusive: pages [start, end).
        if (endExclusive !== undefined && endExclusive - 1 > start) locator.pageEnd = endExclusive - 1;
      }
      break;
    }
    case 'char_location': {
      const a = nonNegativeInt(c.start_char_index);
      const b = nonNegativeInt(c.end_char_index);
      if (a !== undefined) locator.charStart = a;
      if (b !== undefined) locator.charEnd = b;
      break;
    }
    case 'content_block_location': {
      const a = nonNegativeInt(c.start_block_index);
      const b = nonNegativeInt(c.end_block_index);
      if (a !== undefined) {
        locator.paragraph = a;
        if (b !== undefined && b - 1 > a) notes.push(`cites content blocks ${a}–${b - 1} of its document`);
      }
      break;
    }
    default:
      if (typeof c.type === 'string') notes.push(`citation type "${c.type}" carries no page or character location`);
  }
  return { locator, notes };
}

export function parseAnthropic(json: unknown): ParseOutcome {
  let message: unknown = json;
  let request: unknown = null;
  let question: string | null = null;
  if (isPlainObject(json) && !isMessage(json) && isMessage(json.response)) {
    message = json.response;
    request = json.request ?? null;
    question = str(json.question) ?? requestQuestion(request);
  }
  if (!isMessage(message)) return { kind: 'not-mine' };
  if (message.role !== undefined && message.role !== 'assistant') {
    return { kind: 'invalid', message: `it looks like an Anthropic message but its role is "${String(message.role)}", not "assistant"` };
  }
  const docs = requestDocuments(request);
  const citations: ImportedCitation[] = [];
  let answerText = '';
  for (const block of message.content) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') continue;
    const text = block.text;
    const raw = Array.isArray(block.citations) ? block.citations.filter(isPlainObject) : [];
    if (raw.length === 0) {
      answerText += text;
      continue;
    }
    const markers: string[] = [];
    for (const c of raw) {
      const marker = String(citations.length + 1);
      markers.push(marker);
      const { locator, notes } = locatorOf(c);
      const quote = typeof c.cited_text === 'string' && c.cited_text.trim() ? c.cited_text : null;
      citations.push(
        compact({
          marker,
          claim: text.trim(),
          quote,
          context: null,
          sourceRef: sourceRefOf(c, docs),
          locator,
          method: quote ? ('direct_quote' as const) : undefined,
          notes: notes.length > 0 ? notes : undefined,
        }),
      );
    }
    // Markers go after the cited words, before the block's trailing whitespace.
    const body = text.replace(/\s+$/, '');
    answerText += `${body}${markers.map((m) => `[${m}]`).join('')}${text.slice(body.length)}`;
  }
  const answer: ImportedAnswer = { format: 'anthropic-messages', question, answerText: answerText.trim(), citations };
  return { kind: 'parsed', answer };
}
