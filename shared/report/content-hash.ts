/**
 * A report's content hash: SHA-256 over a canonical encoding of the report without its
 * `contentHash` field, so the hash depends on the content only, never on key order or spacing.
 * The encoding follows the JSON Canonicalization Scheme (RFC 8785) for the values a report holds:
 * object keys sorted by UTF-16 code units, no whitespace, strings and numbers as ECMAScript's
 * JSON.stringify writes them (which is what RFC 8785 prescribes), then UTF-8.
 *
 * shared/ has no crypto: the caller passes the digest (in Node, sha256 over the bytes, as hex).
 */
import { utf8Bytes } from '../imports/document-digest.ts';
import type { Report, ReportBody } from './schema.ts';

/** SHA-256 of the bytes as lowercase hex. */
export type Sha256Hex = (bytes: Uint8Array) => string;

/** The canonical JSON text of a value: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      // NaN and ±Infinity have no JSON form; a report holding one is a bug, not something to hash.
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        // Sorting by UTF-16 code units: the default sort of strings, never localeCompare.
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

/** The report's content without its hash field (a report or a body alike). */
export function reportBody(report: Report | ReportBody): ReportBody {
  const { contentHash: _omit, ...body } = report as Report;
  return body;
}

/** The content hash of a report (its `contentHash` field, if any, is left out). */
export function reportContentHash(report: Report | ReportBody, sha256Hex: Sha256Hex): string {
  return sha256Hex(utf8Bytes(canonicalJson(reportBody(report))));
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
