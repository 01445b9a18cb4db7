/**
 * A report's content hash: SHA-256 over a canonical encoding of the report without its
 * `contentHash` field, so the hash depends on the content only, never on key order or spacing.
 * The encoding follows the JSON Canonicalization Scheme (RFC 8785) for the values a report holds:
 * object keys sorted by UTF-16 code units, no whitespace, strings and numbers as ECMAScript's
 * JSON.stringify writes them (which is what RFC 8785 prescribes), then UTF-8.
 *
 * shared/ has no crypto: the caller passes the digest (in Node, sha256 over the bytes, as hex).
 */
import { utf8BytesOfTexts } from '../imports/document-digest.ts';
import type { Report, ReportBody } from './schema.ts';

/** SHA-256 of the bytes as lowercase hex. */
export type Sha256Hex = (bytes: Uint8Array) => string;

/** Small pieces are gathered into texts of about this many UTF-16 units before they are handed on. */
const CHUNK_UNITS = 1 << 16;
/** A text this long, with nothing JSON escapes, is handed on as it is (an excerpt image's data: URI). */
const LONG_TEXT = 1024;
/** Characters JSON.stringify writes as they are: no quote, backslash, control character or surrogate. */
const PLAIN_TEXT = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** The canonical JSON text of a value: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  return canonicalJsonParts(value).join('');
}

/**
 * The canonical JSON text of a value in parts, whose join is canonicalJson(value); no part ends
 * inside a character. A report's text is megabytes, nearly all of it its excerpt images: those are
 * parts of their own, neither escaped character by character nor copied into one long text.
 */
export function canonicalJsonParts(value: unknown): string[] {
  const parts: string[] = [];
  let pending = '';
  const write = (text: string) => {
    pending += text;
    if (pending.length >= CHUNK_UNITS) {
      parts.push(pending);
      pending = '';
    }
  };
  const writeString = (text: string) => {
    if (text.length < LONG_TEXT || !PLAIN_TEXT.test(text)) {
      write(JSON.stringify(text));
      return;
    }
    parts.push(pending + '"', text);
    pending = '"';
  };
  const writeValue = (v: unknown, key: string): void => {
    // As JSON.stringify does: an object that says how it is written (a Date) is written so.
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(key: string): unknown }).toJSON(key);
    if (v === null || v === undefined) {
      write('null');
      return;
    }
    switch (typeof v) {
      case 'string':
        writeString(v);
        return;
      case 'boolean':
        write(v ? 'true' : 'false');
        return;
      case 'number':
        // NaN and ±Infinity have no JSON form; a report holding one is a bug, not something to hash.
        if (!Number.isFinite(v)) throw new TypeError(`canonicalJson: ${v} has no JSON form`);
        write(JSON.stringify(v));
        return;
      case 'object': {
        if (Array.isArray(v)) {
          write('[');
          for (let i = 0; i < v.length; i++) {
            if (i > 0) write(',');
            writeValue(v[i], String(i));
          }
          write(']');
          return;
        }
        const record = v as Record<string, unknown>;
        // Sorting by UTF-16 code units: the default sort of strings, never localeCompare.
        const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
        write('{');
        keys.forEach((k, i) => {
          write(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
          writeValue(record[k], k);
        });
        write('}');
        return;
      }
      default:
        throw new TypeError(`canonicalJson: a ${typeof v} has no JSON form`);
    }
  };
  writeValue(value, '');
  if (pending !== '') parts.push(pending);
  return parts;
}

/** The report's content without its hash field (a report or a body alike). */
export function reportBody(report: Report | ReportBody): ReportBody {
  const { contentHash: _omit, ...body } = report as Report;
  return body;
}

/** The content hash of a report (its `contentHash` field, if any, is left out). */
export function reportContentHash(report: Report | ReportBody, sha256Hex: Sha256Hex): string {
  return sha256Hex(utf8BytesOfTexts(canonicalJsonParts(reportBody(report))));
}

/** The report with its content hash set. */
export function sealReport(body: ReportBody, sha256Hex: Sha256Hex): Report {
  const clean = reportBody(body);
  return { ...clean, contentHash: reportContentHash(clean, sha256Hex) };
}

/** Whether the stored hash is the hash of the content, and both hashes for a message. */
export function checkContentHash(report: Report, sha256Hex: Sha256Hex): { holds: boolean; stored: string; computed: string } {
  const computed = reportContentHash(report, sha256Hex);
  return { holds: computed === report.contentHash, stored: report.contentHash, computed };
}
