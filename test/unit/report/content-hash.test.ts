import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8BytesOfTexts, utf8BytesPortable } from '../../../shared/imports/document-digest.ts';
import { canonicalJson, canonicalJsonParts, checkContentHash, reportBody, reportContentHash } from '../../../shared/report/content-hash.ts';
import { reportFromJson, reportToJson } from '../../../shared/report/json.ts';
import type { Report } from '../../../shared/report/schema.ts';
import { fixtureReport, sha256Hex } from './report-fixture.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Paths to every leaf (string, number, boolean, null) of a JSON value. */
function leaves(value: Json, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
}

function setAt(root: Json, path: (string | number)[], f: (v: Json) => Json): void {
  let at = root as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, Json>;
  const last = path[path.length - 1] as string | number;
  at[last] = f(at[last] as Json);
}

/** The same value with every object's keys in reverse order. */
function reverseKeys(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(reverseKeys);
  return Object.fromEntries(Object.keys(value).reverse().map((k) => [k, reverseKeys(value[k] as Json)]));
}

describe('report content hash', () => {
  const report = fixtureReport();
  const hash = report.contentHash;

  it('is the SHA-256 of the canonical JSON of the report without its hash field', () => {
    const body = reportBody(report) as unknown as Record<string, unknown>;
    expect(body.contentHash).toBeUndefined();
    expect(hash).toBe(sha256Hex(Buffer.from(canonicalJson(body), 'utf8')));
    expect(checkContentHash(report, sha256Hex)).toEqual({ holds: true, stored: hash, computed: hash });
  });

  it('does not change with key order or layout', () => {
    const reversed = reverseKeys(report as unknown as Json) as unknown as Report;
    expect(JSON.stringify(reversed)).not.toBe(JSON.stringify(report));
    expect(reportContentHash(reversed, sha256Hex)).toBe(hash);
    const compact = reportFromJson(JSON.stringify(report));
    expect(reportContentHash(compact, sha256Hex)).toBe(hash);
    expect(reportContentHash(reportFromJson(reportToJson(reversed)), sha256Hex)).toBe(hash);
  });

  it('changes when any value of the content changes', () => {
    const paths = leaves(reportBody(report) as unknown as Json);
    expect(paths.length).toBeGreaterThan(300);
    for (const path of paths) {
      const copy = structuredClone(report) as unknown as Json;
      setAt(copy, path, (v) => (typeof v === 'string' ? `${v}x` : typeof v === 'number' ? v + 1 : typeof v === 'boolean' ? !v : 'x'));
      expect(reportContentHash(copy as unknown as Report, sha256Hex), path.join('.')).not.toBe(hash);
    }
  });

  it('changes when any single character of a text changes, wherever it is', () => {
    const strings = leaves(reportBody(report) as unknown as Json).filter((p) => {
      let v: unknown = report;
      for (const k of p) v = (v as Record<string | number, unknown>)[k];
      return typeof v === 'string' && v.length > 0;
    });
    fc.assert(
      fc.property(fc.nat(strings.length - 1), fc.nat(), fc.integer({ min: 1, max: 0xffff }), (which, at, delta) => {
        const path = strings[which] as (string | number)[];
        const copy = structuredClone(report) as unknown as Json;
        setAt(copy, path, (v) => {
          const s = v as string;
          const i = at % s.length;
          // Any other UTF-16 unit at that position (a lone surrogate hashes as U+FFFD, like a different character).
          const code = (s.charCodeAt(i) + delta) % 0x10000;
          const ch = code >= 0xd800 && code <= 0xdfff ? 'Ω' : String.fromCharCode(code);
          return s.slice(0, i) + (ch === s[i] ? '∆' : ch) + s.slice(i + 1);
        });
        expect(reportContentHash(copy as unknown as Report, sha256Hex)).not.toBe(hash);
      }),
      { numRuns: 300 },
    );
  });

  it('changes when a citation is dropped or two swap places', () => {
    const dropped = structuredClone(report);
    dropped.citations.pop();
    expect(reportContentHash(dropped, sha256Hex)).not.toBe(hash);
    const swapped = structuredClone(report);
    swapped.citations.reverse();
    expect(reportContentHash(swapped, sha256Hex)).not.toBe(hash);
  });
});

describe('canonicalJson', () => {
  it('sorts keys by UTF-16 code units and writes values as JSON.stringify does', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], B: { z: 1e21, y: 0.1, x: -0 }, é: '"\n' })).toBe(
      '{"B":{"x":0,"y":0.1,"z":1e+21},"a":[true,null,"x"],"b":1,"é":"\\"\\n"}',
    );
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    // Integer-like keys sort as strings too ("10" before "9"), unlike a plain object's own order.
    expect(canonicalJson({ x: { 9: 'a', 10: 'b', a: 1 } })).toBe('{"x":{"10":"b","9":"a","a":1}}');
    expect(canonicalJson('top')).toBe('"top"');
  });

  it('holds for any JSON value: parses back equal, independent of key order, stable', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        // The same text whatever order the keys were inserted in.
        expect(canonicalJson(reverseKeys(v as Json))).toBe(text);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('writes long texts (excerpt images) as JSON.stringify does, escapes and all, in parts that join to the same text', () => {
    const image = `data:image/jpeg;base64,${'AbC+/9'.repeat(5000)}==`;
    const texts = [image, `${'x'.repeat(2000)}"quoted"\\ and a tab\t`, `${'é'.repeat(1500)}😀`, `${'y'.repeat(1500)}\ud800 lone`, 'z'.repeat(70_000)];
    for (const text of texts) {
      const value = { a: [text, 1], b: { text } };
      expect(canonicalJson(value)).toBe(JSON.stringify(value));
      const parts = canonicalJsonParts(value);
      expect(parts.join('')).toBe(canonicalJson(value));
      expect(Buffer.from(utf8BytesOfTexts(parts)).equals(Buffer.from(canonicalJson(value), 'utf8'))).toBe(true);
    }
    // Many small values gather into a few parts; the image is a part of its own.
    const many = { image, list: Array.from({ length: 20_000 }, (_, i) => ({ i, s: `item ${i}` })) };
    const parts = canonicalJsonParts(many);
    expect(parts).toContain(image);
    expect(parts.length).toBeLessThan(20);
    expect(parts.join('')).toBe(JSON.stringify(many));
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/NaN/);
    expect(() => canonicalJson({ n: Infinity })).toThrow(/Infinity/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
  });
});

describe('utf8Bytes (what the hash is taken over)', () => {
  // utf8Bytes is TextEncoder where the runtime has one; its written-out path must agree with it.
  it('encodes without TextEncoder as TextEncoder does, lone surrogates included', () => {
    fc.assert(
      // Any UTF-16 units: surrogate pairs, lone halves, every plane's boundaries.
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0x7f, 0x80, 0x7ff, 0x800, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd))), (units) => {
        const s = String.fromCharCode(...units);
        return Buffer.from(utf8BytesPortable(s)).equals(Buffer.from(new TextEncoder().encode(s)));
      }),
      { numRuns: 2000 },
    );
    for (const s of ['\ud800', 'a\udc00b', '\ud83d\ude00', 'x\ud83d', 'é€😀']) expect(Buffer.from(utf8BytesPortable(s)).equals(Buffer.from(new TextEncoder().encode(s))), JSON.stringify(s)).toBe(true);
  });
});
