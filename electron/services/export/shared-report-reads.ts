/**
 * A report's reads on a shared (PostgreSQL) workspace (issue 13): the answer and its sources
 * through the store interface as this member sees them (row-level security), the excerpts' bytes
 * from the member's own file or the shared snapshot (SharedSourceFiles), and the chain's head as
 * audit_head records it; its chain id is the shared workspace's id in every report. A report names
 * the member's login as its reviewer unless another name is typed (nothing is remembered locally).
 */
import fs from 'node:fs';
import type { EvidenceStore } from '../store/evidence-store.ts';
import type { SharedSourceFiles } from '../sources/shared-source-files.ts';
import type { AnswersService } from '../verification/answers-service.ts';
import type { RecordedHead } from '../store/postgres/pg-audit-chain.ts';
import type { ReportReads } from './report-reads.ts';

export interface SharedReportDeps {
  evidence: EvidenceStore;
  answers: AnswersService;
  files: Pick<SharedSourceFiles, 'resolve'>;
  /** The head audit_head records (PgStore.recordedHead). */
  recordedHead(): Promise<RecordedHead | undefined>;
  login: string;
  /** The shared workspace's name (server/database), the id when the chain has none recorded. */
  place: string;
}

export function sharedReportReads({ evidence, answers, files, recordedHead, login, place }: SharedReportDeps): ReportReads {
  return {
    detail: (id) => answers.detail(evidence, id),
    // The deterministic checks (no model judge), written as a run of this member's.
    verify: (id) => answers.verifyJudged(id, false),
    source: (id) => evidence.sources.get(id),
    properties: (ids) => evidence.sources.properties(ids),
    excerpts: {
      segments: (id) => evidence.sources.segments(id),
      pageSegment: (id, page) => evidence.sources.pageSegment(id, page),
      // The shared store keeps no page geometry: the child reads it from the PDF.
      pageTextItems: () => null,
      keepPageTextItems: () => undefined,
      bytes: async (src) => {
        const file = await files.resolve(src.id).catch(() => null);
        return file ? fs.promises.readFile(file.filePath).catch(() => null) : null;
      },
    },
    auditHead: async () => {
      const head = await recordedHead();
      return head ? { count: head.count, hash: head.hash } : { count: 0, hash: '' };
    },
    workspaceId: async () => (await recordedHead())?.chainId ?? place,
    lastReviewer: () => login,
    rememberReviewer: () => undefined,
  };
}
