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

const INTEGER_KEY = /^(?:0|[1-9]\d*)$/;
class NeedsSlowPath extends Error {}

/** The canonical JSON text of a value: the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  // Fast path: JSON.stringify over copies whose keys are inserted in sorted order. Objects keep
  // string keys in insertion order, except integer-like keys, which always come first in numeric
  // order; a value with such a key takes the slow path, which writes every key itself.
  try {
    return JSON.stringify(value, function (_key, v: unknown) {
      if (typeof v === 'number' && !Number.isFinite(v)) throw new TypeError(`canonicalJson: ${v} has no JSON form`);
      if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') throw new TypeError(`canonicalJson: a ${typeof v} has no JSON form`);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      if (typeof (v as { toJSON?: unknown }).toJSON === 'function') throw new NeedsSlowPath();
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      // No prototype: a "__proto__" key is then an own key like any other.
      const sorted = Object.create(null) as Record<string, unknown>;
      for (const k of keys) {
        if (INTEGER_KEY.test(k)) throw new NeedsSlowPath();
        sorted[k] = record[k];
      }
      return sorted;
    });
  } catch (e) {
    if (!(e instanceof NeedsSlowPath)) throw e;
  }
  const parts: string[] = [];
  writeCanonical(value, parts);
  return parts.join('');
}

// Appends to one array of parts (a report of thousands of citations makes megabytes of text).
function writeCanonical(value: unknown, out: string[]): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      // NaN and ±Infinity have no JSON form; a report holding one is a bug, not something to hash.
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} has no JSON form`);
      out.push(JSON.stringify(value));
      return;
    case 'object': {
      if (Array.isArray(value)) {
        out.push('[');
        value.forEach((v, i) => {
          if (i > 0) out.push(',');
          writeCanonical(v === undefined ? null : v, out);
        });
        out.push(']');
        return;
      }
      const record = value as Record<string, unknown>;
      // Sorting by UTF-16 code units: the default sort of strings, never localeCompare.
      const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
      out.push('{');
      keys.forEach((k, i) => {
        out.push(i > 0 ? ',' : '', JSON.stringify(k), ':');
        writeCanonical(record[k], out);
      });
      out.push('}');
      return;
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
