/**
 * The optional model judge (issue 10): what it is asked, how its reply is read, and how its opinion
 * meets the deterministic verdict. Pure: the HTTP call lives in electron/services/verification.
 *
 * The judge is asked one thing only: does this evidence support this claim? Whether the quote exists
 * is never its business (anchoring decides that), and the deterministic checks win on numbers and
 * on their own contradictions.
 */
import { z } from 'zod';
import type { CitationStatus } from './status.ts';
import { extractDates, extractNumbers, type ClaimVerdict } from './verdict.ts';
import { JUDGE_OUTCOMES, JUDGE_VERDICTS, judgeSilence, type JudgeVerdict } from './judge-words.ts';
export { JUDGE_OUTCOMES, JUDGE_VERDICTS, judgeSilence, type JudgeOutcome, type JudgeVerdict } from './judge-words.ts';

/** The one reply accepted: a JSON object with exactly these two fields. */
export const JudgeReply = z.strictObject({
  verdict: z.enum(JUDGE_VERDICTS),
  reason: z.string().trim().min(1).max(600),
});
export type JudgeReply = z.infer<typeof JudgeReply>;

/** The judge's opinion on one citation, as stored with the run and shown on the card. */
export const JudgeOpinion = z.strictObject({
  model: z.string(),
  outcome: z.enum(JUDGE_OUTCOMES),
  verdict: z.enum(JUDGE_VERDICTS).nullable(),
  reason: z.string().nullable(),
});
export type JudgeOpinion = z.infer<typeof JudgeOpinion>;

/** Statuses whose evidence may be judged: the quote was placed (or none was given, and a passage stands in). */
export const JUDGED_STATUSES: ReadonlySet<CitationStatus> = new Set(['verified', 'verified_elsewhere', 'partial', 'no_quote']);

export const JUDGE_SYSTEM_PROMPT =
  'You check whether a piece of evidence supports a claim, as a careful analyst would. Read meaning, not word overlap: ' +
  'a faithful paraphrase is supported; a claim that says more than the evidence, changes who does what, changes a number, ' +
  'a quantity, a modality (must/may) or a direction is not supported; a claim that states the opposite of the evidence is ' +
  'contradicted. Use only the evidence, no outside knowledge. Do not judge whether the evidence is quoted correctly. ' +
  'Reply with one JSON object and nothing else: {"verdict": "supported" | "not_supported" | "contradicted", "reason": "<one short sentence>"}';

export function judgeMessages(claim: string, evidence: string): { role: 'system' | 'user'; content: string }[] {
  return [
    { role: 'system', content: JUDGE_SYSTEM_PROMPT },
    { role: 'user', content: `Claim:\n${claim.trim()}\n\nEvidence:\n${evidence.trim()}` },
  ];
}

/**
 * Reads the judge's reply strictly: one JSON object with `verdict` and `reason` and nothing else
 * (a Markdown code fence around it, as local models often add, is allowed). Anything else is null.
 */
export function parseJudgeReply(text: string): JudgeReply | null {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const r = JudgeReply.safeParse(json);
  return r.success ? r.data : null;
}

export interface Deterministic {
  status: CitationStatus;
  verdict: ClaimVerdict;
  confidence: number;
}

export interface Combined {
  verdict: ClaimVerdict;
  confidence: number;
  /** A sentence for the verifier's notes saying what the judge changed or why it was set aside. */
  note: string | null;
}

/** Numbers and dates of the claim the evidence does not state (compared by value). */
export function unbackedFigures(claim: string, evidence: string): string[] {
  const have = extractNumbers(evidence).map((n) => n.value);
  const missing = extractNumbers(claim)
    .filter((n) => !have.some((v) => Math.abs(v - n.value) < 1e-9))
    .map((n) => n.raw);
  const ev = evidence.toLowerCase();
  for (const d of extractDates(claim)) if (!ev.includes(d.raw.toLowerCase())) missing.push(d.raw);
  return missing;
}

const VERDICT_OF: Record<JudgeVerdict, ClaimVerdict> = { supported: 'supported', not_supported: 'weak', contradicted: 'contradicted' };

/**
 * The verdict once the judge has spoken. The deterministic result wins where it is reliable: a quote
 * that was not placed is never judged; a deterministic contradiction stands; a claim whose numbers
 * or dates the evidence lacks is never made `supported`; a partial match is at best `weak`.
 * Otherwise the judge, which reads meaning, decides between supported, weak and contradicted.
 */
export function combineWithJudge(det: Deterministic, opinion: JudgeOpinion | null, claim: string, evidence: string): Combined {
  if (!opinion) return { verdict: det.verdict, confidence: det.confidence, note: null };
  if (opinion.outcome !== 'answered' || !opinion.verdict) {
    return { verdict: det.verdict, confidence: det.confidence, note: `the model judge ${judgeSilence(opinion)}; the deterministic verdict stands` };
  }
  if (!JUDGED_STATUSES.has(det.status)) return { verdict: det.verdict, confidence: det.confidence, note: null };
  const wanted = VERDICT_OF[opinion.verdict];
  if (wanted === det.verdict) return { verdict: det.verdict, confidence: Math.max(det.confidence, 0.8), note: null };
  if (det.verdict === 'contradicted') return { verdict: det.verdict, confidence: det.confidence, note: 'the model judge disagrees; the deterministic contradiction stands' };
  if (wanted === 'supported') {
    const missing = unbackedFigures(claim, evidence);
    if (missing.length > 0) return { verdict: det.verdict, confidence: det.confidence, note: `the model judge calls it supported, but the evidence does not state ${missing.join(', ')}; the deterministic verdict stands` };
    if (det.status === 'partial' || det.status === 'no_quote') return { verdict: det.verdict, confidence: det.confidence, note: 'the model judge calls it supported, but the quote was not matched exactly; the deterministic verdict stands' };
  }
  return { verdict: wanted, confidence: 0.7, note: `verdict from the model judge (${opinion.verdict.replace('_', ' ')}); the rules said ${det.verdict}` };
}
