/**
 * What the export service reads to build a report, from the engine in use (issue 13): the answer
 * as stored (verified first when it has no run), its sources' rows and file properties, the
 * excerpts' text and bytes, the audit head and the workspace's id, and the reviewer name an export
 * starts from. The local workspace's are its SQLite stores, read as before (below); a shared
 * workspace's are in shared-report-reads.ts.
 */
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { DocumentProperties } from '../../../shared/domain/document-properties.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { SourceRow } from '../store/evidence-store.ts';
import type { ExportStore } from '../store/export-store.ts';
import type { SourcesStore } from '../store/sources-store.ts';
import type { AnswersService } from '../verification/answers-service.ts';
import { localExcerptSources, type ExcerptSources } from './excerpts.ts';

export interface ReportReads {
  /** The answer, its citations with their latest results and review trails. */
  detail(answerId: number): Promise<AnswerDetail>;
  /** A first verification run of an answer that has none (deterministic checks only). */
  verify(answerId: number): Promise<AnswerDetail>;
  source(id: number): Promise<SourceRow | undefined>;
  /** Authors and date each source's file gave of itself; sources without any are absent. */
  properties(ids: readonly number[]): Promise<Map<number, DocumentProperties>>;
  excerpts: ExcerptSources;
  /** The audit chain's entry count and last hash now. */
  auditHead(): Promise<{ count: number; hash: string }>;
  /** The workspace's stable id, printed in every report's provenance. */
  workspaceId(): Promise<string>;
  /** The reviewer name an export starts from (null: none). */
  lastReviewer(): string | null;
  /** Remembers the name an export gave (where the engine keeps one; empty clears it). */
  rememberReviewer(name: string | null): void;
}

export interface LocalReportStores {
  answers: AnswersService;
  store: ExportStore;
  sources: SourcesStore;
  audit: AuditService;
  workspaceDir: string;
}

/** A local workspace's reads: its SQLite stores, synchronous calls as before. */
export function localReportReads({ answers, store, sources, audit, workspaceDir }: LocalReportStores): ReportReads {
  return {
    detail: async (id) => answers.get(id),
    verify: async (id) => answers.verify(id),
    source: async (id) => sources.get(id),
    properties: async (ids) => sources.properties(ids),
    excerpts: localExcerptSources(sources, workspaceDir),
    auditHead: async () => audit.head(),
    workspaceId: async () => store.workspaceId(),
    lastReviewer: () => store.lastReviewer(),
    rememberReviewer: (name) => store.rememberReviewer(name),
  };
}
