/**
 * The JSON export: the report model itself, validated by the schema when written and when read,
 * including what a schema alone cannot say (ids unique, every reference resolves, the summary's
 * counts add up). Reading does not check the content hash: that needs a digest and is the report
 * check's first step (content-hash.ts `checkContentHash`).
 */
import { AppError } from '../contract/errors.ts';
import { Report } from './schema.ts';

/** What is wrong with a report beyond its schema; empty when nothing is. */
export function reportConsistencyProblems(report: Report): string[] {
  const problems: string[] = [];
  const citationIds = new Set<string>();
  for (const c of report.citations) {
    if (citationIds.has(c.id)) problems.push(`citation ${c.id} appears twice`);
    citationIds.add(c.id);
  }
  const sourceIds = new Set<string>();
  const hashes = new Set<string>();
  for (const s of report.sources) {
    if (sourceIds.has(s.id)) problems.push(`source ${s.id} appears twice`);
    sourceIds.add(s.id);
    hashes.add(s.sha256);
  }
  for (const c of report.citations) {
    if (c.source !== null && !sourceIds.has(c.source)) problems.push(`citation ${c.id} names source ${c.source}, which the report lacks`);
    if (c.match && !hashes.has(c.match.sha256)) problems.push(`citation ${c.id} was matched in a file (SHA-256 ${c.match.sha256}) the report's sources lack`);
  }
  let at = 0;
  report.answer.markers.forEach((m, i) => {
    if (m.start < at || m.end < m.start || m.end > report.answer.text.length) problems.push(`marker ${i + 1} lies outside the answer text or overlaps another`);
    if (m.labels.length !== m.citations.length) problems.push(`marker ${i + 1} has ${m.labels.length} labels but ${m.citations.length} citations`);
    for (const ref of m.citations) if (ref !== null && !citationIds.has(ref)) problems.push(`marker ${i + 1} points at ${ref}, which the report lacks`);
    at = Math.max(at, m.end);
  });
  const { summary } = report;
  if (summary.included !== report.citations.length) problems.push(`summary says ${summary.included} citations are included, the report has ${report.citations.length}`);
  if (summary.included > summary.total) problems.push('summary includes more citations than it counts');
  for (const [name, counts] of [['status', summary.byStatus], ['verdict', summary.byVerdict], ['decision', summary.byDecision]] as const) {
    const sum = Object.values(counts).reduce((a, b) => a + b, 0);
    if (sum !== summary.total) problems.push(`summary counts by ${name} add up to ${sum}, not ${summary.total}`);
  }
  return problems;
}

/** The report as JSON text (two-space indented, one trailing newline); throws if it is not valid. */
export function reportToJson(report: Report): string {
  const parsed = Report.safeParse(report);
  if (!parsed.success) {
    throw new AppError('REPORT_INVALID', `The report could not be written: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim(), { issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
  }
  const problems = reportConsistencyProblems(parsed.data);
  if (problems.length > 0) throw new AppError('REPORT_INVALID', `The report could not be written: ${problems[0]}.`, { issues: problems });
  return `${JSON.stringify(parsed.data, null, 2)}\n`;
}

/**
 * A report read back from JSON text; `name` (the file's name) goes into the error message.
 * Throws AppError REPORT_INVALID naming the first problem (all of them in details.issues).
 */
export function reportFromJson(text: string, name = 'the report'): Report {
  let raw: unknown;
  try {
    // A UTF-8 byte order mark is not JSON but some editors add one.
    raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new AppError('REPORT_INVALID', `${name} is not JSON: ${(e as Error).message}`, { file: name });
  }
  const parsed = Report.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new AppError('REPORT_INVALID', `${name} is not an evidence-desk/report@1 report: ${issues[0]}`, { file: name, issues });
  }
  const problems = reportConsistencyProblems(parsed.data);
  if (problems.length > 0) throw new AppError('REPORT_INVALID', `${name} is not a consistent report: ${problems[0]}.`, { file: name, issues: problems });
  return parsed.data;
}
