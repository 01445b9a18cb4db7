/**
 * What a citation result carries beside its own row (migration 9): the model judge's opinion and,
 * for a quote not found, the passage that came closest. Append-only, one of each per result, and
 * recorded in the audit chain like the result itself.
 */
import type { AnswersStore } from './answers-store.ts';

export interface JudgeOpinionRow {
  id: number;
  result_id: number;
  model: string;
  outcome: string;
  verdict: string | null;
  reason: string | null;
  created_at: string;
}

export interface ClosestPassageRow {
  id: number;
  result_id: number;
  source_id: number;
  segment_id: number;
  start_offset: number;
  end_offset: number;
  score: number;
  text: string;
  created_at: string;
}

export interface NewJudgeOpinion {
  model: string;
  outcome: string;
  verdict: string | null;
  reason: string | null;
}

export interface NewClosestPassage {
  sourceId: number;
  segmentId: number;
  start: number;
  end: number;
  score: number;
  text: string;
}

export class ResultExtrasStore {
  private readonly answers: AnswersStore;
  constructor(answers: AnswersStore) {
    this.answers = answers;
  }

  insertOpinion(resultId: number, o: NewJudgeOpinion, now: string): number {
    const r = this.answers.db
      .prepare('INSERT INTO judge_opinions (result_id, model, outcome, verdict, reason, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(resultId, o.model, o.outcome, o.verdict, o.reason, now);
    const id = Number(r.lastInsertRowid);
    this.answers.chain.record('judge_opinions', id, now);
    return id;
  }

  insertClosest(resultId: number, p: NewClosestPassage, now: string): number {
    const r = this.answers.db
      .prepare('INSERT INTO closest_passages (result_id, source_id, segment_id, start_offset, end_offset, score, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(resultId, p.sourceId, p.segmentId, p.start, p.end, Math.max(0, Math.min(1, p.score)), p.text, now);
    const id = Number(r.lastInsertRowid);
    this.answers.chain.record('closest_passages', id, now);
    return id;
  }

  /** The opinions of a run's results, by result id. */
  opinions(runId: number): Map<number, JudgeOpinionRow> {
    const rows = this.answers.db
      .prepare('SELECT j.* FROM judge_opinions j JOIN citation_results r ON r.id = j.result_id WHERE r.run_id = ?')
      .all(runId) as JudgeOpinionRow[];
    return new Map(rows.map((r) => [r.result_id, r]));
  }

  /** The closest passages of a run's results, by result id. */
  closest(runId: number): Map<number, ClosestPassageRow> {
    const rows = this.answers.db
      .prepare('SELECT p.* FROM closest_passages p JOIN citation_results r ON r.id = p.result_id WHERE r.run_id = ?')
      .all(runId) as ClosestPassageRow[];
    return new Map(rows.map((r) => [r.result_id, r]));
  }
}
