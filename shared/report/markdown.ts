/**
 * The report as Markdown (CommonMark with GitHub's footnotes and tables): the answer with `[^n]`
 * footnotes numbered in order of appearance, each saying the quote, source, place, result and the
 * reviewer's decision; a summary; unresolved citations under their own heading (also those an
 * only-accepted report leaves out); the sources with SHA-256 and health; provenance.
 * Text from answers and documents is escaped, so a quote can never become markup or raw HTML.
 */
import { readingOrder } from './reading-order.ts';
import { linksOf } from './report-links.ts';
import type { Report, ReportCitation } from './schema.ts';
import {
  judgeWords,
  DECISION_WORDS,
  HEALTH_WORDS,
  STATUS_WORDS,
  UNRESOLVED_WORDS,
  VERDICT_WORDS,
  asSentence,
  decisionWords,
  evidencePlace,
  percentWords,
  resultWords,
  timeWords,
} from './words.ts';

// Characters that start inline markup (emphasis, code, links, footnotes, raw HTML, entities, tables).
const INLINE_SPECIALS = /[\\`*_[\]<>|~&]/g;

/** Inline text as literal Markdown: specials backslash-escaped, line breaks as spaces. */
export function mdInline(text: string): string {
  return text.replace(INLINE_SPECIALS, (ch) => `\\${ch}`).replace(/\s*\r?\n\s*/g, ' ');
}

/** Answer text: escaped like mdInline, its line breaks kept, and no line may start a block (heading, list, quote). */
function mdBlockText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(INLINE_SPECIALS, (ch) => `\\${ch}`).replace(/^(\s*)([#>+=-]|\d+(?=[.)]))/, (_m, sp: string, mark: string) => (/^\d/.test(mark) ? `${sp}${mark}\\` : `${sp}\\${mark}`)))
    .join('\n');
}

function footnote(n: number, c: ReportCitation, report: Report): string {
  const source = c.source ? report.sources.find((s) => s.id === c.source) : undefined;
  const quote = c.quote ? `“${mdInline(c.quote)}”` : '_No quote given._';
  const sourceWords = source ? `${source.id}, ${mdInline(source.title ?? source.fileName)}` : `unknown source${c.unknownSource ? ` (${mdInline(c.unknownSource)})` : ''}`;
  const parts = [
    `${quote} (${sourceWords}, ${mdInline(evidencePlace(c))}).`,
    `Claim: ${mdInline(asSentence(c.claim))}`,
    mdInline(resultWords(c)),
    `Decision: ${mdInline(decisionWords(c.review))}.`,
  ];
  const earlier = c.review.history.slice(0, -1);
  if (earlier.length > 0) {
    parts.push(
      `Earlier: ${earlier.map((e) => mdInline(`${DECISION_WORDS[e.decision]}${e.reviewer ? ` by ${e.reviewer}` : ''} on ${timeWords(e.at)}${e.note ? ` (${e.note})` : ''}`)).join('; ')}.`,
    );
  }
  if (c.notes.length > 0) parts.push(`Notes: ${c.notes.map((n) => mdInline(asSentence(n))).join(' ')}`);
  if (c.judge) parts.push(mdInline(judgeWords(c.judge)));
  const links = linksOf(c, source);
  const file = links.file ? (links.file.href ? `[${mdInline(links.file.words)}](<${links.file.href}>)` : `${mdInline(links.file.words)}.`) : '';
  if (links.desk || file) parts.push(`Links: ${[links.desk ? `[Open in Evidence Desk](<${links.desk}>)` : '', file].filter(Boolean).join(' · ')}`);
  if (c.excerpt && 'text' in c.excerpt) {
    const { before, quote, after } = c.excerpt.text;
    parts.push(`Excerpt (${mdInline(c.excerpt.caption)}): “${mdInline(before)}**${mdInline(quote)}**${mdInline(after)}”`);
  } else if (c.excerpt) parts.push(`Excerpt: ${mdInline(c.excerpt.caption)} (in the HTML and PDF reports).`);
  return `[^${n}]: ${parts.join(' ')}`;
}

function cell(text: string): string {
  return mdInline(text);
}

export function renderMarkdown(report: Report): string {
  const order = readingOrder(report);
  const out: string[] = [];
  const { summary, provenance } = report;
  out.push('# Verified report', '');
  if (report.answer.question) out.push(`**Question:** ${mdInline(report.answer.question)}`, '');
  out.push(`Answer ${report.answer.id} from ${mdInline(report.answer.origin)}, exported ${mdInline(timeWords(provenance.exportedAt))}.`, '');

  out.push('## Answer', '');
  let body = '';
  for (const p of order.pieces) {
    // Labels of one group ("[1, 2]") become adjacent footnote references.
    if (p.kind === 'text') body += mdBlockText(p.text);
    else if (p.note !== null) body += `[^${p.note}]`;
    else body += `\\[${mdInline(p.label)}${provenance.options.citations === 'accepted' ? ': not in this report' : ''}\\]`;
  }
  out.push(body, '');
  if (order.unmarked.length > 0) out.push(`Citations no marker in the text points at: ${order.unmarked.map((n) => `[^${n}]`).join(' ')}`, '');

  out.push('## Summary', '');
  out.push(
    `- Citations: ${summary.total}${summary.included !== summary.total ? ` (${summary.included} in this report: only accepted citations)` : ''}`,
    `- Claims supported: ${percentWords(summary.coverage)}; claims without support or contradicted: ${percentWords(summary.unsupportedRate)}`,
    `- Results: ${Object.entries(summary.byStatus).filter(([, n]) => n > 0).map(([s, n]) => `${STATUS_WORDS[s as keyof typeof STATUS_WORDS]} ${n}`).join('; ') || 'none'}`,
    `- Verdicts: ${Object.entries(summary.byVerdict).filter(([, n]) => n > 0).map(([v, n]) => `${VERDICT_WORDS[v as keyof typeof VERDICT_WORDS]} ${n}`).join('; ') || 'none'}`,
    `- Decisions: ${Object.entries(summary.byDecision).filter(([, n]) => n > 0).map(([d, n]) => `${DECISION_WORDS[d as keyof typeof DECISION_WORDS]} ${n}`).join('; ') || 'none'}`,
    '',
  );

  out.push('## Unresolved citations', '');
  if (summary.unresolved.length === 0) out.push('None: every citation was found and supports its claim, or a reviewer decided on it.', '');
  for (const u of summary.unresolved) {
    const n = order.numberOf.get(u.citation);
    const ref = n !== undefined ? ` [^${n}]` : ' (not in this report)';
    out.push(`- \\[${mdInline(u.marker)}\\] ${mdInline(asSentence(u.claim))}${ref} Open because ${u.reasons.map((r) => UNRESOLVED_WORDS[r]).join('; ')}. ${mdInline(STATUS_WORDS[u.status])}; ${DECISION_WORDS[u.decision]}.`);
  }
  if (summary.unresolved.length > 0) out.push('');

  out.push('## Sources', '');
  if (report.sources.length === 0) out.push('No workspace source is cited.', '');
  else {
    out.push('| ID | Title | File | SHA-256 | Size (bytes) | Health at export | Snapshot |', '| --- | --- | --- | --- | ---: | --- | --- |');
    for (const s of report.sources) {
      out.push(`| ${s.id} | ${cell(s.title ?? '')} | ${cell(s.fileName)} | \`${s.sha256}\` | ${s.size} | ${HEALTH_WORDS[s.health]} | ${s.snapshot ? 'yes' : 'no'} |`);
    }
    out.push('');
  }

  out.push('## Provenance', '');
  out.push(
    `- Workspace: ${mdInline(provenance.workspaceId)}`,
    `- Verification run: ${provenance.runId}`,
    `- Evidence Desk ${mdInline(provenance.appVersion)}`,
    `- Exported: ${mdInline(timeWords(provenance.exportedAt))}${provenance.options.reviewer ? ` by ${mdInline(provenance.options.reviewer)}` : ''}`,
    `- Audit log head: ${provenance.auditHead ? `\`${provenance.auditHead}\`` : 'none (the audit log was empty)'}`,
    `- Options: ${provenance.options.citations === 'all' ? 'all citations' : 'accepted citations only'}; excerpts ${provenance.options.excerpts ? 'included' : 'left out'}; reviewer notes ${provenance.options.notes ? 'included' : 'left out'}`,
    `- Report content hash (SHA-256): \`${report.contentHash}\``,
    '',
  );

  if (order.notes.length > 0) {
    out.push(...order.notes.map((c, i) => footnote(i + 1, c, report)), '');
  }
  return out.join('\n');
}
