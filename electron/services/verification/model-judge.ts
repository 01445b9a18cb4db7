/**
 * The optional model judge over the answerer's OpenAI-compatible endpoint (same settings, same
 * client): for each citation whose quote was placed, it is asked whether the evidence supports the
 * claim. A restricted source's text is never sent; a time-out, an unreachable endpoint or a reply
 * that is not the one JSON object asked for gives an opinion without a verdict, and the
 * deterministic verdict stands (shared/verification/judge.ts decides how they combine).
 */
import { AppError } from '../../../shared/contract/errors.ts';
import { combineWithJudge, JUDGED_STATUSES, judgeMessages, parseJudgeReply, type JudgeOpinion } from '../../../shared/verification/judge.ts';
import { complete, type ModelSettings } from '../answerers/openai-compatible.ts';
import { withLedger, type AnswerVerification, type CitationOutcome } from './verifier.ts';

/** Evidence sent per citation, at most: the found text and its sentence context. */
const MAX_EVIDENCE_CHARS = 4000;
/** Requests in flight at once: a local server serves few at a time. */
const CONCURRENCY = 2;

export const JUDGE_NAME = 'model-judge@1';

export class ModelJudge {
  readonly settings: ModelSettings;
  constructor(settings: ModelSettings) {
    this.settings = settings;
  }

  private opinion(outcome: JudgeOpinion['outcome'], verdict: JudgeOpinion['verdict'] = null, reason: string | null = null): JudgeOpinion {
    return { model: this.settings.model, outcome, verdict, reason };
  }

  /** The judge's opinion on one claim and its evidence; never throws. */
  async ask(claim: string, evidence: string, restricted: boolean): Promise<JudgeOpinion> {
    // By control flow, not by trust in a prompt: a restricted source's words never reach the request.
    if (restricted) return this.opinion('restricted');
    let reply: string;
    try {
      reply = await complete(this.settings, judgeMessages(claim, evidence.slice(0, MAX_EVIDENCE_CHARS)));
    } catch (e) {
      const timedOut = e instanceof AppError && e.details?.timeout === true;
      return this.opinion(timedOut ? 'timeout' : 'failed', null, e instanceof Error ? e.message.slice(0, 300) : null);
    }
    const parsed = parseJudgeReply(reply);
    if (!parsed) return this.opinion('malformed', null, `unreadable reply: ${reply.replace(/\s+/g, ' ').trim().slice(0, 200)}`);
    return this.opinion('answered', parsed.verdict, parsed.reason);
  }

  /**
   * Opinions for every outcome the judge may look at (null for the others: a quote not placed is
   * not its business), and the outcomes with their verdicts combined and a note where it mattered.
   */
  async judge(v: AnswerVerification): Promise<{ verification: AnswerVerification; opinions: (JudgeOpinion | null)[] }> {
    const opinions: (JudgeOpinion | null)[] = v.outcomes.map(() => null);
    const todo = v.outcomes.flatMap((o, i) => (JUDGED_STATUSES.has(o.status) && o.evidence && o.claim.trim() ? [i] : []));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < todo.length) {
        const i = todo[next++] as number;
        const o = v.outcomes[i] as CitationOutcome;
        opinions[i] = await this.ask(o.claim, o.evidence ?? '', o.source?.restricted === 1);
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, todo.length) }, worker));
    const outcomes = v.outcomes.map((o, i) => {
      const opinion = opinions[i] ?? null;
      if (!opinion) return o;
      const c = combineWithJudge({ status: o.status, verdict: o.verdict, confidence: o.confidence }, opinion, o.claim, o.evidence ?? '');
      return { ...o, verdict: c.verdict, confidence: c.confidence, notes: c.note ? [...o.notes, c.note] : o.notes };
    });
    return { verification: withLedger(outcomes, v.extraFlags), opinions };
  }
}
