/**
 * A long export (issue 9: "a 2,000-citation answer exports without freezing the UI"): the export
 * runs in the services, off the page, reports its progress as export.progress events carrying the
 * caller's jobId, and stops on answers.cancelExport leaving no file (not even a temporary one).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerDetail } from '../../../shared/contract/answer-schemas.ts';
import type { ExportProgress } from '../../../shared/contract/events.ts';
import type { ExportResult } from '../../../shared/contract/export-schemas.ts';
import { readAnswerFile } from '../../../electron/cli/answer-file.ts';
import { makePdf, writeFile } from '../../support/pdf-fixtures.ts';
import { ingestAll, nativeAnswer } from '../../support/policy-workspace.ts';
import { callHandler, openTestServices, type TestServices } from '../../support/workspace.ts';

const CITATIONS = 2000;
const PAGES = 8;
const LINES = 12;

const line = (p: number, l: number) => `Rule ${p}.${l}: a record of class ${p * 100 + l} is kept for ${l + 1} years after it closes.`;

describe('a 2,000-citation export: progress and cancel', () => {
  let services: TestServices;
  let answerId: number;
  let outDir: string;

  beforeAll(async () => {
    services = openTestServices();
    const docs = path.join(services.dir, 'docs');
    const pages = Array.from({ length: PAGES }, (_, p) => ({ lines: Array.from({ length: LINES }, (_, l) => line(p + 1, l + 1)) }));
    const pdf = writeFile(docs, 'Records.pdf', await makePdf(pages, 'Records'));
    const text = writeFile(docs, 'notes.txt', Array.from({ length: 50 }, (_, i) => `Note ${i + 1}: invoices of batch ${i + 7} are paid within ${i + 3} days.`).join('\n'));
    await ingestAll(services, [pdf, text]);
    // Three in four citations quote the PDF (each page cited many times over), one in four the notes.
    const citations = Array.from({ length: CITATIONS }, (_, i) => {
      if (i % 4 === 3) {
        const n = (i % 50) + 1;
        return { marker: String(i + 1), claim: `Batch ${n + 6} is paid in ${n + 2} days.`, quote: `invoices of batch ${n + 6} are paid within ${n + 2} days`, source: { file: 'notes.txt' }, locator: { line: n } };
      }
      const p = (i % PAGES) + 1;
      const l = (Math.floor(i / PAGES) % LINES) + 1;
      return { marker: String(i + 1), claim: `Class ${p * 100 + l} records are kept ${l + 1} years.`, quote: line(p, l), source: { file: 'Records.pdf' }, locator: { page: p } };
    });
    const answer = writeFile(docs, 'answer.json', nativeAnswer(citations, 'How long are records kept?'));
    const imported = await callHandler<AnswerDetail>(services, 'answers.import', readAnswerFile(answer));
    answerId = imported.answer.id;
    services.answers.verify(answerId);
    outDir = path.join(services.dir, 'out');
    fs.mkdirSync(outDir);
  }, 600_000);

  afterAll(() => services?.close());

  const eventsOf = (jobId: string) => {
    const seen: ExportProgress[] = [];
    const stop = services.events.subscribe((e) => {
      if (e.type === 'export.progress' && e.jobId === jobId) seen.push(e);
    });
    return { seen, stop };
  };

  it('cancelled mid-way: EXPORT_CANCELLED, no report and no temporary file left, and the last event says cancelled', async () => {
    const target = path.join(outDir, 'cancelled.html');
    const { seen, stop } = eventsOf('job-cancel');
    // Cancel once the first excerpts are made: the export is then well under way.
    let cancelled: Promise<{ cancelled: boolean }> | null = null;
    const stopCancel = services.events.subscribe((e) => {
      if (cancelled === null && e.type === 'export.progress' && e.jobId === 'job-cancel' && e.phase === 'excerpts' && e.done > 0) {
        cancelled = callHandler<{ cancelled: boolean }>(services, 'answers.cancelExport', { jobId: 'job-cancel' });
      }
    });
    try {
      const outcome = await callHandler<ExportResult>(services, 'answers.export', { id: answerId, format: 'html', path: target, jobId: 'job-cancel' }).then(
        () => 'written',
        (e: { code?: string }) => e.code,
      );
      expect(outcome).toBe('EXPORT_CANCELLED');
      expect(await cancelled).toEqual({ cancelled: true });
    } finally {
      stop();
      stopCancel();
    }
    expect(fs.readdirSync(outDir)).toEqual([]);
    const excerpts = seen.filter((e) => e.phase === 'excerpts');
    expect(excerpts.length).toBeGreaterThan(0);
    expect(Math.max(...excerpts.map((e) => e.done))).toBeLessThan(CITATIONS);
    expect(seen.at(-1)?.phase).toBe('cancelled');
    // Nothing is running under that name any more.
    expect(await callHandler(services, 'answers.cancelExport', { jobId: 'job-cancel' })).toEqual({ cancelled: false });
  }, 600_000);

  it('completed: progress through every phase, excerpt counts rising to 2,000, then done, and the whole report written', async () => {
    const target = path.join(outDir, 'report.html');
    const { seen, stop } = eventsOf('job-done');
    let result: ExportResult;
    try {
      result = await callHandler<ExportResult>(services, 'answers.export', { id: answerId, format: 'html', path: target, jobId: 'job-done' });
    } finally {
      stop();
    }
    expect(result.summary).toMatchObject({ total: CITATIONS, included: CITATIONS });
    expect(fs.readdirSync(outDir)).toEqual(['report.html']);
    const html = fs.readFileSync(target, 'utf8');
    // Every PDF citation has its band image, every notes citation its marked line.
    expect(html.match(/<img src="data:image\/jpeg;base64,/g)?.length).toBe(CITATIONS * 0.75);
    expect(html.match(/<mark>invoices of batch/g)?.length).toBe(CITATIONS / 4);

    const phases = [...new Set(seen.map((e) => e.phase))];
    expect(phases).toEqual(['checking', 'excerpts', 'rendering', 'writing', 'done']);
    const counts = seen.filter((e) => e.phase === 'excerpts').map((e) => e.done);
    expect(counts.length).toBeGreaterThan(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.at(-1)).toBe(CITATIONS);
    expect(seen.every((e) => e.phase !== 'excerpts' || e.total === CITATIONS)).toBe(true);
  }, 600_000);
});
