/**
 * Issue 9, done-when 3: `evidesk report check` passes on a fresh export and fails, naming what
 * changed, when a byte of the JSON is edited, a source file changes, or an audit row is edited in
 * SQLite by an outsider (a raw connection with the append-only triggers dropped).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReportCheckResult } from '../../../electron/services/export/report-check.ts';
import { copyWorkspace, tamperer } from '../../support/audit-workspace.ts';
import { evidesk } from '../../support/cli.ts';
import { exportWorkspace, type ExportWorkspace } from '../../support/export-workspace.ts';
import { tempDir } from '../../support/workspace.ts';

describe('evidesk report check', () => {
  let w: ExportWorkspace;
  let reportFile: string;
  let originals: Map<string, Buffer>;

  async function check(workspace: string, file = reportFile): Promise<{ code: number; result: ReportCheckResult; text: string }> {
    const json = await evidesk(workspace, 'report', 'check', file, '--json');
    const text = await evidesk(workspace, 'report', 'check', file);
    expect(text.code).toBe(json.code);
    return { code: json.code, result: JSON.parse(json.out) as ReportCheckResult, text: text.out };
  }

  const failing = (r: ReportCheckResult) => r.findings.filter((f) => !f.holds);

  beforeAll(async () => {
    w = await exportWorkspace();
    reportFile = path.join(tempDir('evidesk-report-'), 'report.json');
    const run = await evidesk(w.workspace, 'export', String(w.answerId), '--format', 'json', '--out', reportFile);
    expect(run.code).toBe(0);
    originals = new Map([w.policy, w.notes].map((f) => [f, fs.readFileSync(f)]));
  });

  afterEach(() => {
    for (const [file, bytes] of originals) fs.writeFileSync(file, bytes);
  });

  it('a fresh export holds: hash, audit head, chain, every source and every quote (exit 0)', async () => {
    const { code, result, text } = await check(w.workspace);
    expect(failing(result)).toEqual([]);
    expect(code).toBe(0);
    const subjects = result.findings.map((f) => f.subject);
    expect(subjects.filter((s) => s === 'source')).toHaveLength(2);
    // Every citation with a match: all but not-found, source-unknown and no-quote ones.
    expect(subjects.filter((s) => s === 'quote')).toHaveLength(5);
    expect(subjects).toEqual(expect.arrayContaining(['content_hash', 'audit_chain', 'audit_head']));
    expect(text).toMatch(/Everything the report says still holds/);
    expect(text).toMatch(/S1 HR_Policy\.pdf: the file at .* still has SHA-256/);
    expect(text).toMatch(/C1 \[1\]: the quote is still at p\. 3, characters \d+–\d+ of HR_Policy\.pdf/);
  });

  it('(a) one byte of the JSON edited: the content hash no longer holds, and the rest is said to hold', async () => {
    const text = fs.readFileSync(reportFile, 'utf8');
    const at = text.indexOf('Employees receive 14 days');
    expect(at).toBeGreaterThan(0);
    const edited = path.join(tempDir('evidesk-edited-'), 'report.json');
    const i = at + 'Employees receive 1'.length;
    fs.writeFileSync(edited, `${text.slice(0, i)}5${text.slice(i + 1)}`);
    const { code, result, text: out } = await check(w.workspace, edited);
    expect(code).toBe(3);
    expect(failing(result).map((f) => f.subject)).toEqual(['content_hash']);
    expect(out).toMatch(/✖ The report was changed after export: its content now hashes to [0-9a-f]{12}…, not the [0-9a-f]{12}… it carries/);
    expect(out).toMatch(/Still holds:/);
  });

  it('(b) a source file changed: names the source, its path and its new hash', async () => {
    fs.appendFileSync(w.notes, 'One more line, added after the export.\n');
    const { code, result, text } = await check(w.workspace);
    expect(code).toBe(3);
    expect(failing(result)).toEqual([{ subject: 'source', ref: 'S2', holds: false, message: expect.stringContaining(`S2 onboarding-notes.txt: the file at ${w.notes} has changed`) }]);
    expect(text).toMatch(/its SHA-256 is now [0-9a-f]{12}…, the report recorded [0-9a-f]{12}…/);
  });

  it('a source file gone: its snapshot is hashed instead, and the report still holds', async () => {
    fs.rmSync(w.notes);
    const { code, result } = await check(w.workspace);
    expect(code).toBe(0);
    expect(result.findings.find((f) => f.ref === 'S2')?.message).toMatch(/the file is gone from .*onboarding-notes\.txt; the workspace's snapshot still has SHA-256/);
  });

  it('(c) an audit row edited in SQLite: the chain no longer holds, naming the entry', async () => {
    const ws = copyWorkspace(w.workspace);
    const db = tamperer(ws);
    const row = db.prepare("SELECT id, payload FROM audit_log WHERE action = 'citation.review' ORDER BY id LIMIT 1").get() as { id: number; payload: string };
    db.prepare('UPDATE audit_log SET payload = ? WHERE id = ?').run(row.payload.replace('accepted', 'rejected'), row.id);
    db.close();
    const { code, result, text } = await check(ws);
    expect(code).toBe(3);
    expect(failing(result).map((f) => f.subject)).toContain('audit_chain');
    expect(text).toMatch(/✖ The workspace's audit chain is broken: .*/);
    // What does not depend on the record still holds.
    expect(result.findings.find((f) => f.subject === 'content_hash')?.holds).toBe(true);
  });

  it('a stored page text edited in SQLite: the quote on it no longer reads as matched, naming the citation', async () => {
    const ws = copyWorkspace(w.workspace);
    const db = tamperer(ws);
    const seg = db.prepare("SELECT id, text FROM segments WHERE page = 3 AND text LIKE '%14 days%'").get() as { id: number; text: string };
    db.prepare('UPDATE segments SET text = ? WHERE id = ?').run(seg.text.replace('14 days', '21 days'), seg.id);
    db.close();
    const { code, result, text } = await check(ws);
    expect(code).toBe(3);
    const quotes = failing(result).filter((f) => f.subject === 'quote');
    expect(quotes.map((f) => f.ref)).toEqual(expect.arrayContaining(['C1']));
    expect(text).toMatch(/✖ C1 \[1\]: at p\. 3, characters \d+–\d+ of HR_Policy\.pdf the workspace's text now reads “Employees receive 21 days/);
  });

  it('an audit chain rewritten from the report’s head on: the head is no longer in the chain', async () => {
    const ws = copyWorkspace(w.workspace);
    const db = tamperer(ws);
    const head = (JSON.parse(fs.readFileSync(reportFile, 'utf8')) as { provenance: { auditHead: string } }).provenance.auditHead;
    db.prepare('UPDATE audit_log SET hash = ? WHERE hash = ?').run('0'.repeat(64), head);
    db.close();
    const { code, result } = await check(ws);
    expect(code).toBe(3);
    expect(failing(result).map((f) => f.subject)).toEqual(expect.arrayContaining(['audit_head', 'audit_chain']));
    expect(result.findings.find((f) => f.subject === 'audit_head')?.message).toMatch(/is not in the workspace's chain/);
  });

  it('a file that is not a report: one finding saying why (exit 3)', async () => {
    const bad = path.join(tempDir('evidesk-bad-'), 'not-a-report.json');
    fs.writeFileSync(bad, '{"format": "something else"}');
    const { code, result } = await check(w.workspace, bad);
    expect(code).toBe(3);
    expect(result.findings).toEqual([{ subject: 'report', holds: false, message: expect.stringMatching(/^not-a-report\.json is not an evidence-desk\/report@1 report/) }]);
  });
});
