/**
 * Contract of library housekeeping (issue 12 item 4): rename an answer, remove an answer or a source
 * from view. Removal hides; every change is an appended row in the record, never a delete.
 */
import { z } from 'zod';
import { AnswerId, MAX_ANSWER_CHARS } from './answer-schemas.ts';
import { SourceId } from './schemas.ts';

export const AnswerName = z.string().trim().min(1).max(300);

export const LibraryChangeResult = z.object({ id: z.number().int().positive(), hidden: z.boolean(), name: z.string().nullable() });
export type LibraryChangeResult = z.infer<typeof LibraryChangeResult>;

/** An earlier import of the same answer file (its exact text), still in view. */
export const PreviousImport = z.object({ id: AnswerId, name: z.string(), createdAt: z.string() });
export type PreviousImport = z.infer<typeof PreviousImport>;

export const libraryContract = {
  'answers.rename': { input: z.object({ id: AnswerId, name: AnswerName }), output: LibraryChangeResult },
  /** Hides an answer: its citations, runs and review trail stay in the record (and the audit chain). */
  'answers.remove': { input: z.object({ id: AnswerId }), output: LibraryChangeResult },
  /** Shows a removed answer again. */
  'answers.restore': { input: z.object({ id: AnswerId }), output: LibraryChangeResult },
  /** Was this exact answer file imported before? Asked before importing, to offer a re-verification. */
  'answers.findImported': { input: z.object({ content: z.string().max(MAX_ANSWER_CHARS) }), output: z.object({ previous: PreviousImport.nullable() }) },
  /** Hides a source from the library and search; citations of it say it was removed. */
  'sources.remove': { input: z.object({ id: SourceId }), output: LibraryChangeResult },
  'sources.restore': { input: z.object({ id: SourceId }), output: LibraryChangeResult },
} as const;
