/**
 * register_source's steps on either engine (citation-service.ts over SQLite, shared-register.ts
 * over PostgreSQL). A path: the file checked, ingested as any added file (the engine's ingest area:
 * SQLite's writer, or PostgreSQL's transaction as the member, where the grants decide who may add a
 * source), and the reply built from the stored source. A custom source: its identifier checked, and
 * the reply for the row found or made.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RegisteredSource } from '../../../shared/contract/citation-schemas.ts';
import type { IngestFileResult } from '../../../shared/contract/schemas.ts';
import { AppError } from '../../../shared/contract/errors.ts';
import type { IngestService } from '../ingest/ingest-service.ts';
import type { CustomSourceRow } from '../store/citations-store.ts';

export type RegisteredFile = Extract<IngestFileResult, { ok: true }>;

/** Ingests the one file at `given` (resolved from the server's folder); a failure is the file's own coded error, field "path". */
export async function ingestOneFile(ingest: Pick<IngestService, 'ingest'>, given: string): Promise<{ file: string; done: RegisteredFile }> {
  const file = path.resolve(given);
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) throw new AppError('FILE_MISSING', `path: there is no file at ${file}.`, { field: 'path', path: file });
  if (!stat.isFile()) throw new AppError('INVALID_INPUT', `path: ${file} is not a file; register one document at a time.`, { field: 'path', path: file });
  const result = await ingest.ingest({ paths: [file] });
  const done = result.files[0];
  if (!done) throw new AppError('UNSUPPORTED_TYPE', `path: ${path.basename(file)} is not a kind of document Evidence Desk reads (PDF, DOCX, HTML, text, Markdown).`, { field: 'path', path: file });
  if (!done.ok) throw new AppError(done.error.code, `path: ${done.error.message}`, { ...done.error.details, field: 'path', path: file });
  return { file, done };
}

/** What the agent is told of a registered file, from its stored source's row (absent: what ingest said). */
export function registeredFile(file: string, done: RegisteredFile, source: { file_name: string; page_count: number | null; restricted: number } | undefined): RegisteredSource {
  return {
    kind: 'file',
    outcome: done.outcome,
    source_id: done.sourceId,
    sha256: done.sha256,
    file_name: source?.file_name ?? path.basename(file),
    identifier: String(done.sourceId),
    page_count: source?.page_count ?? null,
    restricted: source?.restricted === 1,
    notes: done.warnings.map((w) => w.message),
  };
}

/** A custom source needs a name: a bare number would read as a source id. */
export function checkCustomIdentifier(identifier: string): void {
  if (/^\d+$/.test(identifier)) throw new AppError('INVALID_INPUT', 'custom.identifier: a custom source needs a name, not a bare number (numbers are source ids).', { field: 'custom.identifier' });
}

/** What the agent is told of a custom source registered (`added`) or found with `given`'s identifier. */
export function customRegistered(row: CustomSourceRow, added: boolean, given: { description: string }): RegisteredSource {
  const notes = ['citations of a custom source are recorded as given: they cannot be quote-checked'];
  if (!added && row.description !== given.description) notes.push(`already registered with another description ("${row.description.slice(0, 200)}"); that one stays`);
  return { kind: 'custom', outcome: added ? 'added' : 'existing', source_id: null, sha256: null, file_name: null, identifier: row.identifier, page_count: null, restricted: false, notes };
}
