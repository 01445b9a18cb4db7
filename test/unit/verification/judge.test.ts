import { describe, expect, it } from 'vitest';
import { combineWithJudge, judgeMessages, parseJudgeReply, unbackedFigures, type JudgeOpinion } from '../../../shared/verification/judge.ts';

const said = (verdict: JudgeOpinion['verdict'], reason = 'because'): JudgeOpinion => ({ model: 'm', outcome: 'answered', verdict, reason });
const silent = (outcome: JudgeOpinion['outcome']): JudgeOpinion => ({ model: 'm', outcome, verdict: null, reason: null });

describe('reading the judge’s reply', () => {
  it('accepts exactly one JSON object with verdict and reason, fenced or not', () => {
    expect(parseJudgeReply('{"verdict":"supported","reason":"It says so."}')).toEqual({ verdict: 'supported', reason: 'It says so.' });
    expect(parseJudgeReply('```json\n{"verdict": "contradicted", "reason": "Opposite."}\n```')).toEqual({ verdict: 'contradicted', reason: 'Opposite.' });
  });

  it('refuses prose, extra fields, unknown verdicts, empty reasons and text around the object', () => {
    for (const bad of [
      'Supported.',
      '{"verdict":"supported"}',
      '{"verdict":"supported","reason":"x","confidence":0.9}',
      '{"verdict":"maybe","reason":"x"}',
      '{"verdict":"supported","reason":"  "}',
      'Here you go: {"verdict":"supported","reason":"x"}',
      '{"verdict":"supported","reason":"x"',
      '',
    ]) {
      expect(parseJudgeReply(bad), bad).toBeNull();
    }
  });

  it('asks about support only, with the claim and the evidence', () => {
    const [system, user] = judgeMessages(' The claim. ', ' The evidence. ');
    expect(system?.content).toContain('Do not judge whether the evidence is quoted correctly');
    expect(user?.content).toBe('Claim:\nThe claim.\n\nEvidence:\nThe evidence.');
  });
});

describe('the judge meets the deterministic verdict', () => {
  const evidence = 'Employees receive 14 days of annual leave per calendar year.';

  it('refines a weak verdict either way', () => {
    expect(combineWithJudge({ status: 'verified', verdict: 'weak', confidence: 0.4 }, said('supported'), 'Staff get fourteen days off.', evidence).verdict).toBe('supported');
    expect(combineWithJudge({ status: 'verified', verdict: 'weak', confidence: 0.4 }, said('contradicted'), 'Employees receive no annual leave.', evidence).verdict).toBe('contradicted');
  });

  it('lowers a supported verdict it disagrees with, and says so', () => {
    const c = combineWithJudge({ status: 'verified', verdict: 'supported', confidence: 0.9 }, said('not_supported'), 'The leader may expel developers.', evidence);
    expect(c).toMatchObject({ verdict: 'weak', note: 'verdict from the model judge (not supported); the rules said supported' });
  });

  it('never overrides a deterministic contradiction, numbers the evidence lacks, a partial match or a quote not found', () => {
    expect(combineWithJudge({ status: 'verified', verdict: 'contradicted', confidence: 0.85 }, said('supported'), 'Employees receive 20 days.', evidence).verdict).toBe('contradicted');
    expect(combineWithJudge({ status: 'verified', verdict: 'weak', confidence: 0.4 }, said('supported'), 'Employees receive 14 days and 3 bonus days.', evidence)).toMatchObject({ verdict: 'weak', note: expect.stringContaining('does not state 3') });
    expect(combineWithJudge({ status: 'partial', verdict: 'weak', confidence: 0.4 }, said('supported'), 'Employees get annual leave.', evidence).verdict).toBe('weak');
    expect(combineWithJudge({ status: 'not_found', verdict: 'not_found', confidence: 0.9 }, said('supported'), 'Employees get annual leave.', evidence).verdict).toBe('not_found');
  });

  it('falls back with a note when the judge did not answer', () => {
    for (const [outcome, words] of [
      ['timeout', 'did not answer in time'],
      ['malformed', 'could not be read'],
      ['failed', 'could not be reached'],
      ['restricted', 'restricted'],
    ] as const) {
      const c = combineWithJudge({ status: 'verified', verdict: 'weak', confidence: 0.4 }, silent(outcome), 'x', evidence);
      expect(c.verdict).toBe('weak');
      expect(c.note).toContain(words);
      expect(c.note).toContain('the deterministic verdict stands');
    }
  });

  it('finds the figures of a claim its evidence does not state', () => {
    expect(unbackedFigures('Leave is 14 days from 2024.', 'Leave: 14 days.')).toContain('2024');
    expect(unbackedFigures('Leave is 14 days.', 'Leave: 14 days.')).toEqual([]);
  });
});
