import { describe, expect, it } from 'vitest';
import type { CitationMark } from '../../../shared/contract/card-schemas.ts';
import { packMarks, unpackMarks } from '../../../shared/contract/packed-marks.ts';
import { CITATION_STATUSES } from '../../../shared/verification/status.ts';
import { CLAIM_VERDICTS } from '../../../shared/verification/verdict.ts';

describe('packed markers (answers.open)', () => {
  it('unpacks every status, verdict, unit and decision, and none, as they were', () => {
    const units = ['page', 'block', 'line', null] as const;
    const decisions = ['accepted', 'rejected', 'flagged', null] as const;
    const statuses = [...CITATION_STATUSES, null];
    const verdicts = [...CLAIM_VERDICTS, null];
    const marks: CitationMark[] = statuses.flatMap((status, i) =>
      verdicts.map((verdict, j) => ({ id: 1 + i * 10 + j, marker: j % 2 ? `S${i}` : `${i}.${j}`, status, verdict, unit: units[(i + j) % 4] ?? null, decision: decisions[(i * j) % 4] ?? null })),
    );
    const packed = packMarks(marks);
    expect(packed.codes).toHaveLength(marks.length * 4);
    expect(unpackMarks(packed)).toEqual(marks);
    expect(unpackMarks(packMarks([]))).toEqual([]);
  });

  it('refuses a packing whose parts disagree or name no value', () => {
    expect(() => unpackMarks({ ids: [1, 2], markers: ['1'], codes: '--------' })).toThrow(/disagree/);
    expect(() => unpackMarks({ ids: [1], markers: ['1'], codes: '000' })).toThrow(/disagree/);
    expect(() => unpackMarks({ ids: [1], markers: ['1'], codes: '9000' })).toThrow(/names none/);
  });

  it('refuses to pack a value outside its list', () => {
    expect(() => packMarks([{ id: 1, marker: '1', status: 'bogus' as never, verdict: null, unit: null, decision: null }])).toThrow(/bogus/);
  });
});
