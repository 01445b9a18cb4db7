/**
 * The audit entries of an import and of a run, the same on both engines: the walk compares entries
 * byte for byte, so each payload's keys keep this order.
 */
import { sha256Text } from './audit-head-file.ts';
import type { NewAnswer } from './answer-rows.ts';

export function importEntryPayload(answerId: number, a: NewAnswer, citations: number): Record<string, unknown> {
  return { answerId, format: a.format, origin: a.origin, citations, rawSha256: a.raw === null ? null : sha256Text(a.raw) };
}

/** A run stored whole. */
export function runEntryPayload(answerId: number, runId: number, verifier: string, byStatus: unknown): Record<string, unknown> {
  return { answerId, runId, verifier, byStatus };
}

/** The end of a run verified in batches. */
export function runEndEntryPayload(answerId: number, runId: number, verifier: string, byStatus: unknown, planned: number, done: number, state: string): Record<string, unknown> {
  return { answerId, runId, verifier, byStatus, planned, done, state };
}
