/**
 * Issue 9, done-when 1: `evidesk export` of a real workspace whose answer has one citation of every
 * status and verdict and review decisions of every kind, in each text format, read back with a
 * parser of that format. And an export to a path that cannot be written leaves no file.
 */
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import fs from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, unguardCsvCell } from '../../../electron/services/export/report-csv.ts';
import type { ExportResult } from '../../../shared/contract/export-schemas.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import { CitationStatusSchema, ClaimVerdictSchema } from '../../../shared/verification/result-schema.ts';
import type { Report } from '../../../shared/report/schema.ts';
import { evidesk } from '../../support/cli.ts';
import { EXPORT_CITATIONS, exportWorkspace, type ExportWorkspace } from '../../support/export-workspace.ts';
import { tempDir } from '../../support/workspace.ts';

const QUOTES = EXPORT_CITATIONS.flatMap((c) => (c.quote ? [c.quote] : []));

describe('evidesk export: every text format from one reviewed answer', () => {
  let w: ExportWorkspace;
  let out: string;
  let report: Report;

  async function exportAs(format: string, file: string, ...extra: string[]): Promise<string> {
    const target = path.join(out, file);
    const run = await evidesk(w.workspace, 'export', String(w.answerId), '--format', format, '--out', target, ...extra);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`Wrote ${target}`);
    return fs.readFileSync(target, 'utf8');
  }

  beforeAll(async () => {
    w = await exportWorkspace();
    out = tempDir('evidesk-export-');
    report = reportFromJson(await exportAs('json', 'report.json', '--reviewer', 'A. Analyst'));
  });

  it('the workspace covers every status, verdict and decision (the fixture is what the tests claim)', () => {
    expect(new Set(w.detail.citations.map((c) => c.result?.status))).toEqual(new Set(CitationStatusSchema.options));
    expect(new Set(w.detail.citations.map((c) => c.result?.verdict))).toEqual(new Set(ClaimVerdictSchema.options));
    expect(report.summary.byDecision).toEqual({ accepted: 3, rejected: 2, flagged: 1, none: 2 });
  });

  it('JSON: validates on read, with the review trail, the sources and the provenance', () => {
    expect(report.summary).toMatchObject({ total: 8, included: 8 });
    expect(report.citations.map((c) => c.quote).filter(Boolean)).toEqual(QUOTES);
    const second = report.citations.find((c) => c.marker === '2');
    expect(second?.review).toMatchObject({ decision: 'rejected', note: 'Wrong page cited; changed my mind.' });
    expect(second?.review.history.map((h) => h.decision)).toEqual(['accepted', 'rejected']);
    // The trail comes from the stored rows: who decided each, the undo and the clear as rows of their own.
    expect(second?.review.history.map((h) => h.reviewer)).toEqual(['Dana Reviewer', 'Dana Reviewer']);
    const third = report.citations.find((c) => c.marker === '3')?.review;
    expect(third?.history.map((h) => [h.decision, h.reviewer])).toEqual([
      ['flagged', 'Dana Reviewer'],
      ['rejected', 'Sam Second'],
      ['flagged', 'Sam Second'],
    ]);
    expect(third).toMatchObject({ decision: 'flagged', note: 'Ask the author where this comes from.', reviewer: 'Sam Second' });
    expect(report.citations.find((c) => c.marker === '8')?.review).toMatchObject({ decision: 'none', history: [{ decision: 'accepted' }, { decision: 'cleared', reviewer: 'Sam Second' }] });
    expect(report.sources.map((s) => s.fileName)).toEqual(['HR_Policy.pdf', 'onboarding-notes.txt']);
    expect(report.sources.every((s) => s.health === 'ok' && /^[0-9a-f]{64}$/.test(s.sha256))).toBe(true);
    expect(report.provenance).toMatchObject({ runId: expect.any(Number), auditHead: expect.stringMatching(/^[0-9a-f]{64}$/), options: { citations: 'all', reviewer: 'A. Analyst' } });
    expect(report.summary.unresolved.map((u) => u.marker).sort()).toEqual(expect.arrayContaining(['3']));
  });

  it('Markdown: footnotes numbered 1..n in order, every one defined, unresolved ones under their own heading', async () => {
    const md = await exportAs('md', 'report.md');
    // Who decided, from the stored rows.
    expect(md).toContain('by Dana Reviewer');
    expect(md).toContain('by Sam Second');
    const defined = [...md.matchAll(/^\[\^(\d+)\]:/gm)].map((m) => Number(m[1]));
    expect(defined).toEqual(report.citations.map((_, i) => i + 1));
    const firstUse: number[] = [];
    for (const m of md.matchAll(/\[\^(\d+)\](?!:)/g)) if (!firstUse.includes(Number(m[1]))) firstUse.push(Number(m[1]));
    expect(firstUse).toEqual(defined);
    expect(md).toMatch(/^#+ .*[Uu]nresolved/m);
    for (const s of report.sources) expect(md).toContain(s.sha256);
  });

  it('HTML: every quote, no external URL, no script', async () => {
    const html = await exportAs('html', 'report.html');
    const text = html.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    for (const q of QUOTES) expect(text).toContain(q);
    expect(html).not.toMatch(/(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<script/i);
  });

  it('CSV: round-trips through papaparse, one row per citation, quotes intact', async () => {
    const target = path.join(out, 'report.csv');
    await exportAs('csv', 'report.csv');
    const bytes = fs.readFileSync(target);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<Record<string, string>>(bytes.subarray(3).toString('utf8'), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    expect(parsed.data).toHaveLength(report.citations.length);
    expect(parsed.data.map((r) => unguardCsvCell(r.quote ?? '')).filter(Boolean).sort()).toEqual([...QUOTES].sort());
  });

  it('BibTeX: parses back, one entry per source keyed S1, S2', async () => {
    const bib = await exportAs('bib', 'sources.bib', '--style', 'bibtex');
    const entries = new Cite(bib).data as { id: string; title?: string; author?: { family?: string; given?: string; literal?: string }[]; issued?: { 'date-parts': number[][] } }[];
    expect(entries.map((e) => e.id)).toEqual(report.sources.map((s) => s.id));
    // The policy PDF's own properties (Info dictionary) give its authors and date.
    const policy = entries.find((e) => e.title === 'HR Policy');
    expect(policy?.author?.map((a) => a.family ?? a.literal)).toEqual(['Smith', 'Human Resources Department']);
    expect(policy?.issued?.['date-parts'][0]?.[0]).toBe(2024);
  });

  it('--only-accepted leaves the others out but counts them, and --no-notes drops the notes', async () => {
    const r = reportFromJson(await exportAs('json', 'accepted.json', '--only-accepted', '--no-notes'));
    expect(r.citations.map((c) => c.marker)).toEqual(['1', '5', '7']);
    expect(r.summary).toMatchObject({ total: 8, included: 3 });
    expect(r.citations.flatMap((c) => c.review.history.map((h) => h.note))).toEqual([null, null, null, null]);
    expect(r.citations.flatMap((c) => c.review.history.map((h) => h.reviewer))).toEqual(['Dana Reviewer', 'Sam Second', 'Sam Second', 'Sam Second']);
    expect(r.summary.unresolved.find((u) => u.marker === '3')).toMatchObject({ included: false });
  });

  it('names the answer by the file it was imported from', async () => {
    const target = path.join(out, 'by-name.json');
    const run = await evidesk(w.workspace, 'export', 'answer.json', '--format', 'json', '--out', target, '--json');
    expect(run.code).toBe(0);
    expect((JSON.parse(run.out) as ExportResult).path).toBe(target);
    expect(reportFromJson(fs.readFileSync(target, 'utf8')).answer.id).toBe(w.answerId);
    const none = await evidesk(w.workspace, 'export', 'no-such-answer.json', '--format', 'json', '--out', target);
    expect(none.code).toBe(3);
    expect(none.err).toMatch(/no-such-answer\.json.*\[ANSWER_NOT_FOUND\]/);
  });

  it('a path that cannot be written: EXPORT_FAILED naming it, and no file (or temporary file) left behind', async () => {
    const locked = path.join(tempDir('evidesk-locked-'), 'locked');
    fs.mkdirSync(locked, { mode: 0o500 });
    const writable = (() => {
      try {
        fs.writeFileSync(path.join(locked, 'probe'), '');
        return true;
      } catch {
        return false;
      }
    })();
    // Root ignores folder modes; a folder that does not exist cannot be written by anyone.
    const target = writable ? path.join(locked, 'missing-folder', 'report.html') : path.join(locked, 'report.html');
    if (writable) fs.rmSync(path.join(locked, 'probe'));
    const run = await evidesk(w.workspace, 'export', String(w.answerId), '--format', 'html', '--out', target, '--json');
    expect(run.code).toBe(3);
    const reply = JSON.parse(run.out) as { ok: false; error: { code: string; message: string; details: { path: string } } };
    expect(reply.error).toMatchObject({ code: 'EXPORT_FAILED', details: { path: target } });
    expect(reply.error.message).toContain(target);
    expect(fs.readdirSync(locked)).toEqual([]);
    // A folder in the way of the file: refused, and the folder is left as it was.
    const folder = path.join(out, 'a-folder');
    fs.mkdirSync(folder);
    const onto = await evidesk(w.workspace, 'export', String(w.answerId), '--format', 'md', '--out', folder);
    expect(onto.code).toBe(3);
    expect(onto.err).toMatch(/it is a folder.*\[EXPORT_FAILED\]/);
    expect(fs.readdirSync(out).filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});
