/**
 * The verifier reads the shared pool (issue 13): a source another member stored in the shared
 * workspace, which this member's local copy does not have, is found and anchored when an answer
 * is checked, imported (whole and in batches) and verified again; the verdicts are those SQLite
 * gives for the same corpus. On SQLite the "other member" is the workspace's own ingest area.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { VerificationResult } from '../../../shared/verification/result-schema.ts';
import type { EvidenceStore } from '../../../electron/services/store/evidence-store.ts';
import { addSmallSources, bigAnswer, smallSourceText } from '../../support/scale-workspace.ts';
import { describeEngines } from '../../support/engines.ts';
import { callHandler } from '../../support/workspace.ts';

const NOTES = 5;
const name = (i: number): string => `note-${String(i).padStart(6, '0')}.txt`;

/** The last note stored by `store` only (on PostgreSQL, not in the local copy the workspace was moved from). */
async function storeLastNote(store: EvidenceStore, dir: string): Promise<void> {
  const text = smallSourceText(NOTES - 1);
  const file = path.join(dir, name(NOTES - 1));
  fs.writeFileSync(file, text);
  const stat = fs.statSync(file);
  const bytes = new TextEncoder().encode(text);
  const taken = await store.ingest.add({
    sha256: createHash('sha256').update(bytes).digest('hex'),
    fileName: name(NOTES - 1),
    bytes,
    path: file,
    stat: { size: stat.size, mtimeMs: stat.mtimeMs },
    doc: { kind: 'text', method: 'text@scale', title: null, pageCount: null, warnings: [], segments: [{ text: text.trimEnd(), line: 1, lineEnd: 1, blockType: 'lines' }] },
    snapshot: true,
  });
  expect((await taken.committed).outcome).toBe('added');
}

describeEngines('verification over the shared pool', (engine) => {
  it("finds a source only the shared workspace has, with SQLite's verdicts", { timeout: 120_000 }, async () => {
    const o = await engine.open(async (t) => addSmallSources(t.sources, path.join(t.dir, 'notes'), NOTES - 1), { as: 'reviewer', verifyBatch: 4 });
    const s = o.services;
    const other = o.database ? await engine.connectAs(o.database, 'admin') : s.evidence;
    await storeLastNote(other, path.join(s.dir, 'notes'));
    if (o.database) expect(s.sources.list().some((r) => r.file_name === name(NOTES - 1))).toBe(false);

    // Citation i quotes note i % 5; every 7th quote is in no note.
    const expected = Array.from({ length: 10 }, (_, i) => (i % 7 === 6 ? 'not_found' : 'verified'));
    const small = bigAnswer(10, NOTES);
    const checked = await callHandler<VerificationResult>(s, 'answers.check', { content: small, fileName: 'small.json' });
    expect(checked.citations.map((c) => c.status)).toEqual(expected);
    expect(checked.citations[4]?.match?.text).toBe(`the record keeps item ${NOTES - 1} of the matter`);

    // Imported in batches (10 citations, batches of 4), then verified again.
    const imported = await callHandler<AnswerDetail>(s, 'answers.import', { content: small, fileName: 'small.json' });
    expect(imported.verification?.citations.map((c) => c.status)).toEqual(expected);
    expect(imported.citations.filter((c) => c.source === null)).toEqual([]);
    const again = await callHandler<AnswerDetail>(s, 'answers.verify', { id: imported.answer.id });
    expect(again.verification?.citations.map((c) => c.status)).toEqual(expected);

    // Stored whole (fewer citations than a batch).
    const quote = `the record keeps item ${NOTES - 1} of the matter`;
    const one = { format: 'evidence-desk/answer@1', question: 'Where?', answer: 'Kept [1].', citations: [{ marker: '1', claim: 'Kept.', quote, source: { file: name(NOTES - 1) }, locator: { line: 1 } }] };
    const whole = await callHandler<AnswerDetail>(s, 'answers.import', { content: JSON.stringify(one), fileName: 'whole.json' });
    expect(whole.verification?.citations.map((c) => c.status)).toEqual(['verified']);
  });
});
