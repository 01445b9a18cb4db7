/**
 * The report as one self-contained HTML file: inline CSS, images only as data: URIs, no script,
 * and a Content-Security-Policy that forbids every request, so opening it fetches nothing even if
 * a document's text carried markup (all such text is escaped). It is the only layout: the PDF
 * report is this file printed by Chromium (headings give the PDF outline).
 */
import { REPORT_CSS } from './html-style.ts';
import { REPORT_SECTIONS } from './outline.ts';
import { readingOrder } from './reading-order.ts';
import { linksOf } from './report-links.ts';
import type { Report, ReportCitation, ReportExcerpt, ReportSource } from './schema.ts';
import {
  judgeWords,
  DECISION_WORDS,
  HEALTH_WORDS,
  STATUS_WORDS,
  UNRESOLVED_WORDS,
  VERDICT_WORDS,
  asSentence,
  claimedWords,
  decisionDetail,
  evidencePlace,
  percentWords,
  timeWords,
} from './words.ts';
import { countWords } from '../text/count-words.ts';

/** Text as HTML character data or an attribute value (double- or single-quoted). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

type Tone = 'ok' | 'warn' | 'bad' | 'info';

/** The tone and icon of a citation: by result, and the reviewer's decision overrides none of it. */
function toneOf(c: ReportCitation): { tone: Tone; icon: string } {
  if (c.status === 'source_unknown' || c.status === 'not_found' || c.verdict === 'contradicted') return { tone: 'bad', icon: '✗' };
  if (c.status === 'partial' || c.verdict === 'weak' || c.verdict === 'not_found') return { tone: 'warn', icon: '!' };
  if (c.status === 'no_quote') return { tone: 'info', icon: '?' };
  return { tone: 'ok', icon: '✓' };
}

const DECISION_TONE: Record<ReportCitation['review']['decision'], Tone> = { accepted: 'ok', rejected: 'bad', flagged: 'warn', none: 'info' };

function excerptHtml(x: ReportExcerpt): string {
  if ('text' in x) {
    const { before, quote, after } = x.text;
    return `<figure class="excerpt"><blockquote class="excerpt-text">${escapeHtml(before)}<mark>${escapeHtml(quote)}</mark>${escapeHtml(after)}</blockquote><figcaption>${escapeHtml(x.caption)}</figcaption></figure>`;
  }
  const { width, height } = x.image;
  const pct = (v: number, of: number): string => `${((100 * v) / of).toFixed(3)}%`;
  // Boxes in percentages of the image, so they stay on the characters at any scale.
  const boxes = x.boxes
    .map((b) => `<span class="box" style="left:${pct(b.x, width)};top:${pct(b.y, height)};width:${pct(b.width, width)};height:${pct(b.height, height)}"></span>`)
    .join('');
  return `<figure class="excerpt"><div class="excerpt-frame"><img src="${escapeHtml(x.image.dataUri)}" width="${width}" height="${height}" alt="${escapeHtml(x.caption)}">${boxes}</div><figcaption>${escapeHtml(x.caption)}</figcaption></figure>`;
}

function sourceWords(c: ReportCitation, sources: ReadonlyMap<string, ReportSource>): string {
  const s = c.source ? sources.get(c.source) : undefined;
  if (s) return `${escapeHtml(s.id)} · ${escapeHtml(s.title ?? s.fileName)}${s.title ? ` <span class="muted">(${escapeHtml(s.fileName)})</span>` : ''}`;
  return `Unknown source${c.unknownSource ? `: ${escapeHtml(c.unknownSource)}` : ''}`;
}

function citationHtml(n: number, c: ReportCitation, sources: ReadonlyMap<string, ReportSource>, backRef: boolean): string {
  const { tone, icon } = toneOf(c);
  const r = c.review;
  const facts: [string, string][] = [
    ['Claim', escapeHtml(c.claim)],
    ['Source', sourceWords(c, sources)],
    ['Found at', escapeHtml(evidencePlace(c))],
  ];
  const claimed = claimedWords(c);
  if (claimed && c.match) facts.push(['Cited at', escapeHtml(claimed)]);
  facts.push(
    ['Result', `<span class="badge tone-${tone}"><span aria-hidden="true">${icon}</span> ${escapeHtml(STATUS_WORDS[c.status])}</span> ${escapeHtml(VERDICT_WORDS[c.verdict])}${c.match ? ` · score ${c.score.toFixed(2)}` : ''}`],
    ['Decision', `<span class="badge tone-${DECISION_TONE[r.decision]}">${escapeHtml(DECISION_WORDS[r.decision])}</span> ${escapeHtml(decisionDetail(r))}`],
  );
  const links = linksOf(c, c.source ? sources.get(c.source) : undefined);
  const linkParts = [
    links.desk ? `<a class="desk-link" href="${escapeHtml(links.desk)}">Open in Evidence Desk</a>` : '<span class="muted">no place to open (the quote was not found)</span>',
    links.file ? (links.file.href ? `<a class="file-link" href="${escapeHtml(links.file.href)}">${escapeHtml(links.file.words)}</a>` : `<span class="file-gone">${escapeHtml(links.file.words)}</span>`) : '',
  ].filter(Boolean);
  facts.push(['Links', linkParts.join(' · ')]);
  if (c.context) facts.push(['Context', escapeHtml(c.context)]);
  if (c.notes.length > 0) facts.push(['Notes', c.notes.map(escapeHtml).join('<br>')]);
  if (c.judge) facts.push(['Model judge', escapeHtml(judgeWords(c.judge))]);
  const history =
    r.history.length > 1
      ? `<ul class="history" aria-label="Decision history">${r.history
          .map((e) => `<li>${escapeHtml(`${timeWords(e.at)}: ${DECISION_WORDS[e.decision]}${e.reviewer ? ` by ${e.reviewer}` : ''}${e.note ? ` — ${e.note}` : ''}`)}</li>`)
          .join('')}</ul>`
      : '';
  const quote = c.quote ? `<blockquote class="quote">${escapeHtml(c.quote)}</blockquote>` : '<p class="no-quote">No quote given: support is judged from the claim.</p>';
  return `<li class="citation tone-${tone}" id="note-${n}" data-citation="${escapeHtml(c.id)}" data-status="${c.status}" data-verdict="${c.verdict}" data-decision="${r.decision}">
<h3>${backRef ? `<a class="fn-back" href="#ref-${n}" aria-label="Back to the answer">${n}</a>` : n}. Citation [${escapeHtml(c.marker)}]</h3>
${quote}
${c.excerpt ? excerptHtml(c.excerpt) : ''}
<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>
${history}</li>`;
}

function countList(title: string, counts: Record<string, number>, words: Record<string, string>): string {
  const items = Object.entries(counts).filter(([, n]) => n > 0);
  return `<div><strong>${title}</strong><ul>${items.length === 0 ? '<li>none</li>' : items.map(([k, n]) => `<li>${escapeHtml(words[k] ?? k)}: ${n}</li>`).join('')}</ul></div>`;
}

export function renderHtml(report: Report): string {
  const order = readingOrder(report);
  const { summary, provenance } = report;
  const sources = new Map(report.sources.map((s) => [s.id, s]));
  const referenced = new Set<number>();
  let answer = '';
  for (const p of order.pieces) {
    if (p.kind === 'text') answer += escapeHtml(p.text);
    else if (p.note === null) answer += `<span class="marker-plain" title="${provenance.options.citations === 'accepted' ? 'Not accepted: not in this report' : 'No citation has this marker'}">[${escapeHtml(p.label)}]</span>`;
    else {
      const id = referenced.has(p.note) ? '' : ` id="ref-${p.note}"`;
      referenced.add(p.note);
      answer += `<sup><a${id} href="#note-${p.note}" aria-label="Citation ${p.note}">[${p.note}]</a></sup>`;
    }
  }
  const unresolved =
    summary.unresolved.length === 0
      ? '<p>None: every citation was found and supports its claim, or a reviewer decided on it.</p>'
      : `<ul class="unresolved">${summary.unresolved
          .map((u) => {
            const n = order.numberOf.get(u.citation);
            const link = n !== undefined ? ` <a href="#note-${n}">(citation ${n})</a>` : ' <span class="muted">(not in this report)</span>';
            return `<li><strong>[${escapeHtml(u.marker)}]</strong>${link} ${escapeHtml(asSentence(u.claim))} Open because ${escapeHtml(u.reasons.map((r) => UNRESOLVED_WORDS[r]).join('; '))}. <span class="muted">${escapeHtml(STATUS_WORDS[u.status])}; ${escapeHtml(DECISION_WORDS[u.decision])}.</span></li>`;
          })
          .join('')}</ul>`;
  const sourceRows = report.sources
    .map(
      (s) => `<tr><td data-label="ID">${escapeHtml(s.id)}</td><td data-label="Title">${s.title ? escapeHtml(s.title) : '<span class="muted">none recorded</span>'}</td><td data-label="File">${escapeHtml(s.fileName)}${s.path ? `<br><span class="muted">${escapeHtml(s.path)}</span>` : ''}</td><td data-label="SHA-256" class="hash">${s.sha256}</td><td data-label="Size" class="num">${countWords(s.size)} bytes</td><td data-label="Health at export">${escapeHtml(HEALTH_WORDS[s.health])}${s.snapshot ? '' : ' (no snapshot)'}</td></tr>`,
    )
    .join('\n');
  const title = report.answer.question ? `Verified report: ${report.answer.question}` : `Verified report: answer ${report.answer.id}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Evidence Desk ${escapeHtml(provenance.appVersion)}">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main>
<header>
<h1>Verified report</h1>
${report.answer.question ? `<p class="question"><strong>Question:</strong> ${escapeHtml(report.answer.question)}</p>` : ''}
<p class="meta">Answer ${report.answer.id} from ${escapeHtml(report.answer.origin)} · exported ${escapeHtml(timeWords(provenance.exportedAt))}${provenance.options.reviewer ? ` by ${escapeHtml(provenance.options.reviewer)}` : ''}</p>
<nav class="contents" aria-label="Contents">${REPORT_SECTIONS.map((s) => `<a href="#${s.id}">${s.title}</a>`).join(' · ')}</nav>
</header>
<section aria-labelledby="h-answer"><h2 id="h-answer">Answer</h2>
<div class="answer">${answer}</div>
${order.unmarked.length > 0 ? `<p class="muted">Citations no marker in the text points at: ${order.unmarked.map((n) => `<a href="#note-${n}">[${n}]</a>`).join(' ')}</p>` : ''}
</section>
<section aria-labelledby="h-summary"><h2 id="h-summary">Summary</h2>
<p>${summary.total} citations${summary.included !== summary.total ? `, ${summary.included} in this report (only accepted citations)` : ''}. Claims supported: <strong>${percentWords(summary.coverage)}</strong>; without support or contradicted: <strong>${percentWords(summary.unsupportedRate)}</strong>.</p>
<div class="counts">${countList('Results', summary.byStatus, STATUS_WORDS)}${countList('Verdicts', summary.byVerdict, VERDICT_WORDS)}${countList('Decisions', summary.byDecision, DECISION_WORDS)}</div>
</section>
<section aria-labelledby="h-unresolved"><h2 id="h-unresolved">Unresolved citations</h2>
${unresolved}
</section>
<section aria-labelledby="h-citations"><h2 id="h-citations">Citations</h2>
${order.notes.length === 0 ? '<p>No citation is in this report.</p>' : `<ol class="citations">${order.notes.map((c, i) => citationHtml(i + 1, c, sources, referenced.has(i + 1))).join('\n')}</ol>`}
</section>
<section aria-labelledby="h-sources"><h2 id="h-sources">Sources</h2>
${report.sources.length === 0 ? '<p>No workspace source is cited.</p>' : `<div class="table-wrap"><table class="sources"><thead><tr><th>ID</th><th>Title</th><th>File</th><th>SHA-256</th><th>Size</th><th>Health at export</th></tr></thead><tbody>\n${sourceRows}\n</tbody></table></div>`}
</section>
<section aria-labelledby="h-provenance"><h2 id="h-provenance">Provenance</h2>
<dl class="facts">
<dt>Workspace</dt><dd>${escapeHtml(provenance.workspaceId)}</dd>
<dt>Verification run</dt><dd>${provenance.runId}</dd>
<dt>App</dt><dd>Evidence Desk ${escapeHtml(provenance.appVersion)}</dd>
<dt>Exported</dt><dd>${escapeHtml(timeWords(provenance.exportedAt))}</dd>
<dt>Audit log head</dt><dd class="hash">${provenance.auditHead ? escapeHtml(provenance.auditHead) : 'none (the audit log was empty)'}</dd>
<dt>Options</dt><dd>${provenance.options.citations === 'all' ? 'All citations' : 'Accepted citations only'}; excerpts ${provenance.options.excerpts ? 'included' : 'left out'}; reviewer notes ${provenance.options.notes ? 'included' : 'left out'}</dd>
<dt>Report content hash</dt><dd class="hash">${report.contentHash}</dd>
</dl>
<p class="muted">The JSON export of this report carries the same content hash; <code>evidesk report check</code> re-checks it against the workspace.</p>
</section>
</main>
</body>
</html>
`;
}
