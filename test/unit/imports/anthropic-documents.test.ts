// An Anthropic exchange saved with its request: the documents the API saw tell which workspace
// source each one is (by SHA-256) and what text surrounds each cited passage.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Bytes } from '../../../electron/services/hashing/sha256.ts';
import { parseAnswer } from '../../../shared/imports/index.ts';
import { base64Bytes, utf8Bytes } from '../../../shared/imports/document-digest.ts';

const nodeSha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');
/** The digest the answers service hands the parser: ingestion's own. */
const withDigest = { digest: sha256Bytes };

describe('document digests without Node or the DOM', () => {
  it('encodes UTF-8 and decodes base64 and base64url as Node does', () => {
    const text = 'Zürich, 東京, emoji 🧾, "quotes" and a lone \uD800 surrogate';
    expect(Buffer.from(utf8Bytes(text)).equals(Buffer.from(text, 'utf8'))).toBe(true);
    const bytes = new Uint8Array(randomBytes(1001));
    expect(Buffer.from(base64Bytes(Buffer.from(bytes).toString('base64')) ?? []).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(base64Bytes(Buffer.from(bytes).toString('base64url')) ?? []).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(base64Bytes('SGVs\nbG8=') ?? []).toString()).toBe('Hello');
    expect(base64Bytes('not base64!')).toBeNull();
  });
});

function exchange(documents: Record<string, unknown>[], citations: Record<string, unknown>[]): string {
  return JSON.stringify({
    request: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [...documents, { type: 'text', text: 'What do the documents say?' }] }] },
    response: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'They say so.', citations }] },
  });
}

describe('Anthropic request documents', () => {
  const text = 'Minutes.\n\nThe board met. The board met again in May.\nThe board met.\n';
  const second = text.lastIndexOf('The board met.');

  it('knows a base64 PDF by the SHA-256 of its bytes, titled or not', () => {
    const pdf = Buffer.from('%PDF-1.7 pretend bytes of a real file');
    const a = parseAnswer(
      exchange(
        [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') } }, { type: 'document', title: 'Policy.pdf', source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') } }],
        [
          { type: 'page_location', cited_text: 'pretend bytes', document_index: 0, document_title: null, start_page_number: 1, end_page_number: 2 },
          { type: 'page_location', cited_text: 'pretend bytes', document_index: 1, document_title: 'Policy.pdf', start_page_number: 1, end_page_number: 2 },
        ],
      ),
      'exchange.json',
      withDigest,
    );
    expect(a.citations[0]?.sourceRef).toEqual({ sha256: nodeSha(pdf), documentIndex: 0 });
    expect(a.citations[1]?.sourceRef).toEqual({ sha256: nodeSha(pdf), documentIndex: 1, title: 'Policy.pdf', file: 'Policy.pdf' });
  });

  it('knows an untitled plain-text document by its text, and gives each char_location the text around it', () => {
    const a = parseAnswer(exchange([{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } }], [{ type: 'char_location', cited_text: 'The board met.', document_index: 0, start_char_index: second, end_char_index: second + 14 }]), 'exchange.json', withDigest);
    const c = a.citations[0];
    expect(c?.sourceRef).toEqual({ sha256: nodeSha(text), documentIndex: 0 });
    // Without the caller's digest (shared/ has no crypto), the document is known by title only.
    const blind = parseAnswer(exchange([{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } }], [{ type: 'char_location', cited_text: 'The board met.', document_index: 0, start_char_index: second, end_char_index: second + 14 }]), 'exchange.json');
    expect(blind.citations[0]?.sourceRef).toEqual({ documentIndex: 0 });
    expect(c?.locator).toEqual({ charStart: second, charEnd: second + 14 });
    expect(c?.prefix).toBe(text.slice(second - 32, second));
    expect(c?.suffix).toBeUndefined(); // only a line break follows: no context
  });

  it('reads offsets counted in characters where the text has characters outside the BMP', () => {
    const data = '🧾🧾 Receipts. The board met. End.';
    const chars = Array.from(data);
    const at = chars.indexOf('T');
    const a = parseAnswer(exchange([{ type: 'document', title: 'r.txt', source: { type: 'text', media_type: 'text/plain', data } }], [{ type: 'char_location', cited_text: 'The board met.', document_index: 0, start_char_index: at, end_char_index: at + 14 }]), 'exchange.json');
    expect(a.citations[0]?.prefix).toBe('🧾🧾 Receipts. ');
    expect(a.citations[0]?.suffix).toBe(' End.');
    expect(a.citations[0]?.sourceRef).toEqual({ title: 'r.txt', file: 'r.txt', documentIndex: 0 });
  });

  it('gives no context when the offsets do not hold the cited text, and reads content blocks', () => {
    const off = parseAnswer(exchange([{ type: 'document', title: 'm.txt', source: { type: 'text', media_type: 'text/plain', data: text } }], [{ type: 'char_location', cited_text: 'The board met.', document_index: 0, start_char_index: 0, end_char_index: 14 }]), 'exchange.json');
    expect(off.citations[0]?.prefix).toBeUndefined();
    const blocks = { type: 'document', title: 'notes', source: { type: 'content', content: [{ type: 'text', text: 'First block.' }, { type: 'text', text: 'Second block.' }, { type: 'text', text: 'Third block.' }] } };
    const b = parseAnswer(exchange([blocks], [{ type: 'content_block_location', cited_text: 'Second block.', document_index: 0, start_block_index: 1, end_block_index: 2 }]), 'exchange.json');
    expect(b.citations[0]).toMatchObject({ locator: { paragraph: 1 }, prefix: 'First block.\n', suffix: '\nThird block.' });
  });

  it('names a document sent by URL by its file name', () => {
    const a = parseAnswer(exchange([{ type: 'document', source: { type: 'url', url: 'https://example.org/reports/Annual%20Report.pdf' } }], [{ type: 'page_location', cited_text: 'x', document_index: 0, start_page_number: 1, end_page_number: 2 }]), 'exchange.json');
    expect(a.citations[0]?.sourceRef).toEqual({ file: 'Annual Report.pdf', documentIndex: 0 });
  });
});
