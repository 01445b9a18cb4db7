// Ingest a file through the services and read back what was stored (through the engine in use), so that tests check the text
// at each locator rather than what an extractor returned in memory.
import { expect } from 'vitest';
import type { IngestFileResult } from '../../shared/contract/schemas.ts';
import type { SegmentRow } from '../../electron/services/store/sources-store.ts';
import type { TestServices } from './workspace.ts';

export type IngestedFile = Extract<IngestFileResult, { ok: true }>;

/** Ingests one file and returns its result; fails the test with the error when it was refused. */
export async function ingestOne(services: TestServices, file: string, password?: string): Promise<IngestedFile> {
  const [r] = (await services.ingest.ingest({ paths: [file], ...(password !== undefined ? { password } : {}) })).files;
  if (!r?.ok) throw new Error(`ingest of ${file} failed: ${JSON.stringify(r)}`);
  return r;
}

/** The one error a refused file got. */
export async function ingestFailure(services: TestServices, file: string): Promise<{ code: string; message: string }> {
  const [r] = (await services.ingest.ingest({ paths: [file] })).files;
  if (!r || r.ok) throw new Error(`expected ${file} to be refused, got ${JSON.stringify(r)}`);
  return r.error;
}

export interface StoredHit {
  seg: SegmentRow;
  start: number;
  end: number;
}

/**
 * The one stored segment holding `phrase`, and [start, end) such that the stored text there is the
 * phrase (checked here, so callers need only check the locator).
 */
export async function storedPhrase(services: TestServices, sourceId: number, phrase: string): Promise<StoredHit> {
  const hits = (await storedSegments(services, sourceId)).filter((s) => s.text.includes(phrase));
  expect(hits.map((s) => s.text), `"${phrase}" is stored in exactly one segment`).toHaveLength(1);
  const seg = hits[0];
  if (!seg) throw new Error('unreachable');
  const start = seg.text.indexOf(phrase);
  expect(seg.text.slice(start, start + phrase.length)).toBe(phrase);
  return { seg, start, end: start + phrase.length };
}

/** A source's stored segments in order, read through the engine in use (SQLite or PostgreSQL). */
export function storedSegments(services: TestServices, sourceId: number): Promise<SegmentRow[]> {
  return services.evidence.sources.segments(sourceId);
}

/** Every stored segment's text, in order. */
export async function storedTexts(services: TestServices, sourceId: number): Promise<string[]> {
  return (await storedSegments(services, sourceId)).map((s) => s.text);
}

/** The 1-based line on which a hit starts, counted from its segment's first line. */
export function lineOf(hit: StoredHit): number {
  const before = hit.seg.text.slice(0, hit.start);
  return (hit.seg.line_start ?? 0) + (before.match(/\n/g)?.length ?? 0);
}
