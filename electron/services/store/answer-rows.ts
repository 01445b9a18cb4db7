/** The rows of answers, citations, runs, results and reviews as the SQLite store reads and writes them, with the SQL both engines share. */
export interface AnswerRow {
  id: number;
  format: string;
  question: string | null;
  answer_text: string;
  origin: string;
  raw: string | null;
  created_at: string;
}

export interface AnswerListRow extends AnswerRow {
  citation_count: number;
  run_id: number | null;
  run_created_at: string | null;
  run_summary: string | null;
  run_risk_flags: string | null;
}

export interface CitationRow {
  id: number;
  answer_id: number;
  ordinal: number;
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  source_id: number | null;
  unknown_source_id: number | null;
  claimed_locator: string;
  method: string | null;
  confidence: string | null;
  supersedes_id: number | null;
  created_at: string;
  /** Joined: the unknown source's reference, when the citation points at one. */
  unknown_reference: string | null;
}

/** The answers list's query (both engines), over the answer columns `columns` names (of `a`). */
export function answerListSql(columns: string): string {
  return `SELECT ${columns},
     (SELECT count(*) FROM citations c WHERE c.answer_id = a.id
        AND NOT EXISTS (SELECT 1 FROM citations n WHERE n.supersedes_id = c.id)) AS citation_count,
     r.id AS run_id, r.created_at AS run_created_at, coalesce(e.summary, r.summary) AS run_summary, coalesce(e.risk_flags, r.risk_flags) AS run_risk_flags
   FROM answers a
   LEFT JOIN verification_runs r ON r.id = (SELECT max(id) FROM verification_runs WHERE answer_id = a.id)
   LEFT JOIN verification_run_ends e ON e.run_id = r.id
   ORDER BY a.created_at DESC, a.id DESC`;
}

export interface RunRow {
  id: number;
  answer_id: number;
  verifier: string;
  /** The end row's summary and risk flags when the run was verified in batches (migration 16). */
  summary: string;
  risk_flags: string;
  created_at: string;
  /** Citations a run verified in batches set out to verify; null for a run stored whole. */
  planned: number | null;
  /** Its end ('complete' | 'cancelled'), null while it runs or when it was interrupted. */
  end_state: string | null;
  /** Results it stored: those its end counts, else those committed so far. */
  done: number | null;
}

export interface RunEnd {
  state: 'complete' | 'cancelled';
  done: number;
  summary: unknown;
  riskFlags: unknown;
}

/**
 * A run with its end, if any: a run verified in batches is written before its summary is known,
 * and its end row holds it. For such a run without an end, the results committed so far are counted.
 */
export const RUN_SELECT = `SELECT r.id, r.answer_id, r.verifier, coalesce(e.summary, r.summary) AS summary, coalesce(e.risk_flags, r.risk_flags) AS risk_flags,
    r.created_at, r.planned, e.state AS end_state,
    CASE WHEN r.planned IS NULL THEN NULL ELSE coalesce(e.done, (SELECT count(*) FROM citation_results x WHERE x.run_id = r.id)) END AS done
  FROM verification_runs r LEFT JOIN verification_run_ends e ON e.run_id = r.id`;

export interface ResultRow {
  id: number;
  run_id: number;
  citation_id: number;
  status: string;
  verdict: string;
  score: number;
  confidence: number;
  source_id: number | null;
  segment_id: number | null;
  start_offset: number | null;
  end_segment_id: number | null;
  end_offset: number | null;
  /** For a quote that runs on: the end of its part in segment_id, the start of its part in end_segment_id. */
  first_end: number | null;
  last_start: number | null;
  page: number | null;
  page_label: string | null;
  match_method: string | null;
  matched_text: string | null;
  quote: string | null;
  prefix: string | null;
  suffix: string | null;
  notes: string;
}

export interface ReviewRow {
  id: number;
  citation_id: number;
  /** The decision in force after this row ('cleared': none). */
  decision: 'accepted' | 'rejected' | 'flagged' | 'cleared';
  note: string | null;
  supersedes_id: number | null;
  created_at: string;
  /** Who decided (null on rows from before migration 8, or when no name was given). */
  reviewer: string | null;
  /** On an undo row: the row it takes back. */
  undoes_id: number | null;
}

export interface NewReview {
  citationId: number;
  decision: ReviewRow['decision'];
  note: string | null;
  reviewer: string | null;
  undoesId: number | null;
}

export interface NewAnswer {
  format: string;
  question: string | null;
  answerText: string;
  origin: string;
  raw: string | null;
}

export interface NewCitation {
  answerId: number;
  ordinal: number;
  marker: string;
  claim: string;
  quote: string | null;
  context: string | null;
  sourceId: number | null;
  unknownReference: string | null;
  claimedLocator: Record<string, unknown>;
  method: string | null;
  confidence: string | null;
  supersedesId: number | null;
}

export interface NewResult {
  citationId: number;
  status: string;
  verdict: string;
  score: number;
  confidence: number;
  sourceId: number | null;
  segmentId: number | null;
  startOffset: number | null;
  endSegmentId: number | null;
  endOffset: number | null;
  firstEnd: number | null;
  lastStart: number | null;
  page: number | null;
  pageLabel: string | null;
  matchMethod: string | null;
  matchedText: string | null;
  quote: string | null;
  prefix: string | null;
  suffix: string | null;
  notes: string[];
}

/**
 * All SQL about answers, citations, verification runs and their results, review decisions and
 * the audit log. Rows are only ever inserted (the schema's triggers refuse UPDATE and DELETE).
 */
