/**
 * The `runs` area's writes, the same rows and audit entries on both engines (issue 13): on
 * PostgreSQL they are inserted many to a statement (pg-runs.ts), so this pins what a row-by-row
 * write gave: citations in answer order, an unknown source recorded once, its entry just before
 * the citation first naming it; each result's entry followed by its closest passage's and its
 * judge opinion's; ids in the batch's order; the chain whole.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import type { NewAnswerImport, NewOutcome } from '../../../electron/services/store/evidence-store.ts';
import { addSmallSources } from '../../support/scale-workspace.ts';
import { auditCheck, ownerSql } from '../../support/engine-rows.ts';
import { describeEngines } from '../../support/engines.ts';

const NOW = '2026-11-25T10:00:00.000Z';
/** 1,100 citations: more than one chunk of a multi-row insert. */
const COUNT = 1_100;

/** Citation i names an unknown source for i % 50 === 7 (two references, alternating), else source `sourceId`. */
function answer(sourceId: number): NewAnswerImport {
  return {
    answer: { format: 'json', question: 'q', answerText: 'a', origin: 'test', raw: '{"x":1}' },
    citations: Array.from({ length: COUNT }, (_, i) => {
      const unknown = i % 50 === 7;
      return {
        marker: `[${i + 1}]`,
        claim: `claim ${i}`,
        quote: i % 11 === 0 ? null : `quote ${i} with 'quotes', "doubles", {braces} and \\ backslash`,
        context: i % 2 === 0 ? `context ${i}` : null,
        sourceId: unknown ? null : sourceId,
        unknownReference: unknown ? JSON.stringify({ file: `missing-${(i / 50) % 2 < 1 ? 'a' : 'b'}.pdf` }) : null,
        claimedLocator: { page: i },
        method: i % 3 === 0 ? 'paraphrase' : null,
        confidence: i % 4 === 0 ? 'high' : null,
      };
    }),
  };
}

function outcome(i: number, sourceId: number, segmentId: number): NewOutcome {
  const found = i % 6 !== 0;
  return {
    result: {
      status: found ? 'verified' : 'not_found', verdict: found ? 'supported' : 'not_found', score: found ? 0.5 + (i % 4) / 8 : 0.25, confidence: 0.5,
      sourceId: found ? sourceId : null, segmentId: found ? segmentId : null, startOffset: found ? 1 : null, endSegmentId: null, endOffset: found ? 9 : null,
      firstEnd: null, lastStart: null, page: found ? 1 : null, pageLabel: i % 5 === 0 ? 'iv' : null, matchMethod: found ? 'exact' : null,
      matchedText: found ? `matched ${i}` : null, quote: `quote ${i}`, prefix: null, suffix: found ? '.' : null, notes: i % 7 === 0 ? ['a note', 'another'] : [],
    },
    closest: !found ? { sourceId, segmentId, start: 0, end: 5, score: 1.5, text: `closest ${i}` } : null,
    opinion: i % 4 === 0 ? (i % 8 === 0 ? { model: 'm', outcome: 'answered', verdict: 'supported', reason: `r ${i}` } : { model: 'm', outcome: 'timeout', verdict: null, reason: null }) : null,
  };
}

/** What the chain says was written after entry `after`: each entry's action and table, and the row's key columns. */
async function written(o: Parameters<typeof ownerSql>[0], after: number): Promise<string[]> {
  const entries = await ownerSql<{ action: string; table_name: string | null; row_id: number | null }>(o, 'SELECT action, table_name, row_id FROM audit_log WHERE id > ? ORDER BY id', [after]);
  const key: Record<string, string> = {
    answers: 'format',
    citations: "ordinal || ':' || coalesce(quote, '-') || ':' || coalesce(unknown_source_id, 0) || ':' || claimed_locator",
    unknown_sources: 'reference',
    verification_runs: 'verifier',
    citation_results: "status || ':' || score || ':' || notes || ':' || coalesce(page_label, '-')",
    closest_passages: 'text',
    judge_opinions: "outcome || ':' || coalesce(reason, '-')",
    verification_run_ends: 'state',
  };
  const keys = new Map<string, Map<number, string>>();
  for (const [table, column] of Object.entries(key)) {
    const rows = await ownerSql<{ id: number; k: string }>(o, `SELECT id, ${column} AS k FROM ${table}`);
    keys.set(table, new Map(rows.map((r) => [Number(r.id), String(r.k)])));
  }
  const out = entries.map((e) => (e.table_name === null ? e.action : `${e.table_name}:${keys.get(e.table_name)?.get(Number(e.row_id)) ?? 'missing'}`));
  return out;
}

describeEngines('the runs area writes', (engine) => {
  it('stores an import, a run in batches and a run whole as row-by-row writes did, the chain whole', { timeout: 120_000 }, async () => {
    const o = await engine.open(async (t) => addSmallSources(t.sources, path.join(t.dir, 'notes'), 2), { as: 'reviewer' });
    const sourceId = o.prepared[0] ?? 0;
    const runs = o.services.evidence.runs;
    const segmentId = (await o.services.evidence.sources.segments(sourceId))[0]?.id ?? 0;
    const before = Number((await ownerSql<{ n: number }>(o, 'SELECT coalesce(max(id), 0) AS n FROM audit_log'))[0]?.n ?? 0);

    const summary = { total: COUNT, byStatus: {} } as never;
    const started = await runs.beginRun({ import: answer(sourceId) }, { verifier: 'v', summary, riskFlags: [], planned: COUNT }, NOW);
    expect(started.citationIds).toHaveLength(COUNT);
    // Ids in answer order.
    expect([...started.citationIds].sort((a, b) => a - b)).toEqual(started.citationIds);
    const all = Array.from({ length: COUNT }, (_, i) => outcome(i, sourceId, segmentId));
    await runs.recordBatch(started.runId, started.citationIds.slice(0, 600), all.slice(0, 600), NOW);
    await runs.recordBatch(started.runId, started.citationIds.slice(600), all.slice(600), NOW);
    await runs.endRun(started.answerId, started.runId, { state: 'complete', done: COUNT, summary, riskFlags: [], verifier: 'v', planned: COUNT }, NOW);
    await runs.recordRun(started.answerId, started.citationIds.slice(0, 30), { verifier: 'w', summary, riskFlags: [], outcomes: all.slice(0, 30) }, NOW);

    // The entries, in the order a row-by-row write made them.
    const expected: string[] = ['answers:json'];
    const unknownSeen = new Set<string>();
    const unknownIds = new Map<string, number>();
    const ids = await ownerSql<{ id: number; reference: string }>(o, 'SELECT id, reference FROM unknown_sources');
    for (const r of ids) unknownIds.set(r.reference, Number(r.id));
    for (const [i, c] of answer(sourceId).citations.entries()) {
      if (c.unknownReference !== null && !unknownSeen.has(c.unknownReference)) {
        unknownSeen.add(c.unknownReference);
        expected.push(`unknown_sources:${c.unknownReference}`);
      }
      const unknownId = c.unknownReference === null ? 0 : (unknownIds.get(c.unknownReference) ?? -1);
      expected.push(`citations:${i}:${c.quote ?? '-'}:${unknownId}:${JSON.stringify(c.claimedLocator)}`);
    }
    expected.push('answer.import', 'verification_runs:v');
    const outcomeEntries = (list: readonly NewOutcome[]): string[] =>
      list.flatMap((x) => [
        `citation_results:${x.result.status}:${x.result.score}:${JSON.stringify(x.result.notes)}:${x.result.pageLabel ?? '-'}`,
        ...(x.closest ? [`closest_passages:${x.closest.text}`] : []),
        ...(x.opinion ? [`judge_opinions:${x.opinion.outcome}:${x.opinion.reason ?? '-'}`] : []),
      ]);
    expected.push(...outcomeEntries(all), 'verification_run_ends:complete', 'answer.verify');
    expected.push('verification_runs:w', ...outcomeEntries(all.slice(0, 30)), 'answer.verify');
    expect(unknownSeen.size).toBe(2);
    expect(await written(o, before)).toEqual(expected);

    // Each result belongs to its citation; ids follow the batch's order.
    const results = await ownerSql<{ id: number; citation_id: number }>(o, 'SELECT id, citation_id FROM citation_results WHERE run_id = ? ORDER BY id', [started.runId]);
    expect(results.map((r) => Number(r.citation_id))).toEqual(started.citationIds);
    expect(await auditCheck(o)).toMatchObject({ ok: true });
  });
});
