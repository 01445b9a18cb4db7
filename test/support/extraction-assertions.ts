import { expect } from 'vitest';
import { AppError } from '../../shared/contract/errors.ts';
import type { ExtractedDocument, ExtractedSegment } from '../../electron/services/ingest/extracted.ts';

/** The one segment holding `phrase`, and the phrase's [start, end) in it. */
export function findPhrase(doc: ExtractedDocument, phrase: string): { seg: ExtractedSegment; start: number; end: number } {
  const hits = doc.segments.filter((s) => s.text.includes(phrase));
  expect(hits, `"${phrase}" is in exactly one segment`).toHaveLength(1);
  const seg = hits[0];
  if (!seg) throw new Error('unreachable');
  const start = seg.text.indexOf(phrase);
  return { seg, start, end: start + phrase.length };
}

/** The AppError a promise rejects with; fails the test when it resolves or throws anything else. */
export async function appErrorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected the call to fail');
}
