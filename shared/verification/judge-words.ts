/**
 * The model judge's verdicts and outcomes, and why it gave none, in words: the part of judge.ts the
 * answer view needs on the first screen, without the reply schemas (zod) that judge.ts builds.
 */

/** What the judge may answer. */
export const JUDGE_VERDICTS = ['supported', 'not_supported', 'contradicted'] as const;
export type JudgeVerdict = (typeof JUDGE_VERDICTS)[number];

/** How asking the judge went: only `answered` carries a verdict. */
export const JUDGE_OUTCOMES = ['answered', 'timeout', 'malformed', 'failed', 'restricted'] as const;
export type JudgeOutcome = (typeof JUDGE_OUTCOMES)[number];

/** Why the judge gave no verdict, in words ("the model judge …"). */
export function judgeSilence(o: { outcome: JudgeOutcome }): string {
  const why: Record<Exclude<JudgeOutcome, 'answered'>, string> = {
    timeout: 'did not answer in time',
    malformed: 'gave an answer that could not be read',
    failed: 'could not be reached',
    restricted: 'was not asked: the source is restricted and is never sent to a model',
  };
  return why[o.outcome === 'answered' ? 'malformed' : o.outcome];
}
