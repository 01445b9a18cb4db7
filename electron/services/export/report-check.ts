/**
 * `evidesk report check`: whether what a report says still holds. Recomputes its content hash,
 * finds its audit head in the workspace's chain (and walks the chain), re-hashes every source file
 * (or the workspace's snapshot when the file is gone) and reads every quote's stored place again.
 * Each finding is a sentence; the report holds only when every one does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/contract/errors.ts';
import { checkContentHash } from '../../../shared/report/content-hash.ts';
import { reportFromJson } from '../../../shared/report/json.ts';
import type { Report, ReportCitation, ReportMatch } from '../../../shared/report/schema.ts';
import type { AuditService } from '../audit/audit-service.ts';
import { sha256Bytes, sha256File } from '../hashing/sha256.ts';
import type { ExportStore } from '../store/export-store.ts';
import type { SegmentRow, SourcesStore } from '../store/sources-store.ts';

export type CheckSubject = 'report' | 'content_hash' | 'audit_chain' | 'audit_head' | 'workspace' | 'source' | 'quote';

export interface CheckFinding {
  subject: CheckSubject;
  /** The report's id of the source or citation (S1, C3), when the finding is about one. */
  ref?: string;
  holds: boolean;
  message: string;
}

export interface ReportCheckResult {
  ok: boolean;
  findings: CheckFinding[];
}

export interface ReportCheckDeps {
  sources: SourcesStore;
  store: ExportStore;
  audit: AuditService;
  workspaceDir: string;
}

const short = (hash: string) => `${hash.slice(0, 12)}…`;

/** Checks a report's JSON text against the workspace. */
export async function checkReport(text: string, name: string, deps: ReportCheckDeps): Promise<ReportCheckResult> {
  let report: Report;
  try {
    report = reportFromJson(text, name);
  } catch (e) {
    if (e instanceof AppError) return { ok: false, findings: [{ subject: 'report', holds: false, message: `${e.message}. Nothing else can be checked.` }] };
    throw e;
  }
  const findings: CheckFinding[] = [contentHashFinding(report), ...auditFindings(report, deps)];
  for (const s of report.sources) findings.push(await sourceFinding(s, deps));
  for (const c of report.citations) {
    const f = quoteFinding(c, report, deps.sources);
    if (f) findings.push(f);
  }
  return { ok: findings.every((f) => f.holds), findings };
}

function contentHashFinding(report: Report): CheckFinding {
  const h = checkContentHash(report, sha256Bytes);
  return h.holds
    ? { subject: 'content_hash', holds: true, message: `The report is unchanged since export: its content hashes to ${short(h.stored)}, the hash it carries.` }
    : { subject: 'content_hash', holds: false, message: `The report was changed after export: its content now hashes to ${short(h.computed)}, not the ${short(h.stored)} it carries.` };
}

function auditFindings(report: Report, deps: ReportCheckDeps): CheckFinding[] {
  const out: CheckFinding[] = [];
  const stored = deps.store.storedWorkspaceId();
  if (stored !== report.provenance.workspaceId) {
    out.push({ subject: 'workspace', holds: false, message: `The report comes from workspace ${report.provenance.workspaceId}, but this workspace is ${stored ?? 'one that has never exported a report'}.` });
  }
  const chain = deps.audit.check();
  out.push(
    chain.ok
      ? { subject: 'audit_chain', holds: true, message: `The workspace's audit chain is intact (${chain.rows} entries).` }
      : { subject: 'audit_chain', holds: false, message: `The workspace's audit chain is broken: ${chain.brokenAt?.reason ?? 'see evidesk audit verify'}.` },
  );
  const head = report.provenance.auditHead;
  if (head === null) out.push({ subject: 'audit_head', holds: false, message: 'The report records no audit head, so it cannot be tied to the workspace’s record.' });
  else if (deps.store.hasAuditHash(head)) out.push({ subject: 'audit_head', holds: true, message: `The report's audit head ${short(head)} is an entry of the workspace's chain.` });
  else out.push({ subject: 'audit_head', holds: false, message: `The report's audit head ${short(head)} is not in the workspace's chain: the record it was exported from was rewritten, or this is another workspace.` });
  return out;
}

async function sourceFinding(s: Report['sources'][number], deps: ReportCheckDeps): Promise<CheckFinding> {
  const base = { subject: 'source' as const, ref: s.id };
  const label = `${s.id} ${s.fileName}`;
  if (s.path !== null && fs.existsSync(s.path)) {
    const now = await sha256File(s.path);
    return now === s.sha256
      ? { ...base, holds: true, message: `${label}: the file at ${s.path} still has SHA-256 ${short(s.sha256)}.` }
      : { ...base, holds: false, message: `${label}: the file at ${s.path} has changed: its SHA-256 is now ${short(now)}, the report recorded ${short(s.sha256)}.` };
  }
  const where = s.path === null ? 'The report names no path for it' : `The file is gone from ${s.path}`;
  const row = deps.sources.findBySha(s.sha256);
  const blob = row?.snapshot ? path.resolve(deps.workspaceDir, row.snapshot) : null;
  if (!blob || !blob.startsWith(path.resolve(deps.workspaceDir) + path.sep) || !fs.existsSync(blob)) {
    return { ...base, holds: false, message: `${label}: ${where.toLowerCase()} and the workspace holds no snapshot of it, so its bytes cannot be checked.` };
  }
  const now = await sha256File(blob);
  return now === s.sha256
    ? { ...base, holds: true, message: `${label}: ${where.charAt(0).toLowerCase()}${where.slice(1)}; the workspace's snapshot still has SHA-256 ${short(s.sha256)}.` }
    : { ...base, holds: false, message: `${label}: ${where.charAt(0).toLowerCase()}${where.slice(1)}, and the workspace's snapshot has changed: SHA-256 ${short(now)}, not ${short(s.sha256)}.` };
}

/** The texts of a source's pages, blocks or lines, by number. */
function unitTexts(segments: readonly SegmentRow[], unit: ReportMatch['unit']): Map<number, string> {
  const texts = new Map<number, string>();
  for (const seg of segments) {
    if (unit === 'page' && seg.page !== null && !texts.has(seg.page)) texts.set(seg.page, seg.text);
    else if (unit === 'block' && seg.paragraph !== null) texts.set(seg.paragraph, seg.text);
    else if (unit === 'line' && seg.line_start !== null) seg.text.split('\n').forEach((line, i) => texts.set((seg.line_start ?? 1) + i, line));
  }
  return texts;
}

const squash = (t: string) => t.replace(/\s+/g, ' ').trim();

/** The text at a match's stored place now, or null when a unit it names is no longer there. */
function textAt(m: ReportMatch, texts: Map<number, string>): { text: string; parts?: [string, string] } | null {
  const first = m.page ?? m.block ?? m.line ?? 0;
  const last = m.endPage ?? m.endBlock ?? m.endLine ?? first;
  const a = texts.get(first);
  const b = texts.get(last);
  if (a === undefined || b === undefined) return null;
  if (first === last) return { text: a.slice(m.start, m.end) };
  if (m.unit === 'line') {
    const middle: string[] = [];
    for (let u = first + 1; u < last; u++) middle.push(texts.get(u) ?? '');
    return { text: [a.slice(m.start), ...middle, b.slice(0, m.end)].join('\n') };
  }
  // A quote that runs on over a page or block break: its two parts, with what lies between left out.
  const parts: [string, string] = [a.slice(m.start, m.firstEnd ?? a.length), b.slice(m.lastStart ?? 0, m.end)];
  return { text: parts.join(' '), parts };
}

function quoteFinding(c: ReportCitation, report: Report, sources: SourcesStore): CheckFinding | null {
  const m = c.match;
  if (!m) return null;
  const base = { subject: 'quote' as const, ref: c.id };
  const file = report.sources.find((s) => s.sha256 === m.sha256)?.fileName ?? short(m.sha256);
  const where = `${m.unit === 'page' ? `p. ${m.pageLabel ?? m.page}` : m.unit === 'block' ? `block ${m.block}` : `line ${m.line}`}, characters ${m.start}–${m.end}`;
  const row = sources.findBySha(m.sha256);
  if (!row) return { ...base, holds: false, message: `${c.id} [${c.marker}]: the workspace no longer has the source ${file} its quote was found in.` };
  const now = textAt(m, unitTexts(sources.segments(row.id), m.unit));
  if (now === null) return { ...base, holds: false, message: `${c.id} [${c.marker}]: ${file} has no ${where.split(',')[0]} in the workspace any more.` };
  // A quote that runs on is stored as one text; its parts must open and close it.
  const same = now.parts ? squash(m.text).startsWith(squash(now.parts[0])) && squash(m.text).endsWith(squash(now.parts[1])) : now.text === m.text;
  return same
    ? { ...base, holds: true, message: `${c.id} [${c.marker}]: the quote is still at ${where} of ${file}.` }
    : { ...base, holds: false, message: `${c.id} [${c.marker}]: at ${where} of ${file} the workspace's text now reads “${squash(now.text).slice(0, 80)}”, not the matched “${squash(m.text).slice(0, 80)}”.` };
}
