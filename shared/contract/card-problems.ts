import type { CitationStatus } from '../verification/status.ts';
import type { ClaimVerdict } from '../verification/verdict.ts';

/** What counts as a problem: a quote not placed or only partly, a weak or unbacked claim (or a flagged card). */
export const PROBLEM_STATUSES: readonly CitationStatus[] = ['partial', 'not_found', 'source_unknown'];
export const PROBLEM_VERDICTS: readonly ClaimVerdict[] = ['weak', 'contradicted', 'not_found'];
