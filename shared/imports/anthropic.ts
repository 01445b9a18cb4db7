/**
 * An Anthropic Messages API response with citations: text blocks carrying `citations` of type
 * page_location (start_page_number inclusive, end_page_number exclusive), char_location
 * (start_char_index / end_char_index), content_block_location (start_block_index /
 * end_block_index, exclusive); each with cited_text, document_index and document_title. The claim
 * is the text block the citation is attached to. Accepted as the bare response, or wrapped as
 * `{ "request": {...}, "response": {...} }` (the request's document blocks name the documents and
 * its last user message is the question) or `{ "question": "...", "response": {...} }`. A
 * document the request carries is known by its SHA-256 too (a base64 PDF's bytes, an untitled
 * text's), and its text gives each char_location / content_block_location citation the text
 * around it, which picks the cited occurrence where ours repeats it.
 */
import { base64Bytes, utf8Bytes } from './document-digest.ts';
import { charRange, compact, fileNameOf, isPlainObject, nonNegativeInt, positiveInt, str, type ClaimedLocator, type ImportedAnswer, type ImportedCitation, type ParseContext, type ParseOutcome, type SourceRef } from './model.ts';

function isMessage(x: unknown): x is { content: unknown[] } & Record<string, unknown> {
  return isPlainObject(x) && x.type === 'message' && Array.isArray(x.content);
}

interface RequestDoc {
  title?: string;
  /** The document's file name, from a URL source. */
  file?: string;
  /** SHA-256 of the bytes of a base64 document, or of an untitled plain-text document's text as UTF-8. */
  sha256?: string;
  /** The text the API saw: a plain-text document's, or its content blocks' joined. */
  text?: string;
  /** Where each content block starts in `text`. */
  blockStarts?: number[];
  /** UTF-16 offset of each code point of `text` (and of its end), made once when first needed. */
  codePointUnits?: Int32Array;
}

/** The UTF-16 offset of every code point of the document's text, plus its length, computed once per document. */
function codePointUnits(doc: RequestDoc, text: string): Int32Array {
  if (!doc.codePointUnits) {
    const units: number[] = [];
    for (let i = 0; i < text.length; i++) {
      units.push(i);
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
      }
    }
    units.push(text.length);
    doc.codePointUnits = Int32Array.from(units);
  }
  return doc.codePointUnits;
}

/** What a document block tells about its document (Anthropic `source` types text, base64, content, url). */
function requestDocument(block: Record<string, unknown>, digest: ParseContext['digest']): RequestDoc {
  const doc: RequestDoc = compact({ title: str(block.title) });
  const source = isPlainObject(block.source) ? block.source : {};
  if (source.type === 'text' && typeof source.data === 'string') {
    doc.text = source.data;
    // A title names it; an untitled text is known by content when it is the ingested file's text.
    if (!doc.title && digest) doc.sha256 = digest(utf8Bytes(source.data));
  } else if (source.type === 'base64' && typeof source.data === 'string') {
    const bytes = digest ? base64Bytes(source.data) : null;
    if (digest && bytes && bytes.length > 0) doc.sha256 = digest(bytes);
  } else if (source.type === 'content' && Array.isArray(source.content)) {
    const texts = source.content.filter((b): b is Record<string, unknown> => isPlainObject(b) && typeof b.text === 'string').map((b) => String(b.text));
    doc.blockStarts = [];
    let at = 0;
    for (const t of texts) {
      doc.blockStarts.push(at);
      at += t.length + 1;
    }
    doc.text = texts.join('\n');
  } else if (source.type === 'url' && typeof source.url === 'string') {
    const file = fileNameOf(source.url);
    if (file) doc.file = file;
  }
  return doc;
}

/** Document blocks of the request in order (document_index counts them across messages). */
function requestDocuments(request: unknown, digest: ParseContext['digest']): RequestDoc[] {
  if (!isPlainObject(request) || !Array.isArray(request.messages)) return [];
  const docs: RequestDoc[] = [];
  for (const msg of request.messages) {
    if (!isPlainObject(msg) || !Array.isArray(msg.content)) continue;
    for (const block of msg.content) {
      if (isPlainObject(block) && block.type === 'document') docs.push(requestDocument(block, digest));
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

function sourceRefOf(c: Record<string, unknown>, doc: RequestDoc | undefined): SourceRef {
  const index = nonNegativeInt(c.document_index);
  const title = str(c.document_title) ?? doc?.title ?? str(c.title);
  const url = str(c.url) ?? str(c.source);
  const ref: SourceRef = {};
  if (doc?.sha256) ref.sha256 = doc.sha256;
  if (index !== undefined) ref.documentIndex = index;
  if (title) {
    ref.title = title;
    const file = /\.[A-Za-z0-9]{2,5}$/.test(title) ? fileNameOf(title) : undefined;
    if (file) ref.file = file;
  }
  const urlFile = url ? fileNameOf(url) : undefined;
  if (!ref.file && urlFile) ref.file = urlFile;
  if (!ref.file && doc?.file) ref.file = doc.file;
  return ref;
}

const CONTEXT = 32;

/**
 * The text around a citation in the document the API saw (a plain-text document's char_location,
 * a content document's blocks): it chooses between repeated occurrences of the cited text in ours,
 * whose spacing may differ. Nothing when the offsets do not hold the cited text.
 */
function contextOf(c: Record<string, unknown>, doc: RequestDoc | undefined, quote: string | null): { prefix?: string; suffix?: string } {
  const text = doc?.text;
  if (!text || !quote) return {};
  let a: number | undefined;
  let b: number | undefined;
  if (c.type === 'char_location') {
    a = nonNegativeInt(c.start_char_index);
    b = nonNegativeInt(c.end_char_index);
  } else if (c.type === 'content_block_location' && doc.blockStarts) {
    const first = nonNegativeInt(c.start_block_index);
    const last = nonNegativeInt(c.end_block_index);
    if (first !== undefined) a = doc.blockStarts[first];
    if (last !== undefined) b = last < doc.blockStarts.length ? (doc.blockStarts[last] ?? text.length) - 1 : text.length;
  }
  if (a === undefined || b === undefined || b <= a) return {};
  // The API counts characters; a string here counts UTF-16 units. Either reading must hold the cited text.
  const same = (x: string): boolean => x.replace(/\s+/g, ' ').trim() === quote.replace(/\s+/g, ' ').trim();
  if (!same(text.slice(a, b))) {
    // Counted in code points: their UTF-16 offsets come from a table made once per document (a
    // file with thousands of citations into a long text re-split the whole text for each of them).
    if (c.type !== 'char_location') return {};
    const units = codePointUnits(doc, text);
    const count = units.length - 1;
    if (a >= count) return {};
    const ua = units[a] ?? 0;
    const ub = units[Math.min(b, count)] ?? text.length;
    if (!same(text.slice(ua, ub))) return {};
    a = ua;
    b = ub;
  }
  return compact({ prefix: str(text.slice(Math.max(0, a - CONTEXT), a)), suffix: str(text.slice(b, b + CONTEXT)) });
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
      Object.assign(locator, charRange(nonNegativeInt(c.start_char_index), nonNegativeInt(c.end_char_index)));
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

export function parseAnthropic(json: unknown, context: ParseContext = {}): ParseOutcome {
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
    // The role is named only when it is a string: a fuzzed nested array's String() recurses past the stack.
    const role = typeof message.role === 'string' ? `"${message.role.slice(0, 40)}"` : `not a string but ${Array.isArray(message.role) ? 'an array' : typeof message.role}`;
    return { kind: 'invalid', message: `it looks like an Anthropic message but its role is ${role}, not "assistant"` };
  }
  const docs = requestDocuments(request, context.digest);
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
      const index = nonNegativeInt(c.document_index);
      const doc = index !== undefined ? docs[index] : undefined;
      citations.push(
        compact({
          marker,
          claim: text.trim(),
          quote,
          context: null,
          sourceRef: sourceRefOf(c, doc),
          locator,
          ...contextOf(c, doc, quote),
          method: quote ? ('direct_quote' as const) : undefined,
          notes: notes.length > 0 ? notes : undefined,
        }),
      );
    }
    // Markers go after the cited words, before the block's trailing whitespace.
    // (trimEnd, not /\s+$/: the regex retries every run of blanks inside a long block to its end.)
    const body = text.trimEnd();
    answerText += `${body}${markers.map((m) => `[${m}]`).join('')}${text.slice(body.length)}`;
  }
  const answer: ImportedAnswer = { format: 'anthropic-messages', question, answerText: answerText.trim(), citations };
  return { kind: 'parsed', answer };
}
